package dev.troupe.cluster.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Identify;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The typed cluster API on members in this JVM (the in-memory engine, remoting on 127.0.0.1): events
 * through message adapters (one actor, several classes, each its own subscription), {@code SelfUp}
 * and {@code SelfRemoved}, a leave through the manager, the current state, subscriptions that end
 * with {@code Unsubscribe} or with the subscriber's actor, and misuse.
 */
@Timeout(120)
class ClusterTypedTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** This test sends nothing of its own between members. */
  interface Wire {}

  record MemberChange(ClusterEvent.MemberEvent event) {}

  record Up(SelfUp event) {}

  record Removed(SelfRemoved event) {}

  private List<ActorSystem> members = List.of();

  @AfterEach
  void stop() {
    Members.stop(members);
  }

  /** Subscribes its message adapters to member events, SelfUp and SelfRemoved; puts what it gets in {@code out}. */
  static Behavior<Object> watcher(BlockingQueue<Object> out) {
    return Behaviors.setup(ctx -> {
      Cluster cluster = Cluster.get(ctx.getSystem());
      ActorRef<ClusterStateSubscription> subscriptions = cluster.subscriptions();
      subscriptions.tell(Subscribe.create(
          ctx.messageAdapter(ClusterEvent.MemberEvent.class, MemberChange::new), ClusterEvent.MemberEvent.class));
      subscriptions.tell(Subscribe.create(ctx.messageAdapter(SelfUp.class, Up::new), SelfUp.class));
      subscriptions.tell(Subscribe.create(ctx.messageAdapter(SelfRemoved.class, Removed::new), SelfRemoved.class));
      return Behaviors.receiveMessage(m -> {
        out.add(m);
        return Behaviors.same();
      });
    });
  }

  /** Takes from {@code q} until {@code p} matches, failing after {@link #WAIT}; returns what it skipped and the match. */
  private static List<Object> takeUntil(BlockingQueue<Object> q, String what, Predicate<Object> p) throws InterruptedException {
    List<Object> seen = new ArrayList<>();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      Object o = q.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (o == null) {
        fail(what + " not received within " + WAIT + "; got " + seen);
      }
      seen.add(o);
      if (p.test(o)) {
        return seen;
      }
    }
  }

  private static Object last(List<Object> l) {
    return l.get(l.size() - 1);
  }

  private static Predicate<Object> event(Class<?> type, Address of) {
    return o -> o instanceof MemberChange c && type.isInstance(c.event()) && c.event().member().address().equals(of);
  }

  /** How many forwarding children (one per event subscription) the typed cluster actor has now. */
  private static int subscriptionChildren(ActorSystem system) {
    TestKit kit = new TestKit(system);
    system.actorSelection("/user/" + Cluster.ACTOR_NAME + "/*").tell(new Identify("n"), kit.getRef());
    int n = 0;
    Object o;
    while ((o = kit.receiveOne(Duration.ofMillis(300))) != null) {
      if (o instanceof ActorIdentity id && id.ref().isPresent()) {
        n++;
      }
    }
    return n;
  }

  private static void awaitSubscriptionChildren(ActorSystem system, int expected) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    int n;
    while ((n = subscriptionChildren(system)) != expected) {
      if (System.nanoTime() > deadline) {
        fail("the typed cluster actor has " + n + " subscriptions, not " + expected + ", after " + WAIT);
      }
    }
  }

  @Test
  void eventsSelfUpAndSelfRemovedReachMessageAdaptersAndALeaveThroughTheManagerIsSeenOnBothSides() throws Exception {
    // the leaving member's system stays up after its removal, so that its actors see it
    members = Members.start("typed-cluster", 2, Wire.class, WAIT, "troupe.coordinated-shutdown.terminate-actor-system = off");
    ActorSystem first = members.get(0);
    ActorSystem second = members.get(1);
    BlockingQueue<Object> onFirst = new LinkedBlockingQueue<>();
    BlockingQueue<Object> onSecond = new LinkedBlockingQueue<>();
    Adapter.spawn(first, watcher(onFirst), "watcher");
    Adapter.spawn(second, watcher(onSecond), "watcher");

    // the current state as events (both members up) and SelfUp, through two adapters of one actor
    takeUntil(onFirst, "SelfUp on the first", o -> o instanceof Up);
    List<Object> firstSaw = new ArrayList<>();
    firstSaw.addAll(takeUntil(onFirst, "MemberUp of the first", event(ClusterEvent.MemberUp.class, first.address())));
    firstSaw.addAll(takeUntil(onFirst, "MemberUp of the second", event(ClusterEvent.MemberUp.class, second.address())));
    Up secondUp = (Up) last(takeUntil(onSecond, "SelfUp on the second", o -> o instanceof Up));
    assertEquals(2, secondUp.event().currentClusterState().members().size(), "the state SelfUp carried");
    assertEquals(2, Cluster.get(second).state().members().size(), "the second member's view");
    assertEquals(MemberStatus.UP, Cluster.get(first).selfMember().status());

    // the first tells the second to leave
    Cluster.get(first).manager().tell(Leave.create(second.address()));
    takeUntil(onFirst, "MemberLeft of the second", event(ClusterEvent.MemberLeft.class, second.address()));
    takeUntil(onFirst, "MemberExited of the second", event(ClusterEvent.MemberExited.class, second.address()));
    List<Object> removal = takeUntil(onFirst, "MemberRemoved of the second", event(ClusterEvent.MemberRemoved.class, second.address()));
    assertTrue(removal.stream().noneMatch(o -> o instanceof Removed), "the first member was not removed: " + removal);
    Removed removed = (Removed) last(takeUntil(onSecond, "SelfRemoved on the second", o -> o instanceof Removed));
    assertEquals(MemberStatus.EXITING, removed.event().previousStatus());

    // after the removal: SelfRemoved at once for a new subscriber, SelfUp never
    TestProbe<SelfRemoved> late = TestProbe.create(Adapter.toTyped(second));
    Cluster.get(second).subscriptions().tell(Subscribe.create(late.getRef(), SelfRemoved.class));
    assertEquals(MemberStatus.EXITING, late.receiveMessage(WAIT).previousStatus());
    assertTrue(firstSaw.stream().noneMatch(o -> o instanceof Removed));
  }

  @Test
  void subscriptionsEndWithUnsubscribeOrWithTheSubscribersActorAndTheStateIsAnswered() throws Exception {
    members = Members.start("typed-cluster-subs", 1, Wire.class, WAIT);
    ActorSystem system = members.get(0);
    Cluster cluster = Cluster.get(Adapter.toTyped(system));
    assertTrue(cluster == Cluster.get(system), "one per system");

    TestProbe<ClusterEvent.MemberEvent> probe = TestProbe.create(Adapter.toTyped(system));
    cluster.subscriptions().tell(Subscribe.create(probe.getRef(), ClusterEvent.MemberEvent.class));
    ClusterEvent.MemberEvent up = probe.receiveMessage(WAIT);
    assertEquals(system.address(), up.member().address());
    awaitSubscriptionChildren(system, 1);
    cluster.subscriptions().tell(Unsubscribe.create(probe.getRef()));
    awaitSubscriptionChildren(system, 0);

    // one actor's adapters subscribed to two classes: two subscriptions, both gone when it stops
    BlockingQueue<Object> out = new LinkedBlockingQueue<>();
    ActorRef<Object> watcher = Adapter.spawn(system, watcher(out), "watcher");
    takeUntil(out, "SelfUp", o -> o instanceof Up);
    takeUntil(out, "MemberUp", o -> o instanceof MemberChange);
    awaitSubscriptionChildren(system, 1); // member events; SelfUp was answered at once, SelfRemoved waits
    TestProbe<Object> deaths = TestProbe.create(Adapter.toTyped(system));
    system.stop(Adapter.toClassic(watcher));
    deaths.expectTerminated(watcher, WAIT);
    awaitSubscriptionChildren(system, 0);

    // a command the classic cluster refuses is logged; the actor goes on
    cluster.manager().tell(Join.create(Address.remote("another-system", "127.0.0.1", 1)));
    TestProbe<CurrentClusterState> state = TestProbe.create(Adapter.toTyped(system));
    cluster.subscriptions().tell(new GetCurrentState(state.getRef()));
    CurrentClusterState now = state.receiveMessage(WAIT);
    assertEquals(1, now.members().size());
    assertEquals(system.address(), now.members().get(0).address());
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void misuseIsRefusedWhereItHappens() {
    ActorSystem plain = ActorSystem.create("typed-cluster-plain");
    members = List.of(plain);
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> Cluster.get(Adapter.toTyped(plain)));
    assertTrue(e.getMessage().contains("troupe.actor.provider"), e.getMessage());
    ActorRef<String> someone = Adapter.toTyped(plain.deadLetters());
    IllegalArgumentException notAnEvent =
        assertThrows(IllegalArgumentException.class, () -> Subscribe.create(someone, (Class) String.class));
    assertTrue(notAnEvent.getMessage().contains("not a cluster event class"), notAnEvent.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new JoinSeedNodes(List.of()));
    assertThrows(NullPointerException.class, () -> Join.create(null));
    assertThrows(NullPointerException.class, () -> Leave.create(null));
    assertThrows(NullPointerException.class, () -> new Down(null));
    assertThrows(NullPointerException.class, () -> Subscribe.create(null, SelfUp.class));
    assertThrows(NullPointerException.class, () -> Unsubscribe.create(null));
    assertThrows(NullPointerException.class, () -> new GetCurrentState(null));
  }
}
