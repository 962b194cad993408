package dev.troupe.actor.tests.routing;

import static dev.troupe.actor.tests.routing.RoutingFixtures.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.pattern.AskTimeoutException;
import dev.troupe.routing.ScatterGatherFirstCompletedGroup;
import dev.troupe.routing.ScatterGatherFirstCompletedPool;
import dev.troupe.routing.TailChoppingPool;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FirstReplyRoutersTest {
  @RegisterExtension
  static final ActorSystemExtension troupe = ActorSystemExtension.perClass("");

  /** Tells the probe it was tried; replies only if it is the {@code answering}-th routee tried. */
  record Tried(ActorRef routee, long nanos) {}

  static final class Candidate extends AbstractActor {
    private final ActorRef probe;
    private final AtomicInteger order;
    private final int answering;

    Candidate(ActorRef probe, AtomicInteger order, int answering) {
      this.probe = probe;
      this.order = order;
      this.answering = answering;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchAny(m -> {
            probe.tell(new Tried(getSelf(), System.nanoTime()), getSelf());
            if (order.incrementAndGet() == answering) {
              getSender().tell("answer to " + m, getSelf());
            }
          })
          .build();
    }
  }

  private static Props candidates(TestProbe observer, int answering) {
    AtomicInteger order = new AtomicInteger();
    ActorRef probe = observer.getRef();
    return Props.create(Candidate.class, () -> new Candidate(probe, order, answering));
  }

  @Test
  void scatterGatherPassesOnTheFirstReplyOnly() {
    ActorSystem system = troupe.system();
    TestProbe observer = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    // Every routee is tried; only the first to get the message answers, and only once.
    ActorRef router = system.actorOf(
        candidates(observer, 1).withRouter(new ScatterGatherFirstCompletedPool(3, Duration.ofSeconds(3))));
    router.tell("q", client.getRef());
    assertEquals("answer to q", client.expectMsgClass(WAIT, String.class));
    assertEquals(router, client.getLastSender());
    observer.receiveN(3, WAIT); // it went to all three
    client.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void scatterGatherFailsWithAnAskTimeoutWhenNoRouteeAnswersWithin() {
    ActorSystem system = troupe.system();
    TestProbe observer = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef router = system.actorOf(
        candidates(observer, -1).withRouter(new ScatterGatherFirstCompletedPool(2, Duration.ofMillis(300))));
    long start = System.nanoTime();
    router.tell("q", client.getRef());
    Status.Failure f = client.expectMsgClass(WAIT, Status.Failure.class);
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertInstanceOf(AskTimeoutException.class, f.cause());
    assertTrue(tookMs >= 250 && tookMs < 3000, "timed out after " + tookMs + " ms, expected about 300");
  }

  @Test
  void scatterGatherGroupAsksEveryPath() {
    ActorSystem system = troupe.system();
    TestProbe observer = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    Props p = candidates(observer, 2);
    system.actorOf(p, "sg-a");
    system.actorOf(p, "sg-b");
    ActorRef router = system.actorOf(
        p.withRouter(new ScatterGatherFirstCompletedGroup(java.util.List.of("/user/sg-a", "/user/sg-b"), Duration.ofSeconds(3))));
    router.tell("g", client.getRef());
    assertEquals("answer to g", client.expectMsgClass(WAIT, String.class));
    observer.receiveN(2, WAIT);
  }

  @Test
  void tailChoppingTriesTheNextRouteeEveryIntervalUntilOneAnswers() {
    ActorSystem system = troupe.system();
    TestProbe observer = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    Duration interval = Duration.ofMillis(300);
    // The second routee tried answers; the third is never tried.
    ActorRef router = system.actorOf(
        candidates(observer, 2).withRouter(new TailChoppingPool(3, Duration.ofSeconds(5), interval)));
    router.tell("t", client.getRef());
    Tried first = observer.expectMsgClass(WAIT, Tried.class);
    Tried second = observer.expectMsgClass(WAIT, Tried.class);
    long gapMs = (second.nanos() - first.nanos()) / 1_000_000;
    assertTrue(gapMs >= 250, "second try after " + gapMs + " ms, expected about " + interval.toMillis());
    assertNotEquals(first.routee(), second.routee());
    assertEquals("answer to t", client.expectMsgClass(WAIT, String.class));
    observer.expectNoMessage(Duration.ofMillis(600)); // two more intervals: no third try
  }

  @Test
  void tailChoppingTriesEachRouteeOnceAndThenTimesOut() {
    ActorSystem system = troupe.system();
    TestProbe observer = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef router = system.actorOf(
        candidates(observer, -1)
            .withRouter(new TailChoppingPool(3, Duration.ofMillis(800), Duration.ofMillis(100))));
    router.tell("t", client.getRef());
    Set<ActorRef> tried = new HashSet<>();
    for (Object o : observer.receiveN(3, WAIT)) {
      tried.add(((Tried) o).routee());
    }
    assertEquals(3, tried.size(), "each routee tried once");
    Status.Failure f = client.expectMsgClass(WAIT, Status.Failure.class);
    assertInstanceOf(AskTimeoutException.class, f.cause());
    observer.expectNoMessage(Duration.ofMillis(200));
  }
}
