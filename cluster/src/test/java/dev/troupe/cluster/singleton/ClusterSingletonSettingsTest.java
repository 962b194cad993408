package dev.troupe.cluster.singleton;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import dev.troupe.actor.ConfigurationException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code troupe.cluster.singleton.*}: the documented defaults, every key read, a malformed value named by its key. */
class ClusterSingletonSettingsTest {
  private static final Config REFERENCE = ConfigFactory.defaultReference();

  private static Config config(String overrides) {
    return ConfigFactory.parseString(overrides).withFallback(REFERENCE).resolve();
  }

  @Test
  void theDefaultsAreTheDocumentedOnes() {
    ClusterSingletonManagerSettings m = ClusterSingletonManagerSettings.create(config(""));
    assertEquals("singleton", m.singletonName());
    assertEquals(Optional.empty(), m.role());
    assertEquals(Duration.ofSeconds(1), m.handOverRetryInterval());
    assertEquals(15, m.handOverRetries());
    assertEquals(Duration.ofSeconds(1), m.proxyPauseTimeout());
    ClusterSingletonProxySettings p = ClusterSingletonProxySettings.create(config(""));
    assertEquals("singleton", p.singletonName());
    assertEquals(Optional.empty(), p.role());
    assertEquals(1000, p.bufferSize());
    assertEquals(Duration.ofSeconds(1), p.identificationInterval());
  }

  @Test
  void everyKeyIsRead() {
    Config c = config("""
        troupe.cluster.singleton {
          singleton-name = boss, role = worker, hand-over-retry-interval = 250ms, hand-over-retries = 4,
          proxy-pause-timeout = 3s, proxy { buffer-size = 0, identification-interval = 2s }
        }""");
    ClusterSingletonManagerSettings m = ClusterSingletonManagerSettings.create(c);
    assertEquals("boss", m.singletonName());
    assertEquals(Optional.of("worker"), m.role());
    assertEquals(Duration.ofMillis(250), m.handOverRetryInterval());
    assertEquals(4, m.handOverRetries());
    assertEquals(Duration.ofSeconds(3), m.proxyPauseTimeout());
    ClusterSingletonProxySettings p = ClusterSingletonProxySettings.create(c);
    assertEquals("boss", p.singletonName());
    assertEquals(Optional.of("worker"), p.role());
    assertEquals(0, p.bufferSize());
    assertEquals(Duration.ofSeconds(2), p.identificationInterval());
  }

  /** For every key of the section, a malformed value the error must name the key of. */
  private static final Map<String, String> MALFORMED = Map.of(
      "singleton-name", "\"a/b\"",
      "role", "\" worker\"",
      "hand-over-retry-interval", "soon",
      "hand-over-retries", "0",
      "proxy-pause-timeout", "-1s",
      "proxy.buffer-size", "-1",
      "proxy.identification-interval", "0ms");

  @Test
  void everyKeyHasACommentAndAMalformedCase() {
    Set<String> keys = new TreeSet<>();
    for (Map.Entry<String, ConfigValue> e : REFERENCE.getConfig("troupe.cluster.singleton").entrySet()) {
      keys.add(e.getKey());
      assertTrue(!e.getValue().origin().comments().isEmpty(),
          "troupe.cluster.singleton." + e.getKey() + " has no comment in reference.conf");
    }
    assertEquals(new TreeSet<>(MALFORMED.keySet()), keys);
    for (Map.Entry<String, String> e : MALFORMED.entrySet()) {
      aMalformedValueNamesItsFullKey(e.getKey() + " = " + e.getValue(), "troupe.cluster.singleton." + e.getKey());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "singleton-name = \"\"|troupe.cluster.singleton.singleton-name",
    "singleton-name = \"a/b\"|troupe.cluster.singleton.singleton-name",
    "role = \" worker\"|troupe.cluster.singleton.role",
    "role = [a]|troupe.cluster.singleton.role",
    "hand-over-retry-interval = soon|troupe.cluster.singleton.hand-over-retry-interval",
    "hand-over-retry-interval = 0s|troupe.cluster.singleton.hand-over-retry-interval",
    "hand-over-retries = 0|troupe.cluster.singleton.hand-over-retries",
    "hand-over-retries = many|troupe.cluster.singleton.hand-over-retries",
    "proxy-pause-timeout = -1s|troupe.cluster.singleton.proxy-pause-timeout",
    "proxy.buffer-size = -1|troupe.cluster.singleton.proxy.buffer-size",
    "proxy.identification-interval = 0ms|troupe.cluster.singleton.proxy.identification-interval"})
  void aMalformedValueNamesItsFullKey(String setting, String key) {
    Config c = config("troupe.cluster.singleton." + setting);
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> {
      ClusterSingletonManagerSettings.create(c);
      ClusterSingletonProxySettings.create(c);
    });
    assertTrue(e.getMessage().contains("'" + key + "'"), e.getMessage());
  }

  @Test
  void theWithMethodsCheckTheirArguments() {
    ClusterSingletonManagerSettings m = ClusterSingletonManagerSettings.create(config(""));
    assertEquals(Optional.of("r"), m.withRole("r").role());
    assertEquals(Optional.empty(), m.withRole("r").withRole((String) null).role());
    assertEquals("boss", m.withSingletonName("boss").singletonName());
    assertThrows(IllegalArgumentException.class, () -> m.withSingletonName("a b"));
    assertThrows(IllegalArgumentException.class, () -> m.withHandOverRetryInterval(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> m.withHandOverRetries(0));
    ClusterSingletonProxySettings p = ClusterSingletonProxySettings.create(config(""));
    assertThrows(IllegalArgumentException.class, () -> p.withBufferSize(-1));
    assertThrows(IllegalArgumentException.class, () -> p.withIdentificationInterval(Duration.ofSeconds(-1)));
    assertEquals(5, p.withBufferSize(5).bufferSize());
  }

  @ParameterizedTest
  @CsvSource({"boss", "/", "/user/", "/user//boss", "/user/a b"})
  void aProxyNeedsTheManagersPathWithinItsNode(String path) {
    ClusterSingletonProxySettings p = ClusterSingletonProxySettings.create(config(""));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ClusterSingletonProxy.props(path, p));
    assertTrue(e.getMessage().contains("singletonManagerPath"), e.getMessage());
  }
}
