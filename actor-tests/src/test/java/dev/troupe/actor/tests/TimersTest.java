package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.Props;
import dev.troupe.actor.TimerScheduler;
import dev.troupe.actor.UntypedActorWithTimers;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Actors with timers: keys, replacement, cancellation (also of queued messages), restart and stop. */
class TimersTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static final Duration SHORT = Duration.ofMillis(20);

  /** Runs a step inside the timer actor: (its timers, its self). */
  record Step(BiConsumer<TimerScheduler, ActorRef> body) {}

  /** A timer's message as the actor reports it: the payload and whether the sender was the actor. */
  record Got(Object msg, boolean fromSelf) {}

  /** Reports every message it gets to {@code report}; runs {@link Step}s on request. */
  static final class Timed extends AbstractActorWithTimers {
    private final ActorRef report;

    Timed(ActorRef report) {
      this.report = report;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Step.class, s -> s.body().accept(getTimers(), getSelf()))
          .matchAny(m -> report.tell(new Got(m, getSender().equals(getSelf())), getSelf()))
          .build();
    }
  }

  private static ActorRef timed(ActorSystem sys, TestProbe p) {
    return sys.actorOf(Props.create(Timed.class, p.getRef()));
  }

  /**
   * Keeps the running handler busy: ticks queuing up behind a busy actor (or a slow handler
   * stretching a fixed delay) is the situation these tests set up, not a wait for an event; each
   * test asserts that premise (a witness tick, a gap) so that a too-short pause fails loudly.
   */
  private static void busy(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Receives until {@code last}, failing on any message {@code forbidden}; returns what came before. */
  private static List<Object> until(TestProbe p, Object last, Object forbidden) {
    List<Object> seen = new ArrayList<>();
    while (true) {
      Got g = p.expectMsgClass(Got.class);
      if (g.msg().equals(forbidden)) {
        fail(forbidden + " was received after its timer was cancelled or replaced; before it: " + seen);
      }
      if (g.msg().equals(last)) {
        return seen;
      }
      seen.add(g.msg());
    }
  }

  /**
   * Starts "old" under key "k" and a witness under "w", both every 5 ms, then blocks the actor so
   * that their ticks pile up in its mailbox.
   */
  private static void queueUpOldAndWitness(TimerScheduler t) {
    t.startTimerAtFixedRate("k", "old", Duration.ZERO, Duration.ofMillis(5));
    t.startTimerAtFixedRate("w", "witness", Duration.ZERO, Duration.ofMillis(5));
    busy(300);
  }

  /** Receives until "after", never "old"; the witness shows that ticks were queued meanwhile. */
  private static List<Object> untilAfterWithWitness(TestProbe p) {
    List<Object> before = until(p, "after", "old");
    assertTrue(before.contains("witness"), "premise: no timer message was queued during the block: " + before);
    return before;
  }

  @Test
  void aSingleTimerFiresOnceWithTheActorAsSenderAndIsThenInactive(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = timed(sys, p);
    a.tell(new Step((t, self) -> {
      t.startSingleTimer("k", "once", SHORT);
      t.startSingleTimer("marker", "marker", SHORT.multipliedBy(10));
      self.tell(t.isTimerActive("k"), self);
    }), ActorRef.noSender());
    assertEquals(new Got(true, true), p.expectMsgClass(Got.class));
    assertEquals(new Got("once", true), p.expectMsgClass(Got.class));
    assertEquals(new Got("marker", true), p.expectMsgClass(Got.class), "the single timer fired again");
    a.tell(new Step((t, self) -> self.tell(t.isTimerActive("k") + "/" + t.isTimerActive("marker"), self)), ActorRef.noSender());
    assertEquals("false/false", p.expectMsgClass(Got.class).msg());
  }

  @Test
  void fixedDelayAndFixedRateTimersRepeat(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = timed(sys, p);
    a.tell(new Step((t, self) -> {
      t.startTimerWithFixedDelay("d", "delay", SHORT);
      t.startTimerAtFixedRate("r", "rate", Duration.ZERO, SHORT);
    }), ActorRef.noSender());
    int delays = 0;
    int rates = 0;
    while (delays < 3 || rates < 3) {
      Object m = p.expectMsgClass(Got.class).msg();
      if (m.equals("delay")) {
        delays++;
      } else if (m.equals("rate")) {
        rates++;
      } else {
        fail("unexpected " + m);
      }
    }
    a.tell(new Step((t, self) -> self.tell(t.isTimerActive("d") && t.isTimerActive("r"), self)), ActorRef.noSender());
    Object active = p.fishForMessage(RuntimeFixtures.TIMEOUT, "the active check", m -> ((Got) m).msg() instanceof Boolean);
    assertEquals(new Got(true, true), active, "repeating timers stay active");
  }

  /** Handles each tick slowly and reports when the handling started and ended. */
  static final class SlowTicker extends AbstractActorWithTimers {
    private final ActorRef report;
    private final boolean fixedRate;

    SlowTicker(ActorRef report, Boolean fixedRate) {
      this.report = report;
      this.fixedRate = fixedRate;
    }

    @Override
    public void preStart() {
      if (fixedRate) {
        getTimers().startTimerAtFixedRate("t", "tick", SHORT);
      } else {
        getTimers().startTimerWithFixedDelay("t", "tick", SHORT);
      }
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("tick", m -> {
            long start = System.nanoTime();
            busy(SHORT.toMillis() * 3);
            report.tell(new long[] {start, System.nanoTime()}, getSelf());
          })
          .build();
    }
  }

  /** The idle gaps between one handling's end and the next one's start, in nanoseconds. */
  private static List<Long> idleGaps(ActorSystem sys, boolean fixedRate) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(SlowTicker.class, p.getRef(), fixedRate));
    List<Long> gaps = new ArrayList<>();
    long[] prev = p.expectMsgClass(long[].class);
    for (int i = 0; i < 5; i++) {
      long[] next = p.expectMsgClass(long[].class);
      gaps.add(next[0] - prev[1]);
      prev = next;
    }
    sys.stop(a);
    return gaps;
  }

  @Test
  void fixedDelayWaitsAfterEachHandlingWhileFixedRateKeepsSending(ActorSystem sys) {
    long delay = SHORT.toNanos();
    List<Long> delayGaps = idleGaps(sys, false);
    for (long g : delayGaps) {
      assertTrue(g >= delay, "fixed delay: the next tick came " + g + " ns after the handling ended: " + delayGaps);
    }
    // the handler takes three intervals: at a fixed rate the next tick is already waiting
    List<Long> rateGaps = idleGaps(sys, true);
    assertTrue(rateGaps.stream().anyMatch(g -> g < delay), "fixed rate never had a tick waiting: " + rateGaps);
  }

  @Test
  void anUntypedActorWithTimersGetsItsTimerMessage(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    sys.actorOf(Props.create(UntypedTimed.class, p.getRef()));
    p.expectMsg("untyped-tick");
  }

  static final class UntypedTimed extends UntypedActorWithTimers {
    private final ActorRef report;

    UntypedTimed(ActorRef report) {
      this.report = report;
    }

    @Override
    public void preStart() {
      getTimers().startSingleTimer("t", "untyped-tick", SHORT);
    }

    @Override
    public void onReceive(Object message) {
      report.tell(message, getSelf());
    }
  }

  /**
   * The replaced timer's messages provably wait in the mailbox: the actor blocks while both the
   * old timer and a witness timer of the same rate send; the witness's messages arriving before
   * "after" show that sends happened during the block.
   */
  @Test
  void aReplacedTimersQueuedMessagesAreNeverReceived(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = timed(sys, p);
    a.tell(new Step((t, self) -> {
      t.startSingleTimer("once", "old-single", Duration.ZERO);
      queueUpOldAndWitness(t); // the single timer's tick piles up too
      t.startSingleTimer("k", "new", SHORT); // replaces the fixed-rate "k"
      t.startSingleTimer("once", "new-single", SHORT); // replaces the single timer, whose tick is queued
      self.tell("after", self);
    }), ActorRef.noSender());
    List<Object> before = untilAfterWithWitness(p);
    assertFalse(before.contains("old-single"), "the replaced single timer's queued message arrived");
    a.tell(new Step((t, self) -> t.cancel("w")), ActorRef.noSender());
    List<Object> rest = new ArrayList<>();
    while (!rest.contains("new") || !rest.contains("new-single")) {
      Object m = p.expectMsgClass(Got.class).msg();
      assertNotEquals("old", m);
      assertNotEquals("old-single", m);
      rest.add(m);
    }
  }

  @Test
  void aCancelledTimersQueuedMessagesAreNeverReceived(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = timed(sys, p);
    a.tell(new Step((t, self) -> {
      queueUpOldAndWitness(t);
      t.cancel("k");
      self.tell(t.isTimerActive("k") ? "still-active" : "after", self);
    }), ActorRef.noSender());
    untilAfterWithWitness(p);
    a.tell(new Step((t, self) -> {
      t.cancelAll();
      self.tell("done", self);
    }), ActorRef.noSender());
    until(p, "done", "old");
  }

  @Test
  void cancelAllCancelsEveryTimerAndIsTimerActiveFollows(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = timed(sys, p);
    a.tell(new Step((t, self) -> {
      List<Boolean> states = new ArrayList<>();
      states.add(t.isTimerActive("a"));
      t.startSingleTimer("a", "old", SHORT);
      t.startTimerWithFixedDelay("b", "old", SHORT);
      t.startTimerAtFixedRate("c", "old", SHORT);
      states.add(t.isTimerActive("a") && t.isTimerActive("b") && t.isTimerActive("c"));
      t.cancel("a");
      states.add(t.isTimerActive("a"));
      t.cancelAll();
      states.add(t.isTimerActive("b") || t.isTimerActive("c"));
      t.startSingleTimer("marker", "marker", SHORT.multipliedBy(10));
      self.tell(states, self);
    }), ActorRef.noSender());
    assertEquals(List.of(false, true, false, false), p.expectMsgClass(Got.class).msg());
    until(p, "marker", "old");
  }

  // ------------------------------------------------------------------ restart and stop

  record Fail() {}

  static final class Failing extends RuntimeException implements ExpectedFailure {
    Failing() {
      super("failing on purpose");
    }
  }

  /** Its first incarnation starts a fast timer; every incarnation reports its timers' state. */
  static final class Restarting extends AbstractActorWithTimers {
    private final ActorRef report;
    private final int[] incarnations;

    Restarting(ActorRef report, int[] incarnations) {
      this.report = report;
      this.incarnations = incarnations;
    }

    @Override
    public void preStart() {
      int n = ++incarnations[0]; // the actor's own thread, one incarnation after the other
      report.tell("incarnation " + n + " active=" + getTimers().isTimerActive("k"), getSelf());
      if (n == 1) {
        getTimers().startTimerAtFixedRate("k", "old", Duration.ZERO, Duration.ofMillis(5));
      } else {
        getTimers().startTimerWithFixedDelay("marker", "marker", SHORT);
      }
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Fail.class, f -> {
            busy(100); // the fast timer's ticks pile up behind the failing message
            throw new Failing();
          })
          .matchEquals("old", m -> {
            if (incarnations[0] > 1) {
              report.tell("old-seen", getSelf()); // a tick of the first incarnation reached the second
            }
          })
          .matchAny(m -> report.tell(m, getSelf()))
          .build();
    }
  }

  @Test
  void timersAreCancelledOnRestart(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(Restarting.class, p.getRef(), new int[1]));
    p.expectMsg("incarnation 1 active=false");
    a.tell(new Fail(), ActorRef.noSender());
    p.expectMsg("incarnation 2 active=false");
    // old ticks queued behind the failing message arrive before the new incarnation's markers
    for (int i = 0; i < 3; i++) {
      p.expectMsg("marker");
    }
  }

  @Test
  void queuedTimerTicksOfAStoppedActorAreNoDeadLetters(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    ActorRef a = timed(sys, p);
    p.watch(a);
    ActorRef blocking = p.getRef();
    a.tell(new Step((t, self) -> {
      t.startTimerAtFixedRate("k", "tick", Duration.ZERO, Duration.ofMillis(5));
      blocking.tell("blocking", ActorRef.noSender());
      busy(200); // ticks pile up; the stop below overtakes them, so they are still queued
    }), ActorRef.noSender());
    p.fishForMessage(RuntimeFixtures.TIMEOUT, "the handler running", "blocking"::equals);
    sys.stop(a);
    p.fishForMessage(RuntimeFixtures.TIMEOUT, "Terminated", m -> m instanceof dev.troupe.actor.Terminated);
    a.tell("ping", ActorRef.noSender());
    DeadLetter first = dead.expectMsgClass(DeadLetter.class);
    assertEquals("ping", first.message(), "a timer tick went to dead letters: " + first);
  }

  // ------------------------------------------------------------------ stress

  /** A timer's message in the stress test: which key, which start of that key. */
  record Fire(int key, int generation) {}

  /**
   * Replaces, cancels and restarts its timers at random from its own handlers, and checks every
   * message against the generation it last started under that key.
   */
  static final class Churner extends AbstractActorWithTimers {
    private static final int KEYS = 4;
    private final ActorRef report;
    private final int target;
    private final Map<Integer, Integer> live = new HashMap<>(); // key -> generation of the active timer
    private final Map<Integer, Boolean> single = new HashMap<>();
    private int generation;
    private int received;

    Churner(ActorRef report, Integer target) {
      this.report = report;
      this.target = target;
    }

    @Override
    public void preStart() {
      churn();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Fire.class, f -> {
            Integer expected = live.get(f.key());
            if (expected == null || expected != f.generation()) {
              report.tell("stale " + f + ", live " + live, getSelf());
              getContext().stop(getSelf());
              return;
            }
            if (single.get(f.key())) {
              live.remove(f.key());
              if (getTimers().isTimerActive(f.key())) {
                report.tell("single timer still active in its handler: " + f, getSelf());
              }
            }
            if (++received == target) {
              getTimers().cancelAll();
              live.clear();
              report.tell("done", getSelf());
              return;
            }
            if (ThreadLocalRandom.current().nextInt(8) == 0) {
              busy(12); // longer than a scheduler tick: ticks queue up, then get replaced or cancelled
            }
            churn();
          })
          .build();
    }

    private void churn() {
      ThreadLocalRandom r = ThreadLocalRandom.current();
      int ops = 1 + r.nextInt(4);
      for (int i = 0; i < ops; i++) {
        int key = r.nextInt(KEYS);
        int op = r.nextInt(10);
        if (op < 2) {
          getTimers().cancel(key);
          live.remove(key);
        } else {
          int g = ++generation;
          Duration d = Duration.ofMillis(r.nextInt(3));
          Duration period = Duration.ofMillis(1 + r.nextInt(3));
          Fire msg = new Fire(key, g);
          if (op < 5) {
            getTimers().startSingleTimer(key, msg, d);
          } else if (op < 8) {
            getTimers().startTimerAtFixedRate(key, msg, d, period);
          } else {
            getTimers().startTimerWithFixedDelay(key, msg, d, period);
          }
          live.put(key, g);
          single.put(key, op < 5);
        }
      }
      if (live.isEmpty()) {
        int g = ++generation;
        getTimers().startSingleTimer(0, new Fire(0, g), Duration.ZERO);
        live.put(0, g);
        single.put(0, true);
      }
    }
  }

  @Test
  void manyActorsChurningTheirTimersNeverReceiveAStaleMessage(ActorSystem sys) {
    int actors = 30;
    int perActor = 120;
    TestProbe p = new TestProbe(sys);
    for (int i = 0; i < actors; i++) {
      sys.actorOf(Props.create(Churner.class, p.getRef(), perActor));
    }
    for (int i = 0; i < actors; i++) {
      Object m = p.expectMsgClass(Duration.ofSeconds(60), String.class);
      assertEquals("done", m, "after " + i + " actors finished");
    }
  }
}
