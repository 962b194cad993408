package dev.troupe.bench.savina;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.SavinaMessages.ComputeAndStop;
import dev.troupe.bench.common.TroupeSystems;
import dev.troupe.bench.common.Work;

/** Troupe side of {@code ForkJoinCreate}; mirrors {@link PekkoForkJoinCreate} line by line. */
public final class TroupeForkJoinCreate implements SavinaDriver {
  private static final Props WORKER =
      Props.create(Worker.class, Worker::new).withDispatcher(Dispatchers.ID);
  private ActorSystem system;

  @Override
  public void setup(int size) {
    system =
        TroupeSystems.start(
            Names.unique("fjcreate"),
            Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
  }

  @Override
  public void runIteration(int work) {
    Completion done = new Completion(work);
    ComputeAndStop message = new ComputeAndStop(done);
    for (int i = 0; i < work; i++) {
      system.actorOf(WORKER).tell(message, ActorRef.noSender());
    }
    done.await("troupe fork-join create");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Worker extends UntypedActor {
    private Completion done;

    @Override
    public void onReceive(Object message) {
      if (message instanceof ComputeAndStop c) {
        done = c.done();
        Work.compute(Work.THETA);
        getContext().stop(getSelf());
      } else {
        unhandled(message);
      }
    }

    @Override
    public void postStop() {
      if (done != null) {
        done.done();
      }
    }
  }
}
