package dev.troupe.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Remoting's meters, counted from the events remoting publishes (two nodes on 127.0.0.1). */
class RemoteMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String REMOTE = """
      troupe.actor.provider = remote
      troupe.remote.canonical.hostname = "127.0.0.1"
      troupe.remote.canonical.port = 0
      """;

  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(REMOTE);

  @Test
  void anAssociationAndADropShowInTheRemoteMeters() {
    ActorSystem a = troupe.system();
    ActorSystem b = troupe.createSystem(REMOTE);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new TroupeMetrics(a).bindTo(registry);
    for (String reason : RemoteCounters.DROP_REASONS) {
      assertNotNull(registry.find("troupe.remote.dropped").tags("reason", reason).functionCounter(),
          "troupe.remote.dropped is registered for reason " + reason + " before any drop");
    }

    TestKit onB = new TestKit(b);
    String path = onB.getTestActor().path().toString();
    TestKit onA = new TestKit(a);
    a.actorSelection(path).tell("hello", ActorRef.noSender());
    onB.expectMsg(WAIT, "hello");
    String peer = b.address().toString();
    onA.awaitCond(WAIT, Duration.ofMillis(10), "an association with " + peer + " counted",
        () -> {
          FunctionCounter c =
              registry.find("troupe.remote.associations").tags("peer", peer).functionCounter();
          return c != null && c.count() == 1;
        });
    Gauge associated = registry.find("troupe.remote.associated").gauge();
    assertNotNull(associated, "troupe.remote.associated");
    assertEquals(1, associated.value(), "nodes associated with a");

    a.actorSelection(path).tell(new Object(), ActorRef.noSender()); // no serializer for it
    onA.awaitCond(WAIT, Duration.ofMillis(10), "a serialization drop counted",
        () -> registry.find("troupe.remote.dropped").tags("reason", "serialization")
            .functionCounter().count() == 1);
    onB.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void aLocalSystemHasNoRemoteMeters() {
    ActorSystem s = troupe.createSystem("troupe.actor.provider = local");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new TroupeMetrics(s).bindTo(registry);
    assertNull(registry.find("troupe.remote.dropped").meter(), "remote meters of a local system");
  }

  @Test
  void aDropReasonSentenceMapsToOneOfAFewCategories() {
    Map<String, String> cases =
        Map.of(
            "cannot serialize it: no serializer for java.lang.Object", "serialization",
            "cannot deserialize it (from troupe://x@127.0.0.1:1): bad", "deserialization",
            "serialized to 9000 bytes, above troupe.remote.maximum-frame-size (100 bytes)", "too-large",
            "the frame would be 9000 bytes, above troupe.remote.maximum-frame-size (1 bytes)", "too-large",
            "troupe://x@127.0.0.1:1 (uid 7) is quarantined: cannot deserialize", "quarantined",
            "troupe.remote.untrusted-mode = on refuses it from troupe://x@h:1: PoisonPill", "untrusted",
            "the recipient /user/a (from troupe://x@h:1) is not on this node", "not-on-this-node",
            "delivery failed: java.lang.IllegalStateException", "delivery-failed",
            "something new", "other");
    cases.forEach((sentence, category) ->
        assertEquals(category, RemoteCounters.category(sentence), "category of: " + sentence));
  }
}
