package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.UntypedActor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dispatcher kinds of {@code type}: PinnedDispatcher, BalancingDispatcher and
 * CallingThreadDispatcher (the shared-pool {@code Dispatcher} is covered by DispatcherTest).
 */
class DispatcherKindsTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Replies with the name of the thread it runs on. */
  static final class WhereAmI extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      getSender().tell(Thread.currentThread().getName(), getSelf());
    }
  }

  // ------------------------------------------------------------------ PinnedDispatcher

  @Test
  void aPinnedDispatcherGivesEachActorItsOwnNamedThreadThatEndsWhenTheActorStops() {
    ActorSystem sys = troupe.createSystem("pinned-dispatcher { type = PinnedDispatcher }");
    String prefix = sys.name() + "-pinned-dispatcher-";
    TestProbe probe = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(WhereAmI.class).withDispatcher("pinned-dispatcher"));
    ActorRef b = sys.actorOf(Props.create(WhereAmI.class).withDispatcher("pinned-dispatcher"));
    Set<String> seenA = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      a.tell(i, probe.getRef());
      seenA.add(probe.expectMsgClass(String.class));
    }
    b.tell("where", probe.getRef());
    String threadB = probe.expectMsgClass(String.class);
    assertEquals(1, seenA.size(), "a moved between threads: " + seenA);
    String threadA = seenA.iterator().next();
    assertTrue(threadA.startsWith(prefix), threadA);
    assertTrue(threadB.startsWith(prefix), threadB);
    assertNotEquals(threadA, threadB);

    probe.watch(a);
    sys.stop(a);
    probe.expectMsgClass(Terminated.class);
    probe.awaitCond("the stopped actor's thread to exit, live: " + TestKit.liveThreads(prefix),
        () -> !TestKit.liveThreads(prefix).contains(threadA));
    assertTrue(TestKit.liveThreads(prefix).contains(threadB), "b's thread ended with a");
    b.tell("still there?", probe.getRef());
    probe.expectMsg(threadB);

    TestKit.shutdownActorSystem(sys);
    probe.awaitCond("all threads to end after termination, live: " + TestKit.liveThreads(sys.name() + "-"),
        () -> TestKit.liveThreads(sys.name() + "-").isEmpty());
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
  void aBalancingDispatcherLetsIdleMembersProcessMessagesSentToABusyOne(TestKit kit) {
    ActorSystem sys = troupe.createSystem(
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
    kit.awaitCond("a member to block", () -> blocked.getCount() == 0);
    String busy = log.get(0).substring("blocked ".length());
    for (int i = 0; i < 100; i++) {
      team.get(busy).tell(i, ActorRef.noSender()); // all to the blocked member
    }
    kit.awaitCond("the team to process the blocked member's messages: " + log.size(), () -> log.size() == 101);
    synchronized (log) {
      for (String entry : log.subList(1, log.size())) {
        assertTrue(!entry.startsWith(busy + ":"), "the blocked member processed " + entry);
      }
    }
    release.countDown();
  }

  @Test
  void aStoppedBalancingMemberLeavesTheTeamAndItsLateMessagesAreDeadLetters() {
    ActorSystem sys = troupe.createSystem(
        "team-dispatcher { type = BalancingDispatcher\n"
            + " affinity-pool-executor { parallelism-min = 2, parallelism-max = 2 } }");
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    Props props = Props.create(Member.class, new CountDownLatch(1), new CountDownLatch(0), log)
        .withDispatcher("team-dispatcher");
    ActorRef a = sys.actorOf(props, "a");
    ActorRef b = sys.actorOf(props, "b");
    TestProbe probe = new TestProbe(sys);
    sys.eventStream().subscribe(probe.getRef(), DeadLetter.class);
    probe.watch(a);
    sys.stop(a);
    probe.expectMsgClass(Terminated.class);
    a.tell("late", ActorRef.noSender());
    DeadLetter d = probe.expectMsgClass(DeadLetter.class);
    assertEquals("late", d.message());
    for (int i = 0; i < 50; i++) {
      b.tell(i, ActorRef.noSender());
    }
    probe.awaitCond("the remaining member to process everything: " + log.size(), () -> log.size() == 50);
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
    ActorSystem sys = troupe.createSystem("test-dispatcher { type = CallingThreadDispatcher }");
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
    ActorSystem sys = troupe.createSystem("test-dispatcher { type = CallingThreadDispatcher }");
    Set<String> before = ConcurrentHashMap.newKeySet();
    before.addAll(TestKit.liveThreads(sys.name() + "-test-dispatcher"));
    List<String> log = new ArrayList<>();
    ActorRef a = sys.actorOf(Props.create(Relay.class, log, new ActorRef[] {sys.deadLetters()})
        .withDispatcher("test-dispatcher"), "solo");
    a.tell("hello", ActorRef.noSender());
    assertEquals(List.of("solo got hello on " + Thread.currentThread().getName()), log);
    assertTrue(before.isEmpty() && TestKit.liveThreads(sys.name() + "-test-dispatcher").isEmpty(),
        "threads: " + TestKit.liveThreads(sys.name() + "-test-dispatcher"));
  }

  // ------------------------------------------------------------------ config errors

  @Test
  void anUnknownDispatcherTypeIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = troupe.createSystem("odd-dispatcher { type = WarpDispatcher }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(WhereAmI.class).withDispatcher("odd-dispatcher")));
    assertTrue(e.getMessage().contains("odd-dispatcher.type"), e.getMessage());
    assertTrue(e.getMessage().contains("PinnedDispatcher"), e.getMessage());
  }

  @Test
  void aBadKeyInAPinnedDispatcherSectionIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = troupe.createSystem(
        "pinned-dispatcher { type = PinnedDispatcher, throughput = lots }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(WhereAmI.class).withDispatcher("pinned-dispatcher")));
    assertTrue(e.getMessage().contains("pinned-dispatcher.throughput"), e.getMessage());
  }
}
