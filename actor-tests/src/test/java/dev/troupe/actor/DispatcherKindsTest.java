package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.awaitCond;
import static dev.troupe.actor.TestSupport.awaitLatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher kinds of {@code type}: PinnedDispatcher, BalancingDispatcher and
 * CallingThreadDispatcher (the shared-pool {@code Dispatcher} is covered by DispatcherTest).
 */
class DispatcherKindsTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

  /** Replies with the name of the thread it runs on. */
  static final class WhereAmI extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      getSender().tell(Thread.currentThread().getName(), getSelf());
    }
  }

  // ------------------------------------------------------------------ PinnedDispatcher

  @Test
  void aPinnedDispatcherGivesEachActorItsOwnNamedThreadThatEndsWhenTheActorStops() throws Throwable {
    ActorSystem sys = systems.create("pinned", "pinned-dispatcher { type = PinnedDispatcher }");
    String prefix = sys.name() + "-pinned-dispatcher-";
    TestSupport.Probe probe = new TestSupport.Probe(sys);
    ActorRef a = sys.actorOf(Props.create(WhereAmI.class).withDispatcher("pinned-dispatcher"));
    ActorRef b = sys.actorOf(Props.create(WhereAmI.class).withDispatcher("pinned-dispatcher"));
    Set<String> seenA = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      a.tell(i, probe.ref());
      seenA.add((String) probe.expectMsg());
    }
    b.tell("where", probe.ref());
    String threadB = (String) probe.expectMsg();
    assertEquals(1, seenA.size(), "a moved between threads: " + seenA);
    String threadA = seenA.iterator().next();
    assertTrue(threadA.startsWith(prefix), threadA);
    assertTrue(threadB.startsWith(prefix), threadB);
    assertNotEquals(threadA, threadB);

    probe.watch(a);
    sys.stop(a);
    assertTrue(probe.expectMsg() instanceof Terminated);
    awaitCond(() -> !TestSupport.threadsNamed(prefix).contains(threadA),
        "the stopped actor's thread to exit, live: " + TestSupport.threadsNamed(prefix));
    assertTrue(TestSupport.threadsNamed(prefix).contains(threadB), "b's thread ended with a");
    b.tell("still there?", probe.ref());
    assertEquals(threadB, probe.expectMsg());

    TestSupport.terminate(sys);
    awaitCond(() -> TestSupport.threadsNamed(sys.name()).isEmpty(),
        "all threads to end after termination, live: " + TestSupport.threadsNamed(sys.name()));
  }

  // ------------------------------------------------------------------ BalancingDispatcher

  /** Records which member processed what; "block" holds the member until the latch opens. */
  static final class Member extends UntypedActor {
    private final CountDownLatch blocked;
    private final CountDownLatch release;
    private final List<String> log;

    Member(CountDownLatch blocked, CountDownLatch release, List<String> log) {
      this.blocked = blocked;
      this.release = release;
      this.log = log;
    }

    @Override
    public void onReceive(Object message) throws Exception {
      if ("block".equals(message)) {
        log.add("blocked " + getSelf().path().name()); // any member may get it: the queue is shared
        blocked.countDown();
        assertTrue(release.await(10, TimeUnit.SECONDS), "never released");
      } else {
        log.add(getSelf().path().name() + ":" + message);
      }
    }
  }

  @Test
  void aBalancingDispatcherLetsIdleMembersProcessMessagesSentToABusyOne() throws Exception {
    ActorSystem sys = systems.create("balancing",
        "team-dispatcher { type = BalancingDispatcher, throughput = 1\n"
            + " affinity-pool-executor { parallelism-min = 3, parallelism-max = 3 } }");
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    Props props = Props.create(Member.class, blocked, release, log).withDispatcher("team-dispatcher");
    java.util.Map<String, ActorRef> team = new java.util.HashMap<>();
    for (String name : List.of("m1", "m2", "m3")) {
      team.put(name, sys.actorOf(props, name));
    }
    team.get("m1").tell("block", ActorRef.noSender());
    awaitLatch(blocked, "a member to block");
    String busy = log.get(0).substring("blocked ".length());
    for (int i = 0; i < 100; i++) {
      team.get(busy).tell(i, ActorRef.noSender()); // all to the blocked member
    }
    awaitCond(() -> log.size() == 101, "the team to process the blocked member's messages: " + log.size());
    synchronized (log) {
      for (String entry : log.subList(1, log.size())) {
        assertTrue(!entry.startsWith(busy + ":"), "the blocked member processed " + entry);
      }
    }
    release.countDown();
  }

  @Test
  void aStoppedBalancingMemberLeavesTheTeamAndItsLateMessagesAreDeadLetters() throws Exception {
    ActorSystem sys = systems.create("balancingstop",
        "team-dispatcher { type = BalancingDispatcher\n"
            + " affinity-pool-executor { parallelism-min = 2, parallelism-max = 2 } }");
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    Props props = Props.create(Member.class, new CountDownLatch(1), new CountDownLatch(0), log)
        .withDispatcher("team-dispatcher");
    ActorRef a = sys.actorOf(props, "a");
    ActorRef b = sys.actorOf(props, "b");
    TestSupport.Probe probe = new TestSupport.Probe(sys);
    sys.eventStream().subscribe(probe.ref(), DeadLetter.class);
    probe.watch(a);
    sys.stop(a);
    assertTrue(probe.expectMsg() instanceof Terminated);
    a.tell("late", ActorRef.noSender());
    DeadLetter d = (DeadLetter) probe.expectMsg();
    assertEquals("late", d.message());
    for (int i = 0; i < 50; i++) {
      b.tell(i, ActorRef.noSender());
    }
    awaitCond(() -> log.size() == 50, "the remaining member to process everything: " + log.size());
  }

  // ------------------------------------------------------------------ CallingThreadDispatcher

  /** On "go": tells the other actor, then logs; otherwise logs what it got. */
  static final class Relay extends UntypedActor {
    private final List<String> log;
    private final ActorRef[] other;

    Relay(List<String> log, ActorRef[] other) {
      this.log = log;
      this.other = other;
    }

    @Override
    public void onReceive(Object message) {
      String me = getSelf().path().name();
      if ("go".equals(message)) {
        other[0].tell("from " + me, getSelf());
        getSelf().tell("self", getSelf());
        log.add(me + " handled go on " + Thread.currentThread().getName());
      } else {
        log.add(me + " got " + message + " on " + Thread.currentThread().getName());
      }
    }
  }

  @Test
  void aCallingThreadDispatcherRunsOnTheSenderAndQueuesReentrantSendsAfterTheCurrentMessage() {
    ActorSystem sys = systems.create("calling", "test-dispatcher { type = CallingThreadDispatcher }");
    List<String> log = new ArrayList<>(); // only the test thread touches it
    ActorRef[] toB = new ActorRef[1];
    ActorRef[] toA = new ActorRef[1];
    toA[0] = sys.actorOf(Props.create(Relay.class, log, toB).withDispatcher("test-dispatcher"), "a");
    toB[0] = sys.actorOf(Props.create(Relay.class, log, new ActorRef[] {sys.deadLetters()})
        .withDispatcher("test-dispatcher"), "b");
    String me = Thread.currentThread().getName();
    toA[0].tell("go", ActorRef.noSender());
    // No waiting: everything ran inside tell, on this thread, one message after the other.
    assertEquals(List.of(
        "a handled go on " + me,
        "b got from a on " + me,
        "a got self on " + me), log);
  }

  @Test
  void aCallingThreadDispatcherStartsNoThreads() {
    ActorSystem sys = systems.create("callingthreads", "test-dispatcher { type = CallingThreadDispatcher }");
    Set<String> before = ConcurrentHashMap.newKeySet();
    before.addAll(TestSupport.threadsNamed(sys.name() + "-test-dispatcher"));
    List<String> log = new ArrayList<>();
    ActorRef a = sys.actorOf(Props.create(Relay.class, log, new ActorRef[] {sys.deadLetters()})
        .withDispatcher("test-dispatcher"), "solo");
    a.tell("hello", ActorRef.noSender());
    assertEquals(List.of("solo got hello on " + Thread.currentThread().getName()), log);
    assertTrue(before.isEmpty() && TestSupport.threadsNamed(sys.name() + "-test-dispatcher").isEmpty(),
        "threads: " + TestSupport.threadsNamed(sys.name() + "-test-dispatcher"));
  }

  // ------------------------------------------------------------------ config errors

  @Test
  void anUnknownDispatcherTypeIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = systems.create("badtype", "odd-dispatcher { type = WarpDispatcher }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(WhereAmI.class).withDispatcher("odd-dispatcher")));
    assertTrue(e.getMessage().contains("odd-dispatcher.type"), e.getMessage());
    assertTrue(e.getMessage().contains("PinnedDispatcher"), e.getMessage());
  }

  @Test
  void aBadKeyInAPinnedDispatcherSectionIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = systems.create("badpinned",
        "pinned-dispatcher { type = PinnedDispatcher, throughput = lots }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(WhereAmI.class).withDispatcher("pinned-dispatcher")));
    assertTrue(e.getMessage().contains("pinned-dispatcher.throughput"), e.getMessage());
  }
}
