package dev.troupe.remote.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code troupe.remote.advanced.inbound-lanes} and the bounds of a lane: read once, {@code auto}
 * mapped by the processors, a malformed value a {@link ConfigurationException} naming the full key.
 */
class InboundLanesSettingsTest {
  private static RemoteSettings settings(String hocon) {
    return RemoteSettings.from(ConfigFactory.parseString(hocon).withFallback(ConfigFactory.defaultReference()).resolve());
  }

  @Test
  void defaultsAndExplicitValues() {
    RemoteSettings d = settings("");
    assertEquals(20_000, d.inboundLaneQueueSize());
    assertEquals(32L << 20, d.inboundLaneQueueBytes());
    RemoteSettings s =
        settings(
            "troupe.remote.advanced { inbound-lanes = 4, inbound-lane-queue-size = 100, inbound-lane-queue-bytes = 1MiB }");
    assertEquals(4, s.inboundLanes());
    assertEquals(100, s.inboundLaneQueueSize());
    assertEquals(1L << 20, s.inboundLaneQueueBytes());
    assertEquals(1, settings("troupe.remote.advanced.inbound-lanes = 1").inboundLanes(), "1: no hand-off");
    assertEquals(3, settings("troupe.remote.advanced.inbound-lanes = \"3\"").inboundLanes(), "as a string, as -D gives it");
  }

  @Test
  void autoIsOneBelowEightProcessorsElseFour() {
    Config adv = ConfigFactory.parseString("inbound-lanes = auto");
    assertEquals(1, RemoteSettings.inboundLanes(adv, "troupe.remote.advanced", 2));
    assertEquals(1, RemoteSettings.inboundLanes(adv, "troupe.remote.advanced", 7));
    assertEquals(4, RemoteSettings.inboundLanes(adv, "troupe.remote.advanced", 8));
    assertEquals(4, RemoteSettings.inboundLanes(adv, "troupe.remote.advanced", 16));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "troupe.remote.advanced.inbound-lanes | 0",
        "troupe.remote.advanced.inbound-lanes | -2",
        "troupe.remote.advanced.inbound-lanes | 65",
        "troupe.remote.advanced.inbound-lanes | \"many\"",
        "troupe.remote.advanced.inbound-lanes | 2.5",
        "troupe.remote.advanced.inbound-lanes | []",
        "troupe.remote.advanced.inbound-lane-queue-size | 0",
        "troupe.remote.advanced.inbound-lane-queue-size | \"lots\"",
        "troupe.remote.advanced.inbound-lane-queue-bytes | 0",
        "troupe.remote.advanced.inbound-lane-queue-bytes | \"huge\"",
      })
  void aMalformedValueNamesTheFullKey(String key, String value) {
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> settings(key + " = " + value));
    assertTrue(e.getMessage().contains("'" + key + "'"), "names '" + key + "': " + e.getMessage());
  }
}
