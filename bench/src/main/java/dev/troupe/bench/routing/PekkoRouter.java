package dev.troupe.bench.routing;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.RouterMessages.Expect;
import dev.troupe.bench.common.RouterMessages.Job;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;
import org.apache.pekko.routing.Broadcast;
import org.apache.pekko.routing.RoundRobinPool;

/** Pekko side of {@code RouterOverhead}; mirrors {@link TroupeRouter} line by line. */
final class PekkoRouter implements RouterDriver {
  private ActorSystem system;
  private ActorRef target;
  private int routees;
  private final Impl impl;

  PekkoRouter(Impl impl) {
    this.impl = impl;
  }

  @Override
  public void setup(int routees) {
    this.routees = routees;
    system =
        PekkoSystems.start(
            Names.unique("router"), Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT));
    Props props = Props.create(Routee.class, Routee::new).withDispatcher(Dispatchers.ID);
    target =
        routees == 0
            ? system.actorOf(props)
            : system.actorOf(new RoundRobinPool(routees).props(props));
  }

  @Override
  public void runIteration(int jobs) {
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
      if (message == Job.INSTANCE) {
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
