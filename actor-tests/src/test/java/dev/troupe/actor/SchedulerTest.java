package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.awaitCond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.TestSupport.Probe;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The system scheduler sending to actors. */
class SchedulerTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

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
      report.tell(ticks.incrementAndGet(), getSelf());
    }
  }

  @Test
  void scheduleOnceSendsTheMessageOnceAfterTheDelayWithTheGivenSender() throws Exception {
    ActorSystem sys = systems.create("once");
    Probe p = new Probe(sys);
    Probe s = new Probe(sys);
    long start = System.nanoTime();
    Cancellable c = sys.scheduler().scheduleOnce(Duration.ofMillis(100), p.ref(), "ding", sys.dispatcher(), s.ref());
    p.expectMsg("ding");
    long took = (System.nanoTime() - start) / 1_000_000;
    assertTrue(took >= 100, "fired early, after " + took + " ms");
    assertEquals(s.ref(), p.lastSender);
    p.expectNoMsg(Duration.ofMillis(150));
    assertFalse(c.cancel(), "a one-shot that already ran cannot be cancelled");
  }

  @Test
  void aCancelledScheduleOnceNeverSends() throws Exception {
    ActorSystem sys = systems.create("oncecancel");
    Probe p = new Probe(sys);
    Cancellable c = sys.scheduler().scheduleOnce(Duration.ofMillis(100), p.ref(), "ding", sys.dispatcher(), null);
    assertTrue(c.cancel());
    assertTrue(c.isCancelled());
    p.expectNoMsg(Duration.ofMillis(250));
  }

  @Test
  void scheduleAtFixedRateSendsRepeatedlyUntilCancelled() throws Exception {
    ActorSystem sys = systems.create("rate");
    Probe p = new Probe(sys);
    AtomicInteger ticks = new AtomicInteger();
    ActorRef counter = sys.actorOf(Props.create(TickCounter.class, ticks, p.ref()));
    Cancellable c = sys.scheduler().scheduleAtFixedRate(
        Duration.ofMillis(10), Duration.ofMillis(20), counter, "tick", sys.dispatcher(), ActorRef.noSender());
    for (int i = 1; i <= 5; i++) {
      p.expectMsg(i);
    }
    assertTrue(c.cancel());
    int atCancel = ticks.get();
    p.expectNoMsg(Duration.ofMillis(150)); // would be ~7 more ticks if it kept going
    // a send that had already started when cancel() ran may still land, but nothing after it
    assertTrue(ticks.get() <= atCancel + 1, "ticks went on after cancel: " + atCancel + " -> " + ticks.get());
  }

  @Test
  void scheduleWithFixedDelayRunsRepeatedlyUntilCancelled() throws Exception {
    ActorSystem sys = systems.create("delay");
    AtomicInteger runs = new AtomicInteger();
    Cancellable c = sys.scheduler().scheduleWithFixedDelay(
        Duration.ZERO, Duration.ofMillis(20), runs::incrementAndGet, sys.dispatcher());
    awaitCond(() -> runs.get() >= 5, "five runs");
    assertTrue(c.cancel());
    int atCancel = runs.get();
    Probe idle = new Probe(sys);
    idle.expectNoMsg(Duration.ofMillis(150)); // waiting is the behaviour: no run after cancel
    assertTrue(runs.get() <= atCancel + 1, "runs went on after cancel: " + atCancel + " -> " + runs.get());
  }

  @Test
  void scheduleWithFixedDelaySendsToAnActor() throws Exception {
    ActorSystem sys = systems.create("delaysend");
    Probe p = new Probe(sys);
    Cancellable c = sys.scheduler().scheduleWithFixedDelay(
        Duration.ofMillis(10), Duration.ofMillis(20), p.ref(), "beat", sys.dispatcher(), ActorRef.noSender());
    p.expectMsg("beat");
    p.expectMsg("beat");
    p.expectMsg("beat");
    c.cancel();
  }
}
