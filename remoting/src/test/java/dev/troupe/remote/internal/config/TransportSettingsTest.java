package dev.troupe.remote.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.remote.internal.config.RemoteSettings.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code troupe.remote.advanced.transport}: read once into the settings, {@code nio} by default,
 * a malformed value a {@link ConfigurationException} naming the full key and the choices.
 */
class TransportSettingsTest {
  private static final String KEY = "troupe.remote.advanced.transport";

  private static RemoteSettings settings(String hocon) {
    // reference.conf without -D overrides, so that the default is read even in a run that forces a transport
    return RemoteSettings.from(ConfigFactory.parseString(hocon).withFallback(ConfigFactory.defaultReferenceUnresolved()).resolve());
  }

  @Test
  void nioByDefaultAndEachChoiceByName() {
    assertEquals(Transport.NIO, settings("").transport());
    assertEquals(Transport.NIO, settings(KEY + " = nio").transport());
    assertEquals(Transport.EPOLL, settings(KEY + " = epoll").transport());
    assertEquals(Transport.AUTO, settings(KEY + " = auto").transport());
    assertEquals(Transport.EPOLL, settings(KEY + " = \" epoll \"").transport(), "quoted and padded, as -D may give it");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"io_uring", "NIO", "\"\"", "3", "[]", "{ a = 1 }"})
  void aMalformedValueNamesTheFullKey(String value) {
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> settings(KEY + " = " + value));
    assertTrue(e.getMessage().contains("'" + KEY + "'"), "names '" + KEY + "': " + e.getMessage());
  }
}
