package dev.troupe.actor.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which {@code troupe.*} keys a system warns about at start: those no reference.conf knows. */
class ConfigWarningsTest {
  private static final Config REFERENCE = ConfigFactory.defaultReference();

  private static List<String> warningsFor(String hocon) {
    Config config = ConfigFactory.parseString(hocon).withFallback(REFERENCE).resolve();
    return ConfigWarnings.unknownKeys(config, REFERENCE);
  }

  @Test
  void aMisspelledKeyIsReportedOnceWithTheClosestKnownKey() {
    List<String> warnings = warningsFor("troupe.actor.default-dispatcher.throughtput = 10");
    assertEquals(1, warnings.size(), warnings.toString());
    String w = warnings.get(0);
    assertTrue(w.contains("'troupe.actor.default-dispatcher.throughtput'"), "names the key: " + w);
    assertTrue(w.contains("'troupe.actor.default-dispatcher.throughput'"), "names the closest key: " + w);
    assertTrue(w.contains("troupe.log-config-warnings"), "says how to silence it: " + w);
  }

  @Test
  void aMisspelledSectionIsReportedForEachKeyInIt() {
    List<String> warnings = warningsFor("troupe.schedular { tick-duration = 5ms, ticks-per-wheel = 64 }");
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("'troupe.scheduler.tick-duration'"), warnings.get(0));
  }

  @Test
  void theDefaultsKnownKeysAndKeysOutsideTroupeAreNotReported() {
    assertEquals(List.of(), warningsFor(""));
    assertEquals(List.of(), warningsFor("troupe.daemonic = on\ntroupe.actor.default-dispatcher.throughput = 1"));
    assertEquals(List.of(), warningsFor("my-app.troupe-ish.setting = 1\nother-dispatcher.throughtput = 3"));
  }

  @Test
  void freeFormSectionsAreNotReported() {
    String hocon =
        String.join(
            "\n",
            "troupe.serialization.bindings { \"com.example.Order\" = proto }",
            "troupe.serialization.serializers { proto = \"com.example.ProtoSerializer\" }",
            "troupe.actor.my-dispatcher { type = Dispatcher, executor = fork-join-executor, throughput = 2 }",
            "troupe.actor.my-mailbox { mailbox-type = \"com.example.Mailbox\", mailbox-capacity = 5 }",
            "troupe.actor.short-dispatcher { throughput = 3 }",
            "troupe.actor.small-mailbox { mailbox-capacity = 5 }",
            "troupe.actor.io { executor = thread-pool-executor }");
    assertEquals(List.of(), warningsFor(hocon));
  }

  @Test
  void aMisspelledKeyInsideADeploymentSectionIsReportedWithTheKeyItMeant() {
    List<String> warnings =
        warningsFor(
            "troupe.actor.deployment { \"/workers\" { router = round-robin-pool, nr-of-instance = 3,"
                + " target.node = [\"troupe://w@127.0.0.1:2553\"] } }");
    assertEquals(2, warnings.size(), warnings.toString());
    String instances = warnings.stream().filter(w -> w.contains("'nr-of-instance'")).findFirst().orElseThrow();
    assertTrue(instances.contains("did you mean 'troupe.actor.deployment.\"/workers\".nr-of-instances'"), instances);
    String nodes = warnings.stream().filter(w -> w.contains("'target.node'")).findFirst().orElseThrow();
    assertTrue(nodes.contains("did you mean 'troupe.actor.deployment.\"/workers\".target.nodes'"), nodes);
    assertTrue(nodes.contains(SWITCH_NAME), "says how to silence it: " + nodes);
  }

  @Test
  void everyKeyADeploymentSectionMayHoldIsAccepted() {
    String hocon =
        String.join(
            "\n",
            "troupe.actor.deployment {",
            "  \"/pool/*\" { router = tail-chopping-pool, nr-of-instances = 2, within = 1s,",
            "      tail-chopping-router.interval = 5ms, resizer { enabled = on, upper-bound = 4 },",
            "      target.nodes = [\"troupe://w@127.0.0.1:2553\"], pool-dispatcher { throughput = 3 } }",
            "  \"/group\" { router = consistent-hashing-group, routees.paths = [\"/user/a\"], virtual-nodes-factor = 4 }",
            "  \"/lonely\" { remote = \"troupe://w@127.0.0.1:2553\" }",
            "  \"/explorer\" { router = round-robin-pool, optimal-size-exploring-resizer.enabled = on }",
            "}");
    assertEquals(List.of(), warningsFor(hocon));
  }

  @Test
  void aMisspelledDefaultOfDeploymentSectionsIsReported() {
    List<String> warnings = warningsFor("troupe.actor.deployment.default.nr-of-instancs = 2");
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("troupe.actor.deployment.default.nr-of-instances"), warnings.get(0));
  }

  @Test
  void aKeyCloseToASectionOfTheUsersNamesIsPointedToTheSectionNotToOneOfItsEntries() {
    // remoting's reference.conf holds the bindings; this module's tests do not have it on the class path
    Config reference =
        ConfigFactory.parseString("troupe.serialization.bindings { \"[B\" = troupe-bytes, \"java.lang.String\" = troupe-string }")
            .withFallback(REFERENCE);
    Config config =
        ConfigFactory.parseString("troupe.actor.serialization-bindings { \"com.example.Order\" = jackson-cbor }")
            .withFallback(reference)
            .resolve();
    List<String> warnings = ConfigWarnings.unknownKeys(config, reference);
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("did you mean 'troupe.serialization.bindings'?"), warnings.get(0));
  }

  private static final String SWITCH_NAME = ConfigWarnings.SWITCH;
}
