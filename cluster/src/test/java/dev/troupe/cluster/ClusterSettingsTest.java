package dev.troupe.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code troupe.cluster.*}: the documented defaults, and a malformed value named by its full key. */
class ClusterSettingsTest {
  private static final Config REFERENCE = ConfigFactory.defaultReference();

  private static ClusterSettings read(String overrides) {
    return ClusterSettings.from(ConfigFactory.parseString(overrides).withFallback(REFERENCE).resolve(), "sys");
  }

  private static String failure(String overrides) {
    return assertThrows(ConfigurationException.class, () -> read(overrides)).getMessage();
  }

  @Test
  void theDefaultsAreTheDocumentedOnes() {
    ClusterSettings s = read("");
    assertEquals(List.of(), s.seedNodes());
    assertEquals(Set.of(), s.roles());
    assertEquals(1, s.minNrOfMembers());
    assertEquals("jgroups", s.membershipProvider());
    assertEquals(Duration.ofSeconds(1), s.heartbeatInterval());
    assertEquals(Duration.ofSeconds(5), s.acceptableHeartbeatPause());
    assertEquals(ClusterSettings.Strategy.KEEP_MAJORITY, s.downing().strategy());
    assertEquals(Duration.ofSeconds(7), s.downing().stableAfter());
    assertEquals(0, s.downing().quorumSize());
    assertTrue(s.downing().downIfAlone());
    assertEquals(Optional.empty(), s.shutdownAfterUnsuccessfulJoinSeedNodes());
  }

  @Test
  void everyValueIsRead() {
    ClusterSettings s = read("""
        troupe.cluster {
          seed-nodes = ["troupe://sys@127.0.0.1:2552", "troupe://sys@[::1]:2553"]
          roles = [worker, frontend]
          min-nr-of-members = 3
          membership.provider = com.example.MyEngineFactory
          failure-detector { heartbeat-interval = 500ms, acceptable-heartbeat-pause = 3s }
          downing { strategy = static-quorum, stable-after = 20s, static-quorum.quorum-size = 3,
                    keep-oldest.down-if-alone = off }
          shutdown-after-unsuccessful-join-seed-nodes = 30s
        }""");
    assertEquals(List.of(Address.parse("troupe://sys@127.0.0.1:2552"), Address.remote("sys", "::1", 2553)), s.seedNodes());
    assertEquals(Set.of("worker", "frontend"), s.roles());
    assertEquals(3, s.minNrOfMembers());
    assertEquals("com.example.MyEngineFactory", s.membershipProvider());
    assertEquals(Duration.ofMillis(500), s.heartbeatInterval());
    assertEquals(Duration.ofSeconds(3), s.acceptableHeartbeatPause());
    assertEquals(new ClusterSettings.Downing(ClusterSettings.Strategy.STATIC_QUORUM, Duration.ofSeconds(20), 3, false),
        s.downing());
    assertEquals(Optional.of(Duration.ofSeconds(30)), s.shutdownAfterUnsuccessfulJoinSeedNodes());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "keep-majority|KEEP_MAJORITY", "static-quorum|STATIC_QUORUM", "keep-oldest|KEEP_OLDEST",
    "down-all|DOWN_ALL", "off|OFF", "Keep-Majority|KEEP_MAJORITY"})
  void everyStrategyIsKnownByItsName(String name, ClusterSettings.Strategy expected) {
    assertEquals(expected, read("troupe.cluster.downing { strategy = \"" + name + "\", static-quorum.quorum-size = 2 }")
        .downing().strategy());
  }

  /**
   * For every key of the section (but the engine's own and sharding's, which ClusterShardingSettingsTest
   * covers), a malformed value and the key the error must name.
   */
  private static final Map<String, String> MALFORMED = Map.ofEntries(
      Map.entry("seed-nodes", "[\"127.0.0.1:2552\"]"),
      Map.entry("roles", "worker"),
      Map.entry("min-nr-of-members", "-1"),
      Map.entry("membership.provider", "\"  \""),
      Map.entry("failure-detector.heartbeat-interval", "0s"),
      Map.entry("failure-detector.acceptable-heartbeat-pause", "soon"),
      Map.entry("downing.strategy", "keep-the-best"),
      Map.entry("downing.stable-after", "-1s"),
      Map.entry("downing.static-quorum.quorum-size", "-2"),
      Map.entry("downing.keep-oldest.down-if-alone", "perhaps"),
      Map.entry("shutdown-after-unsuccessful-join-seed-nodes", "later"),
      Map.entry("seed-node-timeout", "0s"),
      Map.entry("leave-ack-timeout", "never"));

  @Test
  void aMalformedValueOfEveryKeyIsNamedByItsFullKey() {
    Set<String> keys = new TreeSet<>();
    for (Map.Entry<String, ConfigValue> e : REFERENCE.getConfig("troupe.cluster").entrySet()) {
      if (!e.getKey().startsWith("jgroups.") && !e.getKey().startsWith("sharding.")
          && !e.getKey().startsWith("singleton.") && !e.getKey().startsWith("pub-sub.")) { // each read by its own settings
        keys.add(e.getKey());
      }
    }
    assertEquals(new TreeSet<>(MALFORMED.keySet()), keys, "every key of reference.conf has a malformed case here");
    for (Map.Entry<String, String> e : MALFORMED.entrySet()) {
      String message = failure("troupe.cluster." + e.getKey() + " = " + e.getValue());
      assertTrue(message.contains("'troupe.cluster." + e.getKey() + "'"), e.getKey() + ": " + message);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "'[\"akka://sys@127.0.0.1:2552\"]'|unknown protocol 'akka'",
    "'[\"troupe://sys\"]'|has no host and port",
    "'[\"troupe://sys@127.0.0.1:0\"]'|has port 0",
    "'[\"troupe://other@127.0.0.1:2552\"]'|names actor system 'other'",
    "'[\"troupe://sys@127.0.0.1:2552\", \"troupe://sys@127.0.0.1:2552\"]'|entry 1 ('troupe://sys@127.0.0.1:2552') is listed twice",
    "'[\"troupe://sys@127.0.0.1:2552/user/a\"]'|an address has no path",
    "'[\"troupe://sys@127.0.0.1:99999\"]'|port in 0..65535"})
  void aSeedThatIsNotARemoteAddressOfThisSystemIsRefused(String seeds, String why) {
    String message = failure("troupe.cluster.seed-nodes = " + seeds);
    assertTrue(message.startsWith("invalid configuration value at 'troupe.cluster.seed-nodes': "), message);
    assertTrue(message.contains(why), message);
  }

  @Test
  void anUnknownStrategyListsTheKnownOnes() {
    String message = failure("troupe.cluster.downing.strategy = majority");
    assertTrue(message.contains("unknown strategy 'majority', expected one of keep-majority, static-quorum, keep-oldest,"
        + " down-all, off"), message);
  }

  @Test
  void staticQuorumNeedsAQuorumSize() {
    String message = failure("troupe.cluster.downing.strategy = static-quorum");
    assertTrue(message.startsWith("invalid configuration value at 'troupe.cluster.downing.static-quorum.quorum-size'"),
        message);
    assertEquals(2, read("troupe.cluster.downing { strategy = static-quorum, static-quorum.quorum-size = 2 }")
        .downing().quorumSize());
  }

  @Test
  void theHeartbeatPauseIsAtLeastTheInterval() {
    String message = failure("troupe.cluster.failure-detector { heartbeat-interval = 2s, acceptable-heartbeat-pause = 1s }");
    assertTrue(message.contains("'troupe.cluster.failure-detector.acceptable-heartbeat-pause'"), message);
  }

  @Test
  void aBlankRoleAndAZeroMinimumAreRefused() {
    assertTrue(failure("troupe.cluster.roles = [\"\"]").contains("'troupe.cluster.roles'"));
    assertTrue(failure("troupe.cluster.roles = [\" a\"]").contains("'troupe.cluster.roles'"));
    assertTrue(failure("troupe.cluster.min-nr-of-members = 0").contains("'troupe.cluster.min-nr-of-members': must be >= 1"));
  }

  @Test
  void joinTimeoutIsOffOrAPositiveDuration() {
    assertEquals(Optional.empty(), read("troupe.cluster.shutdown-after-unsuccessful-join-seed-nodes = off")
        .shutdownAfterUnsuccessfulJoinSeedNodes());
    assertEquals(Optional.empty(), read("troupe.cluster.shutdown-after-unsuccessful-join-seed-nodes = \"off\"")
        .shutdownAfterUnsuccessfulJoinSeedNodes());
    assertTrue(failure("troupe.cluster.shutdown-after-unsuccessful-join-seed-nodes = 0s")
        .contains("'troupe.cluster.shutdown-after-unsuccessful-join-seed-nodes'"));
    assertTrue(failure("troupe.cluster.shutdown-after-unsuccessful-join-seed-nodes = on")
        .contains("'troupe.cluster.shutdown-after-unsuccessful-join-seed-nodes'"));
  }

  @Test
  void aSectionThatIsNotAnObjectIsNamed() {
    assertTrue(failure("troupe.cluster = 5").contains("'troupe.cluster'"));
  }

  @Test
  void everyKeyHasAComment() {
    for (Map.Entry<String, ConfigValue> e : REFERENCE.getConfig("troupe.cluster").entrySet()) {
      assertTrue(!e.getValue().origin().comments().isEmpty(),
          "troupe.cluster." + e.getKey() + " has no comment in reference.conf");
    }
  }
}
