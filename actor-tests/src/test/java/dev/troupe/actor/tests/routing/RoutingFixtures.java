package dev.troupe.actor.tests.routing;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.Routee;
import dev.troupe.routing.Routees;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Actors and helpers shared by the routing tests. */
final class RoutingFixtures {
  private RoutingFixtures() {}

  /** Dispatchers for routees that block (so they cannot starve the default dispatcher). */
  static final String CONFIG =
      """
      blocking-dispatcher {
        executor = thread-pool-executor
        thread-pool-executor {
          core-pool-size-min = 16, core-pool-size-max = 16, max-pool-size-min = 16, max-pool-size-max = 16
        }
      }
      single-thread-dispatcher {
        executor = thread-pool-executor
        thread-pool-executor {
          core-pool-size-min = 1, core-pool-size-max = 1, max-pool-size-min = 1, max-pool-size-max = 1
        }
      }
      """;

  static final Duration WAIT = Duration.ofSeconds(5);

  /** What a reporting routee tells the probe: who got which message from whom. */
  record Got(ActorRef routee, Object message, ActorRef sender) {}

  /** Blocks the routee until the latch opens (bounded), telling the probe when it starts waiting. */
  record Block(CountDownLatch latch) {}

  /** Tells {@code probe} about every message; {@link Block} blocks; "reply" answers the sender. */
  static final class Reporter extends AbstractActor {
    private final ActorRef probe;

    Reporter(ActorRef probe) {
      this.probe = probe;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Block.class, b -> {
            probe.tell(new Got(getSelf(), "blocked", getSender()), getSelf());
            if (!b.latch().await(10, TimeUnit.SECONDS)) {
              throw new IllegalStateException("test latch never opened");
            }
          })
          .matchEquals("reply", m -> getSender().tell("reply from " + getSelf().path().name(), getSelf()))
          .matchAny(m -> probe.tell(new Got(getSelf(), m, getSender()), getSelf()))
          .build();
    }
  }

  /** The routees of a router, in routing order. */
  static List<Routee> routees(TestKit kit, ActorRef router) {
    kit.send(router, GetRoutees.getInstance());
    return kit.expectMsgClass(WAIT, Routees.class).routees();
  }

  /** The refs of a pool's routees, in routing order. */
  static List<ActorRef> routeeRefs(TestKit kit, ActorRef router) {
    List<ActorRef> refs = new ArrayList<>();
    for (Routee r : routees(kit, router)) {
      refs.add(((ActorRefRoutee) r).ref());
    }
    return refs;
  }
}
