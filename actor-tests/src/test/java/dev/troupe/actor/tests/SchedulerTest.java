package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The system scheduler sending to actors. */
class SchedulerTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Counts "tick"s into a shared counter and reports every one. */
  static final class TickCounter extends UntypedActor {
    private final AtomicInteger ticks;
    private final ActorRef report;

    TickCounter(AtomicInteger ticks, ActorRef report) {
      this.ticks = ticks;
      this.report = report;
    }

    @Override
    public void onReceive(Object message) {
      if (message == SYNC) {
        report.tell(SYNC, getSelf()); // a marker: everything queued before it has been counted
      } else {
        report.tell(ticks.incrementAndGet(), getSelf());
      }
    }
  }

  private static final String SYNC = "sync";

  @Test
  void scheduleOnceSendsTheMessageOnceAfterTheDelayWithTheGivenSender(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    TestProbe s = new TestProbe(sys);
    long start = System.nanoTime();
    Cancellable c = sys.scheduler().scheduleOnce(Duration.ofMillis(100), p.getRef(), "ding", sys.dispatcher(), s.getRef());
    p.expectMsg("ding");
    long took = (System.nanoTime() - start) / 1_000_000;
    assertTrue(took >= 100, "fired early, after " + took + " ms");
    assertEquals(s.getRef(), p.getLastSender());
    p.expectNoMessage(Duration.ofMillis(150));
    assertFalse(c.cancel(), "a one-shot that already ran cannot be cancelled");
  }

  @Test
  void aCancelledScheduleOnceNeverSends(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    Cancellable c = sys.scheduler().scheduleOnce(Duration.ofMillis(100), p.getRef(), "ding", sys.dispatcher(), null);
    assertTrue(c.cancel());
    assertTrue(c.isCancelled());
    p.expectNoMessage(Duration.ofMillis(250));
  }

  @Test
  void scheduleAtFixedRateSendsRepeatedlyUntilCancelled(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    AtomicInteger ticks = new AtomicInteger();
    ActorRef counter = sys.actorOf(Props.create(TickCounter.class, ticks, p.getRef()));
    Cancellable c = sys.scheduler().scheduleAtFixedRate(
        Duration.ofMillis(10), Duration.ofMillis(20), counter, "tick", sys.dispatcher(), ActorRef.noSender());
    for (int i = 1; i <= 5; i++) {
      p.expectMsg(i);
    }
    assertTrue(c.cancel());
    // Ticks sent before cancel() returned may still sit in the counter's mailbox (a slow machine
    // lets several pile up); they are ahead of this marker, so once it is back they are counted.
    counter.tell(SYNC, ActorRef.noSender());
    p.fishForMessage(Duration.ofSeconds(10), "the marker after the cancel", m -> m == SYNC);
    int settled = ticks.get();
    // A send that had already started when cancel() ran may land after the marker; nothing after it.
    Object late = p.receiveOne(Duration.ofMillis(150)); // ~7 more ticks if it kept going
    if (late != null) {
      assertEquals(settled + 1, late, "one in-flight tick at most after cancel");
      p.expectNoMessage(Duration.ofMillis(150));
    }
    assertTrue(ticks.get() <= settled + 1, "ticks went on after cancel: " + settled + " -> " + ticks.get());
  }

  @Test
  void scheduleWithFixedDelayRunsRepeatedlyUntilCancelled(ActorSystem sys, TestKit idle) {
    AtomicInteger runs = new AtomicInteger();
    Cancellable c = sys.scheduler().scheduleWithFixedDelay(
        Duration.ZERO, Duration.ofMillis(20), runs::incrementAndGet, sys.dispatcher());
    idle.awaitCond("five runs", () -> runs.get() >= 5);
    assertTrue(c.cancel());
    int atCancel = runs.get();
    idle.expectNoMessage(Duration.ofMillis(150)); // waiting is the behaviour: no run after cancel
    assertTrue(runs.get() <= atCancel + 1, "runs went on after cancel: " + atCancel + " -> " + runs.get());
  }

  @Test
  void scheduleWithFixedDelaySendsToAnActor(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    Cancellable c = sys.scheduler().scheduleWithFixedDelay(
        Duration.ofMillis(10), Duration.ofMillis(20), p.getRef(), "beat", sys.dispatcher(), ActorRef.noSender());
    p.expectMsg("beat");
    p.expectMsg("beat");
    p.expectMsg("beat");
    c.cancel();
  }
}
