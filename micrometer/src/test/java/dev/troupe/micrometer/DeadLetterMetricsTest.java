package dev.troupe.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.RemoveRoutee;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.Routee;
import dev.troupe.routing.Routees;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code troupe.dead.letters} by {@code reason}: each way a message can go to dead letters moves
 * its own counter, and only that one.
 */
class DeadLetterMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final List<String> REASONS =
      List.of("recipient-stopped", "mailbox-full", "no-such-actor", "no-routee", "explicit", "other");
  private static final String CONFIG = """
      tiny-mailbox { mailbox-type = "dev.troupe.dispatch.BoundedMailbox", mailbox-capacity = 1, mailbox-push-timeout-time = 0s }
      """;

  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(CONFIG);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** Waits on a latch in its first message, so that a bounded mailbox behind it fills up. */
  static final class Blocked extends AbstractActor {
    private final CountDownLatch entered;
    private final CountDownLatch release;

    Blocked(CountDownLatch entered, CountDownLatch release) {
      this.entered = entered;
      this.release = release;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchAny(m -> {
            entered.countDown();
            if (!release.await(20, TimeUnit.SECONDS)) {
              throw new IllegalStateException("the test never released the actor");
            }
          })
          .build();
    }
  }

  private double deadLetters(String reason) {
    FunctionCounter c = registry.find("troupe.dead.letters").tags("reason", reason).functionCounter();
    assertNotNull(c, "troupe.dead.letters with reason " + reason);
    return c.count();
  }

  private Map<String, Double> all() {
    Map<String, Double> m = new LinkedHashMap<>();
    for (String r : REASONS) {
      m.put(r, deadLetters(r));
    }
    return m;
  }

  /** Waits until the counter of {@code reason} moved by one and checks that no other did. */
  private void expectOne(TestKit kit, Map<String, Double> before, String reason) {
    kit.awaitCond(WAIT, Duration.ofMillis(10),
        "troupe.dead.letters{reason=" + reason + "} to move by one (now " + all() + ", before " + before + ")",
        () -> deadLetters(reason) == before.get(reason) + 1);
    Map<String, Double> expected = new LinkedHashMap<>(before);
    expected.put(reason, before.get(reason) + 1);
    assertEquals(expected, all(), "dead letters by reason after one for " + reason);
  }

  @Test
  void everyReasonIsRegisteredFromTheStart() {
    new TroupeMetrics(troupe.system()).bindTo(registry);
    for (String r : REASONS) {
      assertEquals(0, deadLetters(r), "dead letters for " + r + " before any");
    }
    assertEquals(REASONS.size(), registry.find("troupe.dead.letters").functionCounters().size(),
        "one troupe.dead.letters counter per reason");
  }

  @Test
  void eachWayToDeadLettersCountsUnderItsOwnReason() throws Exception {
    ActorSystem s = troupe.system();
    new TroupeMetrics(s).bindTo(registry);
    TestKit kit = new TestKit(s);

    // recipient-stopped: a message to an actor that has terminated
    ActorRef stopped = s.actorOf(Props.create(Blocked.class, () -> new Blocked(new CountDownLatch(1), new CountDownLatch(0))));
    kit.watch(stopped);
    stopped.tell(PoisonPill.getInstance(), ActorRef.noSender());
    kit.expectTerminated(stopped);
    Map<String, Double> before = all();
    stopped.tell("late", ActorRef.noSender());
    expectOne(kit, before, "recipient-stopped");

    // mailbox-full: one message in the actor's hands, one in its mailbox of one, the third refused
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef blocked = s.actorOf(Props.create(Blocked.class, () -> new Blocked(entered, release)).withMailbox("tiny-mailbox"));
    blocked.tell("first", ActorRef.noSender());
    assertTrue(entered.await(20, TimeUnit.SECONDS), "the actor took its first message");
    blocked.tell("second", ActorRef.noSender());
    before = all();
    blocked.tell("third", ActorRef.noSender());
    expectOne(kit, before, "mailbox-full");
    release.countDown();

    // no-such-actor: a selection that matches nothing
    before = all();
    s.actorSelection("/user/nobody-here").tell("lost", ActorRef.noSender());
    expectOne(kit, before, "no-such-actor");

    // no-routee: a group router whose one routee was removed
    ActorRef router = s.actorOf(new RoundRobinGroup(List.of("/user/nobody-here")).props(), "group");
    kit.send(router, GetRoutees.getInstance());
    Routee only = kit.expectMsgClass(WAIT, Routees.class).routees().get(0);
    router.tell(new RemoveRoutee(only), ActorRef.noSender());
    kit.send(router, GetRoutees.getInstance());
    assertEquals(List.of(), kit.expectMsgClass(WAIT, Routees.class).routees(), "routees left");
    before = all();
    router.tell("routed", ActorRef.noSender());
    expectOne(kit, before, "no-routee");

    // explicit: sent to dead letters on purpose
    before = all();
    s.deadLetters().tell("on purpose", ActorRef.noSender());
    expectOne(kit, before, "explicit");
  }
}
