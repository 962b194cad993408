package dev.troupe.cluster.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** {@code troupe.cluster.sharding}: defaults, overrides, and every malformed key named. */
class ClusterShardingSettingsTest {
  private static final Config REFERENCE = ConfigFactory.defaultReference();

  private static ClusterShardingSettings read(String hocon) {
    return ClusterShardingSettings.from(ConfigFactory.parseString(hocon).withFallback(REFERENCE));
  }

  @Test
  void defaults() {
    ClusterShardingSettings s = ClusterShardingSettings.from(REFERENCE);
    assertEquals(1000, s.numberOfShards());
    assertEquals(Optional.empty(), s.role());
    assertEquals(Duration.ofSeconds(10), s.handOverTimeout());
    assertEquals(10000, s.bufferSize());
    assertEquals(Optional.empty(), s.passivateIdleAfter(), "idle passivation is off by default");
    assertEquals(Duration.ofSeconds(2), s.leaveCheckTimeout());
  }

  @Test
  void overrides() {
    ClusterShardingSettings s = read("""
        troupe.cluster.sharding { number-of-shards = 64, role = worker, hand-over-timeout = 3s, buffer-size = 7,
          passivate-idle-after = 2m, leave-check-timeout = 500ms }""");
    assertEquals(64, s.numberOfShards());
    assertEquals(Optional.of("worker"), s.role());
    assertEquals(Duration.ofSeconds(3), s.handOverTimeout());
    assertEquals(7, s.bufferSize());
    assertEquals(Optional.of(Duration.ofMinutes(2)), s.passivateIdleAfter());
    assertEquals(Duration.ofMillis(500), s.leaveCheckTimeout());
    assertEquals(Optional.empty(), read("troupe.cluster.sharding.passivate-idle-after = false").passivateIdleAfter());
  }

  @Test
  void theWithMethodsReturnChangedCopies() {
    ClusterShardingSettings s = ClusterShardingSettings.from(REFERENCE);
    ClusterShardingSettings t = s.withRole("worker").withPassivateIdleAfter(Duration.ofSeconds(30))
        .withBufferSize(3).withHandOverTimeout(Duration.ofSeconds(1)).withLeaveCheckTimeout(Duration.ofMillis(300));
    assertEquals(Optional.empty(), s.role(), "unchanged");
    assertEquals(Optional.of("worker"), t.role());
    assertEquals(Optional.of(Duration.ofSeconds(30)), t.passivateIdleAfter());
    assertEquals(3, t.bufferSize());
    assertEquals(Duration.ofSeconds(1), t.handOverTimeout());
    assertEquals(Duration.ofMillis(300), t.leaveCheckTimeout());
    assertEquals(Duration.ofSeconds(1), t.withRole("x").withBufferSize(2).withPassivateIdleAfter(Duration.ZERO)
        .withHandOverTimeout(Duration.ofSeconds(1)).handOverTimeout());
    assertEquals(Duration.ofMillis(300), t.withRole("x").withBufferSize(2).withPassivateIdleAfter(Duration.ZERO)
        .withHandOverTimeout(Duration.ofSeconds(2)).leaveCheckTimeout(), "kept by every copy");
    assertThrows(IllegalArgumentException.class, () -> s.withLeaveCheckTimeout(Duration.ZERO));
    assertEquals(Optional.empty(), t.withRole(null).role());
    assertEquals(Optional.empty(), t.withRole("").role());
    assertEquals(Optional.empty(), t.withPassivateIdleAfter(Duration.ZERO).passivateIdleAfter());
    assertThrows(IllegalArgumentException.class, () -> s.withRole(" worker"));
    assertThrows(IllegalArgumentException.class, () -> s.withBufferSize(0));
    assertThrows(IllegalArgumentException.class, () -> s.withPassivateIdleAfter(Duration.ofSeconds(-1)));
  }

  private static final Map<String, String> MALFORMED = Map.of(
      "number-of-shards", "0",
      "role", "\" worker\"",
      "hand-over-timeout", "0s",
      "buffer-size", "many",
      "passivate-idle-after", "later",
      "leave-check-timeout", "soon");

  @Test
  void aMalformedValueOfEveryKeyIsNamedByItsFullKey() {
    Set<String> keys = new TreeSet<>();
    for (Map.Entry<String, ConfigValue> e : REFERENCE.getConfig(ClusterShardingSettings.ROOT).entrySet()) {
      keys.add(e.getKey());
      assertFalse(e.getValue().origin().comments().isEmpty(),
          ClusterShardingSettings.ROOT + "." + e.getKey() + " has no comment in reference.conf");
    }
    assertEquals(new TreeSet<>(MALFORMED.keySet()), keys, "every key of reference.conf has a malformed case here");
    for (Map.Entry<String, String> e : MALFORMED.entrySet()) {
      ConfigurationException x = assertThrows(ConfigurationException.class,
          () -> read(ClusterShardingSettings.ROOT + "." + e.getKey() + " = " + e.getValue()), e.getKey());
      assertTrue(x.getMessage().contains("'troupe.cluster.sharding." + e.getKey() + "'"), x.getMessage());
    }
  }
}
