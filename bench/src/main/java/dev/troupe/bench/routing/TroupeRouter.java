package dev.troupe.bench.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.RouterMessages.Expect;
import dev.troupe.bench.common.RouterMessages.Job;
import dev.troupe.bench.common.RouterMessages.SharedJob;
import dev.troupe.bench.common.TroupeSystems;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.Broadcast;
import dev.troupe.routing.RoundRobinPool;
import java.util.concurrent.atomic.AtomicInteger;

/** Troupe side of {@code RouterOverhead}; mirrors {@link PekkoRouter} line by line. */
final class TroupeRouter implements RouterDriver {
  private ActorSystem system;
  private ActorRef target;
  private int routees;
  private boolean balancing;

  @Override
  public void setup(int routees, boolean balancing) {
    this.routees = routees;
    this.balancing = balancing;
    system =
        TroupeSystems.start(
            Names.unique("router"),
            Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
    Props props = Props.create(Routee.class, Routee::new).withDispatcher(Dispatchers.ID);
    target =
        routees == 0
            ? system.actorOf(props)
            : system.actorOf(props.withRouter(
                balancing ? new BalancingPool(routees) : new RoundRobinPool(routees)));
  }

  @Override
  public void runIteration(int jobs) {
    if (balancing) {
      Completion all = new Completion(1);
      SharedJob job = new SharedJob(all, new AtomicInteger(jobs));
      for (int i = 0; i < jobs; i++) {
        target.tell(job, ActorRef.noSender());
      }
      all.await("troupe balancing pool");
      return;
    }
    int targets = Math.max(1, routees);
    Completion done = new Completion(targets);
    Expect expect = new Expect(done, jobs / targets);
    target.tell(routees == 0 ? expect : new Broadcast(expect), ActorRef.noSender());
    for (int i = 0; i < jobs; i++) {
      target.tell(Job.INSTANCE, ActorRef.noSender());
    }
    done.await("troupe router");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Routee extends UntypedActor {
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
