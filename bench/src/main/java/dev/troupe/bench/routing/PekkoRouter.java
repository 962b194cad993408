package dev.troupe.bench.routing;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.RouterMessages.Expect;
import dev.troupe.bench.common.RouterMessages.Job;
import dev.troupe.bench.common.RouterMessages.SharedJob;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.routing.BalancingPool;
import org.apache.pekko.routing.Broadcast;
import org.apache.pekko.routing.RoundRobinPool;

/** Pekko side of {@code RouterOverhead}; mirrors {@link TroupeRouter} line by line. */
final class PekkoRouter implements RouterDriver {
  private ActorSystem system;
  private ActorRef target;
  private int routees;
  private boolean balancing;
  private final Impl impl;

  PekkoRouter(Impl impl) {
    this.impl = impl;
  }

  @Override
  public void setup(int routees, boolean balancing) {
    this.routees = routees;
    this.balancing = balancing;
    // A Pekko balancing pool ignores the routees' dispatcher and makes its own from the
    // deployment's pool-dispatcher section: point that at the same settings.
    String deploy =
        "pekko.actor.deployment.\"/balancing\".pool-dispatcher = ${" + Dispatchers.ID + "}\n";
    system =
        PekkoSystems.start(
            Names.unique("router"),
            Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT) + deploy);
    Props props = Props.create(Routee.class, Routee::new).withDispatcher(Dispatchers.ID);
    if (routees == 0) {
      target = system.actorOf(props);
    } else if (balancing) {
      target = system.actorOf(new BalancingPool(routees).props(props), "balancing");
    } else {
      target = system.actorOf(new RoundRobinPool(routees).props(props));
    }
  }

  @Override
  public void runIteration(int jobs) {
    if (balancing) {
      Completion all = new Completion(1);
      SharedJob job = new SharedJob(all, new AtomicInteger(jobs));
      for (int i = 0; i < jobs; i++) {
        target.tell(job, ActorRef.noSender());
      }
      all.await("pekko balancing pool");
      return;
    }
    int targets = Math.max(1, routees);
    Completion done = new Completion(targets);
    Expect expect = new Expect(done, jobs / targets);
    target.tell(routees == 0 ? expect : new Broadcast(expect), ActorRef.noSender());
    for (int i = 0; i < jobs; i++) {
      target.tell(Job.INSTANCE, ActorRef.noSender());
    }
    done.await("pekko router");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Routee extends UntypedAbstractActor {
    private Completion done;
    private int expected;
    private int processed;

    @Override
    public void onReceive(Object message) {
      if (message instanceof SharedJob s) {
        s.processed();
      } else if (message == Job.INSTANCE) {
        if (++processed == expected) {
          done.done();
        }
      } else if (message instanceof Expect e) {
        done = e.done();
        expected = e.jobs();
        processed = 0;
      } else {
        unhandled(message);
      }
    }
  }
}
