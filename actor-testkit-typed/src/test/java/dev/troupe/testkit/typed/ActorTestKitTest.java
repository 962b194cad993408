package dev.troupe.testkit.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ActorTestKit, TestProbe and the JUnit 5 extension, against real actors. */
class ActorTestKitTest {
  @RegisterExtension
  static final ActorTestKitExtension testKit = new ActorTestKitExtension("troupe.test.single-expect-default = 3s");

  record Ping(String text, ActorRef<String> replyTo) {}

  static final Behavior<Ping> ECHO = Behaviors.receiveMessage(p -> {
    p.replyTo().tell(p.text());
    return p.text().equals("bye") ? Behaviors.stopped() : Behaviors.same();
  });

  @Test
  void aProbeReceivesWhatTheActorSends() {
    TestProbe<String> probe = testKit.createTestProbe(String.class);
    ActorRef<Ping> echo = testKit.spawn(ECHO, "echo");
    echo.tell(new Ping("a", probe.getRef()));
    echo.tell(new Ping("b", probe.getRef()));
    assertEquals("a", probe.expectMessage("a"));
    assertEquals("b", probe.receiveMessage());
    probe.expectNoMessage(Duration.ofMillis(50));
    echo.tell(new Ping("bye", probe.getRef()));
    probe.expectMessageClass(String.class);
    probe.expectTerminated(echo);
  }

  @Test
  void aWrongMessageOrNoneFailsTheExpectation() {
    TestProbe<String> probe = testKit.createTestProbe();
    probe.getRef().tell("x");
    assertThrows(AssertionError.class, () -> probe.expectMessage(Duration.ofMillis(200), "y"));
    assertThrows(AssertionError.class, () -> probe.receiveMessage(Duration.ofMillis(50)));
  }

  @Test
  void severalMessagesAndAwaitAssert(ActorTestKit kit) {
    TestProbe<Integer> probe = kit.createTestProbe();
    for (int i = 0; i < 3; i++) {
      probe.getRef().tell(i);
    }
    assertEquals(List.of(0, 1, 2), probe.receiveSeveralMessages(3));
    assertEquals(kit, testKit.testKit());
    assertEquals("ok", probe.awaitAssert(() -> "ok"));
  }

  @Test
  void aSpawnedActorThatFailsStopsAsUnderATypedParentAndNamesAreChecked() {
    TestProbe<String> probe = testKit.createTestProbe();
    ActorRef<String> fragile = testKit.spawn(Behaviors.<String>receiveMessage(m -> {
      throw new IllegalStateException("fails on " + m);
    }), "fragile");
    assertEquals("/user/guardian/fragile", fragile.path().toStringWithoutAddress()); // the typed guardian's child
    fragile.tell("anything");
    probe.expectTerminated(fragile); // a classic parent would have restarted it
    ActorRef<String> taken = testKit.spawn(Behaviors.<String>empty(), "taken");
    assertThrows(dev.troupe.actor.InvalidActorNameException.class, () -> testKit.spawn(Behaviors.<String>empty(), "taken"));
    testKit.testKit().stop(taken);
  }

  @Test
  void stopWaitsUntilTheActorIsGone() {
    ActorRef<Ping> echo = testKit.spawn(ECHO);
    testKit.testKit().stop(echo);
    TestProbe<String> probe = testKit.createTestProbe();
    probe.expectTerminated(echo, Duration.ofSeconds(1));
  }

  @Test
  void aKitOfItsOwnShutsDownVerified() {
    ActorTestKit own = ActorTestKit.create();
    TestProbe<String> probe = own.createTestProbe();
    own.spawn(Behaviors.<String>setup(ctx -> {
      probe.getRef().tell(ctx.getSystem().name());
      return Behaviors.ignore();
    }));
    assertEquals(own.system().name(), probe.receiveMessage());
    own.shutdownTestKit();
  }
}
