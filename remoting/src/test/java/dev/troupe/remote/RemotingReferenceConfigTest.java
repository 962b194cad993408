package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** remoting's reference.conf holds the documented defaults, each key with its comment. */
class RemotingReferenceConfigTest {
  // reference.conf alone: -D overrides (a run that forces a transport, say) would hide its comments
  private static final Config REFERENCE = ConfigFactory.defaultReferenceUnresolved().resolve();

  @Test
  void theTransportDefaultsAreTheDocumentedOnes() {
    Config r = REFERENCE.getConfig("troupe.remote");
    assertEquals("127.0.0.1", r.getString("canonical.hostname"));
    assertEquals(2552, r.getInt("canonical.port"));
    assertEquals("", r.getString("bind.hostname"));
    assertEquals("", r.getString("bind.port"));
    assertEquals(256 * 1024, r.getBytes("maximum-frame-size"));
    assertEquals(Duration.ofSeconds(1), r.getDuration("watch-failure-detector.heartbeat-interval"));
    assertEquals(10.0, r.getDouble("watch-failure-detector.threshold"));
    assertEquals(Duration.ofSeconds(10), r.getDuration("watch-failure-detector.acceptable-heartbeat-pause"));
    assertFalse(r.getBoolean("deployment.enabled"));
    assertEquals(List.of(), r.getStringList("deployment.allowed-classes"));
    assertFalse(r.getBoolean("untrusted-mode"));
    assertFalse(r.getBoolean("tls.enabled"));
    assertEquals("", r.getString("tls.key-store"));
    assertEquals("", r.getString("tls.trust-store"));
    assertEquals("", r.getString("tls.key-password"));
    assertFalse(r.getBoolean("tls.hostname-verification"));
    assertTrue(r.getBoolean("tls.verify-peer-origin"));
  }

  @Test
  void theSerializationDefaultsNameTheJacksonSerializersAndKeepJavaSerializationOff() {
    Config s = REFERENCE.getConfig("troupe.serialization");
    assertEquals("dev.troupe.serialization.JacksonJsonSerializer", s.getString("serializers.jackson-json"));
    assertEquals("dev.troupe.serialization.JacksonCborSerializer", s.getString("serializers.jackson-cbor"));
    assertFalse(s.getBoolean("allow-java-serialization"));
    assertEquals("troupe-actor-ref", s.getString("bindings.\"dev.troupe.actor.ActorRef\""));
  }

  @Test
  void everyKeyHasAComment() {
    for (String root : List.of("troupe.remote", "troupe.serialization")) {
      for (Map.Entry<String, ConfigValue> e : REFERENCE.getConfig(root).entrySet()) {
        assertTrue(
            !e.getValue().origin().comments().isEmpty(), root + "." + e.getKey() + " has no comment in reference.conf");
      }
    }
  }
}
