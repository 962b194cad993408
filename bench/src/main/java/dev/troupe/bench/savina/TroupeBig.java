package dev.troupe.bench.savina;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.SavinaMessages.BigPing;
import dev.troupe.bench.common.SavinaMessages.BigPong;
import dev.troupe.bench.common.SavinaMessages.Go;
import dev.troupe.bench.common.SavinaMessages.StartBig;
import dev.troupe.bench.common.SavinaMessages.WorkerDone;
import dev.troupe.bench.common.TroupeSystems;
import java.util.SplittableRandom;

/** Troupe side of {@code Big}; mirrors {@link PekkoBig} line by line. */
public final class TroupeBig implements SavinaDriver {
  private ActorSystem system;
  private ActorRef sink;

  /** Setup only: every worker's peers and the sink. */
  record Peers(ActorRef[] peers, ActorRef sink) {}

  @Override
  public void setup(int size) {
    system =
        TroupeSystems.start(
            Names.unique("big"), Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
    ActorRef[] workers = new ActorRef[size];
    for (int i = 0; i < size; i++) {
      int seed = i;
      workers[i] =
          system.actorOf(
              Props.create(Worker.class, () -> new Worker(seed)).withDispatcher(Dispatchers.ID));
    }
    sink =
        system.actorOf(
            Props.create(Sink.class, () -> new Sink(workers)).withDispatcher(Dispatchers.ID));
    Peers peers = new Peers(workers, sink);
    for (ActorRef w : workers) {
      w.tell(peers, ActorRef.noSender());
    }
  }

  @Override
  public void runIteration(int work) {
    Completion done = new Completion(1);
    sink.tell(new StartBig(done, work), ActorRef.noSender());
    done.await("troupe big");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Sink extends UntypedActor {
    private final ActorRef[] workers;
    private Completion done;
    private int running;

    Sink(ActorRef[] workers) {
      this.workers = workers;
    }

    @Override
    public void onReceive(Object message) {
      if (message == WorkerDone.INSTANCE) {
        if (--running == 0) {
          done.done();
        }
      } else if (message instanceof StartBig s) {
        done = s.done();
        running = workers.length;
        Go go = new Go(s.pings());
        for (ActorRef w : workers) {
          w.tell(go, getSelf());
        }
      } else {
        unhandled(message);
      }
    }
  }

  static final class Worker extends UntypedActor {
    private final SplittableRandom random;
    private ActorRef sink;
    private ActorRef[] peers;
    private int quota;
    private int pongs;

    Worker(int seed) {
      this.random = new SplittableRandom(seed);
    }

    @Override
    public void onReceive(Object message) {
      if (message == BigPing.INSTANCE) {
        getSender().tell(BigPong.INSTANCE, getSelf());
      } else if (message == BigPong.INSTANCE) {
        if (++pongs == quota) {
          sink.tell(WorkerDone.INSTANCE, getSelf());
        } else {
          sendPing();
        }
      } else if (message instanceof Go g) {
        quota = g.pings();
        pongs = 0;
        sendPing();
      } else if (message instanceof Peers p) {
        peers = p.peers();
        sink = p.sink();
      } else {
        unhandled(message);
      }
    }

    private void sendPing() {
      peers[random.nextInt(peers.length)].tell(BigPing.INSTANCE, getSelf());
    }
  }
}
