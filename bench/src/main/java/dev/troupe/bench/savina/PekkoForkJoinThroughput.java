package dev.troupe.bench.savina;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.SavinaMessages.Compute;
import dev.troupe.bench.common.SavinaMessages.Expect;
import dev.troupe.bench.common.Work;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/**
 * Pekko side of {@code ForkJoinThroughput}; mirrors {@link TroupeForkJoinThroughput} line by line.
 */
public final class PekkoForkJoinThroughput implements SavinaDriver {
  private final Impl impl;

  /**
   * @param impl {@code pekko} or {@code pekko-tuned}
   */
  public PekkoForkJoinThroughput(Impl impl) {
    this.impl = impl;
  }

  private ActorSystem system;
  private ActorRef[] workers;

  @Override
  public void setup(int size) {
    system =
        PekkoSystems.start(
            Names.unique("fjthr"), Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT));
    workers = new ActorRef[size];
    for (int i = 0; i < size; i++) {
      workers[i] =
          system.actorOf(Props.create(Worker.class, Worker::new).withDispatcher(Dispatchers.ID));
    }
  }

  @Override
  public void runIteration(int work) {
    Completion done = new Completion(workers.length);
    Expect expect = new Expect(done, work);
    for (ActorRef w : workers) {
      w.tell(expect, ActorRef.noSender());
    }
    for (int m = 0; m < work; m++) {
      for (ActorRef w : workers) {
        w.tell(Compute.INSTANCE, ActorRef.noSender());
      }
    }
    done.await("pekko fork-join throughput");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Worker extends UntypedAbstractActor {
    private Completion done;
    private int expected;
    private int processed;

    @Override
    public void onReceive(Object message) {
      if (message == Compute.INSTANCE) {
        Work.compute(Work.THETA);
        if (++processed == expected) {
          done.done();
        }
      } else if (message instanceof Expect e) {
        done = e.done();
        expected = e.messages();
        processed = 0;
      } else {
        unhandled(message);
      }
    }
  }
}
