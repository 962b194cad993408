package dev.troupe.bench.savina;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.SavinaMessages.ComputeAndStop;
import dev.troupe.bench.common.Work;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code ForkJoinCreate}; mirrors {@link TroupeForkJoinCreate} line by line. */
public final class PekkoForkJoinCreate implements SavinaDriver {
  private final Impl impl;

  /**
   * @param impl {@code pekko} or {@code pekko-tuned}
   */
  public PekkoForkJoinCreate(Impl impl) {
    this.impl = impl;
  }

  private static final Props WORKER =
      Props.create(Worker.class, Worker::new).withDispatcher(Dispatchers.ID);
  private ActorSystem system;

  @Override
  public void setup(int size) {
    system =
        PekkoSystems.start(
            Names.unique("fjcreate"), Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT));
  }

  @Override
  public void runIteration(int work) {
    Completion done = new Completion(work);
    ComputeAndStop message = new ComputeAndStop(done);
    for (int i = 0; i < work; i++) {
      system.actorOf(WORKER).tell(message, ActorRef.noSender());
    }
    done.await("pekko fork-join create");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Worker extends UntypedAbstractActor {
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
