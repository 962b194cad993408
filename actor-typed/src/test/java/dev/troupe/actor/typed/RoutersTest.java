package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.PoolRouter;
import dev.troupe.actor.typed.javadsl.Routers;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Pool and group routers: routing, broadcast, hashing, routees that go, listings that change. */
class RoutersTest {
  private static final ServiceKey<Job> KEY = ServiceKey.create(Job.class, "workers");

  /** What the routees accept. */
  sealed interface Job {}

  /** Work numbered {@code n}: the routee answers with itself and n. */
  record Work(int n, String key, ActorRef<Object> replyTo) implements Job {}

  /** Makes the routee stop (or, with {@code fail}, throw). */
  record Quit(boolean fail) implements Job {}

  /** A routee's answer. */
  record Done(ActorRef<Job> routee, int n) {}

  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("routers");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private static Behavior<Job> worker() {
    return Behaviors.receive((ctx, job) -> {
      if (job instanceof Work w) {
        w.replyTo().tell(new Done(ctx.getSelf(), w.n()));
        return Behaviors.same();
      }
      if (((Quit) job).fail()) {
        throw new IllegalStateException("told to fail");
      }
      return Behaviors.stopped();
    });
  }

  private ActorRef<Job> spawn(Behavior<Job> b) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), b);
  }

  /** Sends work numbered from..to-1 and returns which routee did each. */
  private static Map<Integer, ActorRef<Job>> work(ActorRef<Job> router, Probe<Object> probe, int from, int to) {
    for (int n = from; n < to; n++) {
      router.tell(new Work(n, "k" + n, probe.ref()));
    }
    Map<Integer, ActorRef<Job>> by = new HashMap<>();
    for (int i = from; i < to; i++) {
      Done d = probe.expectClass(Done.class);
      by.put(d.n(), d.routee());
    }
    assertEquals(to - from, by.size(), "one answer per work item");
    return by;
  }

  @Test
  void aPoolRoutesRoundRobinOverItsOwnChildren() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Job> router = spawn(Routers.pool(3, worker()));
    Map<Integer, ActorRef<Job>> by = work(router, probe, 0, 12);
    assertEquals(3, new HashSet<>(by.values()).size(), "three routees took part");
    for (int n = 3; n < 12; n++) {
      assertEquals(by.get(n % 3), by.get(n), "work " + n + " went to the routee of work " + (n % 3));
    }
    for (ActorRef<Job> r : by.values()) {
      assertTrue(r.path().parent().equals(router.path()), r.path() + " is a child of the router " + router.path());
    }
  }

  @Test
  void aRouteeThatStopsOrFailsIsDroppedAndThePoolStopsWithItsLast() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Job> router = spawn(Routers.pool(3, worker()));
    Map<Integer, ActorRef<Job>> by = work(router, probe, 0, 3);
    ActorRef<Job> a = by.get(0);
    ActorRef<Job> b = by.get(1);
    ActorRef<Job> c = by.get(2);
    probe.watch(a);
    probe.watch(b);
    probe.watch(router);
    a.tell(new Quit(false));
    probe.expectTerminated(a);
    b.tell(new Quit(true)); // a failed routee is stopped (no supervision asked for)
    probe.expectTerminated(b);
    // The router may hear of the stops after the probe does: route until only c answers.
    workUntilOnly(router, probe, c);
    c.tell(new Quit(false));
    probe.expectTerminated(router); // after c's, which the probe does not watch
  }

  /**
   * Routes work, one item at a time, until {@code only} has done six in a row; bounded. An item the
   * router sent to a routee that had already stopped (before the router heard of it) is lost to
   * dead letters: the wait for its answer just ends; a late answer to an earlier item is skipped.
   */
  private static void workUntilOnly(ActorRef<Job> router, Probe<Object> probe, ActorRef<Job> only) {
    int inARow = 0;
    for (int n = 1000; n < 1200; n++) {
      router.tell(new Work(n, "k", probe.ref()));
      Done d;
      do {
        d = (Done) probe.poll(Duration.ofMillis(200));
      } while (d != null && d.n() < n);
      inARow = d != null && d.routee().equals(only) ? inARow + 1 : 0;
      if (inARow == 6) {
        return;
      }
    }
    throw new AssertionError("the router still routes to others than " + only + " after 200 items");
  }

  @Test
  void aSupervisedPoolThatRestartsStartsAFreshPool() {
    Probe<Object> probe = new Probe<>(system);
    PoolRouter<Job> pool = Routers.pool(2, worker()).withBroadcastPredicate(j -> {
      if (j instanceof Quit q && q.fail()) {
        throw new IllegalStateException("the router's own predicate fails");
      }
      return false;
    });
    ActorRef<Job> router = spawn(Behaviors.supervise(pool).onFailure(IllegalStateException.class, SupervisorStrategy.restart()));
    Set<ActorRef<Job>> before = Set.copyOf(work(router, probe, 0, 2).values());
    assertEquals(2, before.size());
    for (ActorRef<Job> r : before) {
      probe.watch(r);
    }
    router.tell(new Quit(true));
    Set<ActorRef<Job>> stopped = new HashSet<>();
    stopped.add(probe.expectClass(Terminated.class).getRef().unsafeUpcast());
    stopped.add(probe.expectClass(Terminated.class).getRef().unsafeUpcast());
    assertEquals(before, stopped, "the restart stopped the old routees");
    Set<ActorRef<Job>> after = Set.copyOf(work(router, probe, 10, 12).values());
    assertEquals(2, after.size());
    assertTrue(Collections.disjoint(before, after), "new routees: " + before + " then " + after);
  }

  @Test
  void aBroadcastPredicateSendsToEveryRoutee() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Job> router = spawn(Routers.pool(3, worker()).withBroadcastPredicate(j -> j instanceof Work w && w.n() < 0));
    router.tell(new Work(-1, "all", probe.ref()));
    Set<ActorRef<Job>> got = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      Done d = probe.expectClass(Done.class);
      assertEquals(-1, d.n());
      got.add(d.routee());
    }
    assertEquals(3, got.size(), "each routee got the broadcast once");
    probe.expectNothing(Duration.ofMillis(100));
    assertEquals(1, work(router, probe, 0, 1).size(), "other messages are routed to one routee");
  }

  @Test
  void consistentHashingSendsOneKeyToOneRouteeAndSkipsAMessageWithoutKey() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Job> router = spawn(Routers.pool(4, worker())
        .withConsistentHashingRouting(10, j -> j instanceof Work w ? w.key() : null));
    Set<ActorRef<Job>> forA = new HashSet<>();
    for (int n = 0; n < 20; n++) {
      router.tell(new Work(n, "a", probe.ref()));
      forA.add(probe.expectClass(Done.class).routee());
    }
    assertEquals(1, forA.size(), "key a always reaches the same routee");
    Map<Integer, ActorRef<Job>> spread = work(router, probe, 0, 40); // keys k0..k39
    assertTrue(new HashSet<>(spread.values()).size() >= 3, "forty keys reach at least three of four routees: " + spread);
    router.tell(new Quit(false)); // no key: dead letters (a routee it reached would stop), the router goes on
    assertEquals(spread, work(router, probe, 0, 40), "every key still reaches its routee: all four are alive");
  }

  @Test
  void aGroupRoutesToTheListedInstancesKeepingWhatCameBeforeTheFirstListing() {
    Probe<Object> probe = new Probe<>(system);
    Probe<Receptionist.Registered> registered = new Probe<>(system);
    ActorRef<Job> a = spawn(worker());
    ActorRef<Job> b = spawn(worker());
    system.receptionist().tell(Receptionist.register(KEY, a, registered.ref()));
    system.receptionist().tell(Receptionist.register(KEY, b, registered.ref()));
    registered.expectClass(Receptionist.Registered.class);
    registered.expectClass(Receptionist.Registered.class);
    ActorRef<Job> router = spawn(Routers.group(KEY));
    Map<Integer, ActorRef<Job>> by = work(router, probe, 0, 10); // sent at once: most before the listing
    assertEquals(Set.of(a, b), Set.copyOf(by.values()), "both instances took part");
    for (int n = 2; n < 10; n++) {
      assertEquals(by.get(n % 2), by.get(n), "round-robin: work " + n);
    }
    assertNotEquals(by.get(0), by.get(1));

    probe.watch(a);
    a.tell(new Quit(false));
    probe.expectTerminated(a);
    workUntilOnly(router, probe, b); // a left the listing
  }

  @Test
  void aGroupWithNoInstanceDropsAndThenUsesAnInstanceThatRegistersLater() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Job> router = spawn(Routers.group(KEY).withRandomRouting());
    router.tell(new Work(0, "x", probe.ref())); // waits for the first listing (empty): then dead letters
    probe.expectNothing(Duration.ofMillis(200));
    ActorRef<Job> a = spawn(worker());
    system.receptionist().tell(Receptionist.register(KEY, a));
    for (int round = 1; round <= 50; round++) {
      router.tell(new Work(round, "x", probe.ref()));
      Object m = probe.poll(Duration.ofMillis(100));
      if (m != null) {
        assertEquals(new Done(a, round), m, "the instance that registered did the work");
        return;
      }
    }
    throw new AssertionError("the router did not route to the instance that registered, in 50 tries");
  }

  @Test
  void badSettingsAreRefusedWhereTheyAreGiven() {
    Behavior<Job> w = worker();
    assertThrows(IllegalArgumentException.class, () -> Routers.pool(0, w));
    assertThrows(IllegalArgumentException.class, () -> Routers.pool(2, w).withPoolSize(-1));
    assertThrows(IllegalArgumentException.class, () -> Routers.pool(2, w).withConsistentHashingRouting(0, j -> "k"));
    assertThrows(IllegalArgumentException.class, () -> Routers.group(KEY).withConsistentHashingRouting(0, j -> "k"));
    assertThrows(NullPointerException.class, () -> Routers.pool(2, w).withBroadcastPredicate(null));
    assertThrows(NullPointerException.class, () -> Routers.group(null));
  }
}
