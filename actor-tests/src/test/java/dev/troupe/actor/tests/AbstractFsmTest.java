package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.AbstractFSM;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.FSM;
import dev.troupe.actor.FSMStateFunctionBuilder;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.UnhandledMessage;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link AbstractFSM}: Pekko's buncher ported, event and data matching, the unhandled fallback,
 * transitions and their subscribers, state timeouts (idle, kept off, stale, {@code forMax}), named
 * timers, replies, the three ways to stop, restart, and many senders at once.
 */
class AbstractFsmTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** For what must arrive. */
  private static final Duration LONG = RuntimeFixtures.TIMEOUT;
  /** For what must not arrive. */
  private static final Duration QUIET = Duration.ofMillis(200);

  private static final ActorRef NO_SENDER = ActorRef.noSender();

  /** Gives the buncher its target. */
  record SetTarget(ActorRef ref) {}

  /** One object to batch. */
  record Queue(Object obj) {}

  /** Sends the batch now. */
  record Flush() {}

  /** What the target receives. */
  record Batch(List<Object> objs) {}

  enum BuncherState { IDLE, ACTIVE }

  interface BuncherData {}

  enum Uninitialized implements BuncherData { INSTANCE }

  record Todo(ActorRef target, List<Object> queue) implements BuncherData {
    Todo add(Object obj) {
      List<Object> q = new ArrayList<>(queue);
      q.add(obj);
      return new Todo(target, q);
    }
  }

  /** Queues objects and sends them to its target as one batch, on Flush or after a pause. */
  static final class Buncher extends AbstractFSM<BuncherState, BuncherData> {
    Buncher(Duration pause) {
      startWith(BuncherState.IDLE, Uninitialized.INSTANCE);

      when(BuncherState.IDLE,
          matchEvent(SetTarget.class, Uninitialized.class,
              (set, none) -> stay().using(new Todo(set.ref(), List.of()))));

      when(BuncherState.ACTIVE, pause,
          matchEvent(List.of(Flush.class, StateTimeout()), Todo.class,
              (flushOrTimeout, todo) -> goTo(BuncherState.IDLE).using(new Todo(todo.target(), List.of()))));

      whenUnhandled(
          matchEvent(Queue.class, Todo.class,
                  (queue, todo) -> goTo(BuncherState.ACTIVE).using(todo.add(queue.obj())))
              .anyEvent((event, data) -> {
                log().warning("unhandled {} in state {}", event, stateName());
                return stay();
              }));

      onTransition(
          matchState(BuncherState.ACTIVE, BuncherState.IDLE, () -> {
            if (stateData() instanceof Todo todo) { // the data of the state being left
              todo.target().tell(new Batch(todo.queue()), getSelf());
            }
          }));

      initialize();
    }
  }

  @Test
  void theBuncherBatchesOnFlushAndAfterAPause(ActorSystem sys) {
    TestProbe target = new TestProbe(sys);
    ActorRef buncher = sys.actorOf(Props.create(Buncher.class, Duration.ofMillis(500)));
    buncher.tell(new SetTarget(target.getRef()), NO_SENDER);
    buncher.tell(new Queue(42), NO_SENDER);
    buncher.tell(new Queue(43), NO_SENDER);
    assertEquals(new Batch(List.of(42, 43)), target.expectMsgClass(LONG, Batch.class), "sent after the pause");
    buncher.tell(new Queue(44), NO_SENDER);
    buncher.tell(new Flush(), NO_SENDER);
    buncher.tell(new Queue(45), NO_SENDER);
    assertEquals(new Batch(List.of(44)), target.expectMsgClass(LONG, Batch.class), "sent on Flush");
    assertEquals(new Batch(List.of(45)), target.expectMsgClass(LONG, Batch.class), "sent after the pause");
    target.expectNoMessage(QUIET);
  }

  // =============================================================== matching

  /** Asks for "state/data". */
  record Query() {}

  /** Replaces the data. */
  record SetData(Object data) {}

  /** Asks for two replies. */
  record Twice() {}

  /** Matches events and data by class, predicate, list and value; "b" leaves more to whenUnhandled. */
  static final class Matcher extends AbstractFSM<String, Object> {
    Matcher() {
      startWith("a", 0);
      when("a",
          matchEvent(List.of(Long.class, "ping"), (e, d) -> stay().replying("list " + e))
              .event(String.class, Integer.class, (s, n) -> n > 10, (s, n) -> stay().replying("big " + s + n))
              .event(String.class, Integer.class, (s, n) -> stay().using(n + 1).replying("int " + s + n))
              .event(String.class, String.class, (s, text) -> stay().replying("text " + s + text))
              .eventEquals(7.5, (e, d) -> stay().replying("equals " + e))
              .event(SetData.class, (m, d) -> stay().using(m.data()).replying("set"))
              .event(Twice.class, (m, d) -> stay().replying("one").replying("two"))
              .event(Double.class, (x, d) -> x < 0, (x, d) -> goTo("b").using(x)));
      when("b", matchEventEquals("back", Double.class, (e, x) -> goTo("a").using(-x)));
      whenUnhandled(matchEvent(Query.class, (q, d) -> stay().replying(stateName() + "/" + d)));
      initialize();
    }
  }

  @Test
  void eventsAndDataMatchByClassAndPredicateInOrder(ActorSystem sys, TestKit kit) {
    ActorRef fsm = sys.actorOf(Props.create(Matcher.class));
    kit.send(fsm, "x");
    kit.expectMsg("int x0");
    kit.send(fsm, "x");
    kit.expectMsg("int x1");
    kit.send(fsm, new SetData(20));
    kit.expectMsg("set");
    kit.send(fsm, "y");
    kit.expectMsg("big y20"); // the predicate case comes first, and did not change the data
    kit.send(fsm, new SetData("t"));
    kit.expectMsg("set");
    kit.send(fsm, "z");
    kit.expectMsg("text zt");
    kit.send(fsm, new Twice());
    kit.expectMsg("one");
    kit.expectMsg("two");
  }

  @Test
  void listEntriesMatchByTypeOrValueAndEventEqualsByValue(ActorSystem sys, TestKit kit) {
    ActorRef fsm = sys.actorOf(Props.create(Matcher.class));
    kit.send(fsm, 5L);
    kit.expectMsg("list 5");
    kit.send(fsm, "ping");
    kit.expectMsg("list ping");
    kit.send(fsm, "pong");
    kit.expectMsg("int pong0"); // not in the list: the next case
    kit.send(fsm, 7.5);
    kit.expectMsg("equals 7.5");
    kit.send(fsm, -1.0); // a Double that passes the predicate: to "b", where eventEquals also needs Double data
    kit.send(fsm, "back");
    kit.send(fsm, new Query());
    kit.expectMsg("a/1.0");
  }

  @Test
  void anUnmatchedEventIsPublishedAsUnhandledAndTheStateStays(ActorSystem sys, TestKit kit) {
    TestProbe unhandled = new TestProbe(sys);
    sys.eventStream().subscribe(unhandled.getRef(), UnhandledMessage.class);
    ActorRef fsm = sys.actorOf(Props.create(Matcher.class));
    kit.send(fsm, 7.6); // a positive Double: no case of "a", nothing in whenUnhandled
    assertEquals(new UnhandledMessage(7.6, kit.getRef(), fsm), unhandled.expectMsgClass(UnhandledMessage.class));
    kit.send(fsm, new Query()); // answered by whenUnhandled
    kit.expectMsg("a/0");
    kit.send(fsm, -2.0);
    kit.send(fsm, "x"); // "b" has no case for it, nor has whenUnhandled
    assertEquals(new UnhandledMessage("x", kit.getRef(), fsm), unhandled.expectMsgClass(UnhandledMessage.class));
    kit.send(fsm, new Query());
    kit.expectMsg("b/-2.0");
    kit.expectNoMessage(QUIET);
  }

  // =============================================================== transitions

  /** Reports transitions to {@code report}: a catch-all handler and a handler with cases. */
  static final class Lights extends AbstractFSM<String, Integer> {
    Lights(ActorRef report) {
      startWith("red", 0);
      when("red",
          matchEventEquals("go", (e, n) -> goTo("green").using(n + 1))
              .eventEquals("again", (e, n) -> goTo("red").using(n + 10))
              .eventEquals("stay", (e, n) -> stay().using(n + 100))
              .eventEquals("peek", (e, n) -> {
                try {
                  return stay().replying(nextStateData());
                } catch (IllegalStateException outside) {
                  return stay().replying("outside");
                }
              }));
      when("green", matchEventEquals("halt", (e, n) -> goTo("red").using(n + 1)));
      onTransition((from, to) ->
          report.tell("any " + from + "->" + to + " " + stateData() + "->" + nextStateData(), getSelf()));
      onTransition(
          matchState("red", "green", () -> report.tell("red->green", getSelf()))
              .state("red", "green", () -> report.tell("a second matching case of one handler", getSelf()))
              .state(null, "red", (from, to) -> report.tell("into red from " + from, getSelf())));
      initialize();
    }
  }

  @Test
  void transitionHandlersSeeBothDataAndRunOnGoToButNotOnStay(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Lights.class, report.getRef()));
    report.expectMsg("any red->red 0->0"); // initialize() enters the initial state
    report.expectMsg("into red from red");
    fsm.tell("go", NO_SENDER);
    report.expectMsg("any red->green 0->1");
    report.expectMsg("red->green");
    fsm.tell("halt", NO_SENDER);
    report.expectMsg("any green->red 1->2");
    report.expectMsg("into red from green");
    fsm.tell("again", NO_SENDER); // goTo the current state is a transition
    report.expectMsg("any red->red 2->12");
    report.expectMsg("into red from red");
    fsm.tell("stay", NO_SENDER); // stay is not
    report.expectNoMessage(QUIET);
    fsm.tell("go", NO_SENDER);
    report.expectMsg("any red->green 112->113");
    report.expectMsg("red->green");
    fsm.tell("halt", NO_SENDER);
    report.receiveN(2);
    kit.send(fsm, "peek");
    kit.expectMsg("outside");
  }

  @Test
  void subscribersGetTheCurrentStateThenTransitionsUntilTheyUnsubscribe(ActorSystem sys) {
    TestProbe report = new TestProbe(sys);
    TestProbe subscriber = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Lights.class, report.getRef()));
    fsm.tell(new FSM.SubscribeTransitionCallBack(subscriber.getRef()), NO_SENDER);
    assertEquals(new FSM.CurrentState<>(fsm, "red"), subscriber.expectMsgClass(FSM.CurrentState.class));
    fsm.tell("go", NO_SENDER);
    fsm.tell("halt", NO_SENDER);
    fsm.tell("again", NO_SENDER);
    fsm.tell("stay", NO_SENDER);
    assertEquals(new FSM.Transition<>(fsm, "red", "green"), subscriber.expectMsgClass(FSM.Transition.class));
    assertEquals(new FSM.Transition<>(fsm, "green", "red"), subscriber.expectMsgClass(FSM.Transition.class));
    assertEquals(new FSM.Transition<>(fsm, "red", "red"), subscriber.expectMsgClass(FSM.Transition.class));
    subscriber.expectNoMessage(QUIET);
    fsm.tell(new AbstractFSM.UnsubscribeTransitionCallBack(subscriber.getRef()), NO_SENDER);
    fsm.tell("go", NO_SENDER);
    report.fishForMessage(LONG, "the transition after unsubscribing", m -> m.equals("red->green"));
    subscriber.expectNoMessage(QUIET);
  }

  @Test
  void aSubscriberThatStopsIsForgotten(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    TestProbe deadLetters = new TestProbe(sys);
    sys.eventStream().subscribe(deadLetters.getRef(), DeadLetter.class);
    TestProbe subscriber = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Lights.class, report.getRef()));
    report.receiveN(2); // the initial state's entry
    fsm.tell(new FSM.SubscribeTransitionCallBack(subscriber.getRef()), NO_SENDER);
    subscriber.expectMsgClass(FSM.CurrentState.class);
    kit.watch(subscriber.getRef());
    sys.stop(subscriber.getRef());
    kit.expectTerminated(subscriber.getRef());
    // The FSM hears of it asynchronously: transitions may reach dead letters until it has; then none.
    long deadline = System.nanoTime() + LONG.toNanos();
    boolean forgotten = false;
    while (!forgotten && System.nanoTime() < deadline) {
      fsm.tell("again", NO_SENDER);
      report.receiveN(2);
      forgotten = true;
      for (Object m; (m = deadLetters.receiveOne(Duration.ofMillis(50))) != null; ) {
        if (m instanceof DeadLetter d && d.message() instanceof FSM.Transition) {
          forgotten = false;
        }
      }
    }
    assertTrue(forgotten, "the FSM kept sending transitions to its stopped subscriber");
  }

  // =============================================================== state timeouts

  /** Go to a state. */
  record To(String state) {}

  /** Go to a state with {@code forMax(timeout)}. */
  record ToFor(String state, Duration timeout) {}

  /**
   * "idle" and "b" have no timeout, "a" the given one, "long" an hour; a state timeout is reported
   * and leads to "idle".
   */
  static final class Timing extends AbstractFSM<String, Integer> {
    Timing(ActorRef report, Duration aTimeout) {
      startWith("idle", 0);
      when("idle", new FSMStateFunctionBuilder<>());
      when("a", aTimeout, new FSMStateFunctionBuilder<>());
      when("b", new FSMStateFunctionBuilder<>());
      when("long", Duration.ofHours(1), new FSMStateFunctionBuilder<>());
      whenUnhandled(
          matchEvent(To.class, (m, n) -> goTo(m.state()))
              .event(ToFor.class, (m, n) -> goTo(m.state()).forMax(m.timeout()))
              .eventEquals("ping", (e, n) -> stay().replying("pong"))
              .eventEquals(StateTimeout(), (e, n) -> {
                report.tell("timeout in " + stateName(), getSelf());
                return goTo("idle").replying("to dead letters, not to the FSM");
              }));
      initialize();
    }
  }

  @Test
  void aStateTimeoutFiresOnceWhenNoEventComes(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Timing.class, report.getRef(), Duration.ofMillis(100)));
    fsm.tell(new To("a"), NO_SENDER);
    report.expectMsg(LONG, "timeout in a");
    report.expectNoMessage(QUIET);
    kit.send(fsm, "ping"); // the reply of the timeout went to dead letters: the FSM is still fine
    kit.expectMsg("pong");
    report.expectNoMessage(QUIET);
  }

  @Test
  void aStateTimeoutDoesNotFireWhileEventsKeepComing(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Timing.class, report.getRef(), Duration.ofSeconds(1)));
    fsm.tell(new To("a"), NO_SENDER);
    // 1.5 s or more in "a", an event every 100 ms. A timeout is delivered only when the event after
    // it was sent a second or more after the one before (a cancelled timer's message is never
    // received), so one that arrives while no send came that late is the bug; a test thread that
    // stalled for a second makes the check say nothing, not fail.
    long lastSend = System.nanoTime();
    long longestGap = 0;
    Object early = null;
    for (int i = 0; i < 15; i++) {
      long now = System.nanoTime();
      longestGap = Math.max(longestGap, now - lastSend);
      lastSend = now;
      kit.send(fsm, "ping");
      kit.expectMsg("pong");
      Object m = report.receiveOne(Duration.ofMillis(100));
      early = early == null ? m : early;
    }
    if (early != null) {
      assertTrue(longestGap >= Duration.ofSeconds(1).toNanos(),
          "a state timeout (" + early + ") arrived while an event came every " + longestGap / 1_000_000 + " ms at most");
    } else {
      report.expectMsg(LONG, "timeout in a"); // and once they stop, it does
    }
  }

  @Test
  void aTimeoutOfAStateThatWasLeftIsNeverDelivered(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Timing.class, report.getRef(), Duration.ZERO));
    for (int i = 0; i < 300; i++) { // "a" times out at the next tick, racing the event that leaves it
      fsm.tell(new To("a"), NO_SENDER);
      fsm.tell(new To("b"), NO_SENDER);
    }
    kit.send(fsm, "ping");
    kit.expectMsg("pong");
    for (Object m; (m = report.receiveOne(QUIET)) != null; ) {
      assertEquals("timeout in a", m, "a timeout arrived in a state without one");
    }
  }

  @Test
  void forMaxOverridesTheStatesTimeoutForOneEntry(ActorSystem sys) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Timing.class, report.getRef(), Duration.ofMillis(50)));
    fsm.tell(new ToFor("long", Duration.ofMillis(50)), NO_SENDER); // an hour shortened
    report.expectMsg(LONG, "timeout in long");
    fsm.tell(new ToFor("a", null), NO_SENDER); // 50 ms removed
    report.expectNoMessage(QUIET);
    fsm.tell(new To("a"), NO_SENDER); // the next entry has the state's own timeout again
    report.expectMsg(LONG, "timeout in a");
  }

  // =============================================================== timers and replies

  /** Starts named timers on request and reports their messages. */
  static final class Timed extends AbstractFSM<String, Integer> {
    Timed(ActorRef report) {
      startWith("s", 0);
      when("s",
          matchEventEquals("single", (e, n) -> {
            startSingleTimer("one", "fired", Duration.ofMillis(20));
            return stay().replying("single active " + isTimerActive("one"));
          })
              .eventEquals("fired", (e, n) -> {
                report.tell("fired, active " + isTimerActive("one"), getSelf());
                return stay();
              })
              .eventEquals("repeat", (e, n) -> {
                startTimerWithFixedDelay("rep", "tick", Duration.ofMillis(20));
                startTimerAtFixedRate("rate", "rtick", Duration.ofMillis(20));
                return stay();
              })
              .eventEquals("tick", (e, n) -> {
                report.tell("tick " + (n + 1), getSelf());
                if (n + 1 == 3) {
                  cancelTimer("rep");
                }
                return stay().using(n + 1);
              })
              .eventEquals("rtick", (e, n) -> {
                cancelTimer("rate");
                report.tell("rtick", getSelf());
                return stay();
              })
              .eventEquals("active?", (e, n) ->
                  stay().replying(isTimerActive("one") + "/" + isTimerActive("rep") + "/" + isTimerActive("rate"))));
      initialize();
    }
  }

  @Test
  void namedTimersSendToTheFsmUntilCancelled(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = sys.actorOf(Props.create(Timed.class, report.getRef()));
    kit.send(fsm, "single");
    kit.expectMsg("single active true");
    report.expectMsg("fired, active false");
    fsm.tell("repeat", NO_SENDER);
    List<Object> got = report.receiveN(4, LONG);
    assertEquals(List.of("tick 1", "tick 2", "tick 3"), got.stream().filter(m -> !m.equals("rtick")).toList());
    assertEquals(1, got.stream().filter(m -> m.equals("rtick")).count(), "the fixed-rate timer was cancelled at once");
    report.expectNoMessage(QUIET);
    kit.send(fsm, "active?");
    kit.expectMsg("false/false/false");
  }

  // =============================================================== stopping and failing

  /** Ends in the ways an FSM ends; reports its starts and its termination handler's calls. */
  static final class Stopper extends AbstractFSM<String, String> {
    Stopper(ActorRef report) {
      report.tell("started", getSelf());
      startWith("running", "data0");
      FSMStateFunctionBuilder<String, String> common =
          matchEventEquals("throw", (e, d) -> {
            throw new HandlerFailure();
          })
              .event(Query.class, (q, d) -> stay().replying(stateName() + "/" + d));
      when("running",
          matchEventEquals("stop", (e, d) -> stop())
              .eventEquals("fail", (e, d) -> stop(Failure("boom"), "last words").replying("bye"))
              .eventEquals("next", (e, d) -> goTo("other").using("data1"))
              .eventEquals("nowhere", (e, d) -> goTo("missing")));
      when("running", common); // a state given twice keeps both sets of cases
      when("other", common);
      onTermination(
          matchStop(Normal(), (s, d) -> report.tell("normal " + s + " " + d, getSelf()))
              .stop(Shutdown(), (r, s, d) -> report.tell(r + " " + s + " " + d, getSelf()))
              .stop(Failure.class, (f, s, d) -> report.tell("failure " + f.cause() + " " + s + " " + d, getSelf())));
      initialize();
    }
  }

  /** What the "throw" event throws. */
  static final class HandlerFailure extends RuntimeException implements ExpectedFailure {
    private static final long serialVersionUID = 1L;

    HandlerFailure() {
      super("a handler failed, as the test asks");
    }
  }

  private static ActorRef stopper(ActorSystem sys, TestProbe report) {
    ActorRef fsm = sys.actorOf(Props.create(Stopper.class, report.getRef()));
    report.expectMsg("started");
    return fsm;
  }

  @Test
  void stopRunsTheTerminationHandlerWithNormalThenTheActorTerminates(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = stopper(sys, report);
    kit.watch(fsm);
    fsm.tell("stop", NO_SENDER);
    report.expectMsg("normal running data0");
    kit.expectTerminated(fsm);
    report.expectNoMessage(QUIET); // not again with Shutdown in postStop
  }

  @Test
  void aPoisonPillRunsTheTerminationHandlerWithShutdown(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = stopper(sys, report);
    kit.watch(fsm);
    fsm.tell("next", NO_SENDER);
    fsm.tell(PoisonPill.getInstance(), NO_SENDER);
    report.expectMsg("Shutdown[] other data1");
    kit.expectTerminated(fsm);
  }

  @Test
  void stopWithAFailureRepliesThenGivesTheHandlerTheCauseAndData(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = stopper(sys, report);
    kit.watch(fsm);
    kit.send(fsm, "fail");
    kit.expectMsg("bye");
    report.expectMsg("failure boom running last words");
    kit.expectTerminated(fsm);
  }

  @Test
  void goingToAStateWithoutCasesStopsWithAFailure(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = stopper(sys, report);
    kit.watch(fsm);
    fsm.tell("nowhere", NO_SENDER);
    report.expectMsg("failure Next state missing does not exist running data0");
    kit.expectTerminated(fsm);
  }

  @Test
  void anExceptionInAHandlerRestartsTheFsmFromItsInitialState(ActorSystem sys, TestKit kit) {
    TestProbe report = new TestProbe(sys);
    ActorRef fsm = stopper(sys, report); // under the user guardian: restarted on an exception
    kit.send(fsm, "next");
    kit.send(fsm, new Query());
    kit.expectMsg("other/data1");
    kit.send(fsm, "throw");
    report.expectMsg("Shutdown[] other data1"); // the failed instance ends as Pekko's does
    report.expectMsg("started");
    kit.send(fsm, new Query());
    kit.expectMsg("running/data0");
  }

  // =============================================================== many senders

  /** One sender's numbered event. */
  record Tick(int sender, int seq) {}

  /** Flips between two states on every tick; counts ticks, transitions and ticks out of order. */
  static final class Flipper extends AbstractFSM<Boolean, Integer> {
    private final int[] next;
    private int transitions;
    private int outOfOrder;

    Flipper(Integer senders) {
      next = new int[senders];
      startWith(false, 0);
      FSMStateFunctionBuilder<Boolean, Integer> cases =
          matchEvent(Tick.class, (t, n) -> {
            if (t.seq() != next[t.sender()]++) {
              outOfOrder++;
            }
            return goTo(!stateName()).using(n + 1);
          })
              .eventEquals("report", (e, n) -> stay().replying(List.of(n, transitions, outOfOrder)));
      when(false, Duration.ofHours(1), cases); // every event also cancels and re-arms a timeout
      when(true, Duration.ofHours(1), cases);
      onTransition((from, to) -> transitions++);
      initialize();
    }
  }

  @Test
  void eventsFromManyThreadsAreEachHandledOnceInTheirSendersOrder(ActorSystem sys, TestKit kit)
      throws InterruptedException {
    int threads = 8;
    int perThread = 5_000;
    ActorRef fsm = sys.actorOf(Props.create(Flipper.class, threads));
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> senders = new ArrayList<>();
    for (int s = 0; s < threads; s++) {
      int sender = s;
      Thread t = new Thread(() -> {
        try {
          if (!start.await(10, TimeUnit.SECONDS)) {
            return;
          }
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < perThread; i++) {
          fsm.tell(new Tick(sender, i), NO_SENDER);
        }
      }, "fsm-sender-" + s);
      t.start();
      senders.add(t);
    }
    start.countDown();
    for (Thread t : senders) {
      t.join(LONG.toMillis());
      if (t.isAlive()) {
        fail(t.getName() + " did not finish sending");
      }
    }
    kit.send(fsm, "report");
    int total = threads * perThread;
    // the initial state's entry counts as a transition too
    assertEquals(List.of(total, total + 1, 0), kit.expectMsgClass(List.class));
  }
}
