package dev.troupe.bench.idle;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.PingPongMessages.Ping;
import dev.troupe.bench.common.PingPongMessages.Pong;
import dev.troupe.bench.common.PingPongMessages.Start;
import dev.troupe.bench.common.TroupeSystems;

/** Troupe side of {@code IdleCpu}: the default dispatcher; mirrors {@link PekkoIdle}. */
final class TroupeIdle implements IdleEngine {
  private final String config;
  private ActorSystem system;
  private ActorRef pinger;
  private ActorRef reader;

  /**
   * @param idleCpuLevel the default dispatcher's {@code idle-cpu-level}
   * @param minWorkers its {@code parallelism-min}, or 0 for the default
   */
  TroupeIdle(int idleCpuLevel, int minWorkers) {
    String pool = "troupe.actor.default-dispatcher.affinity-pool-executor.";
    this.config =
        pool + "idle-cpu-level = " + idleCpuLevel + "\n"
            + (minWorkers > 0 ? pool + "parallelism-min = " + minWorkers + "\n" : "");
  }

  @Override
  public void start(String name) {
    system = TroupeSystems.start(name, config);
  }

  @Override
  public void createActors() {
    ActorRef ponger = system.actorOf(Props.create(Ponger.class, Ponger::new));
    pinger = system.actorOf(Props.create(Pinger.class, () -> new Pinger(ponger)));
    reader = system.actorOf(Props.create(Reader.class, Reader::new));
  }

  @Override
  public void burst(int roundTrips) {
    Completion done = new Completion(1);
    pinger.tell(new Start(done, roundTrips, 1), ActorRef.noSender());
    done.await("troupe burst");
  }

  @Override
  public long pickupNanos() {
    Stamp stamp = new Stamp();
    reader.tell(stamp, ActorRef.noSender());
    return stamp.await("troupe pickup");
  }

  @Override
  public void stop() {
    TroupeSystems.stop(system);
  }

  static final class Pinger extends UntypedActor {
    private final ActorRef ponger;
    private Completion done;
    private int remaining;

    Pinger(ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public void onReceive(Object message) {
      if (message == Pong.INSTANCE) {
        if (--remaining > 0) {
          ponger.tell(Ping.INSTANCE, getSelf());
        } else {
          done.done();
        }
      } else if (message instanceof Start s) {
        done = s.done();
        remaining = s.roundTrips();
        ponger.tell(Ping.INSTANCE, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class Ponger extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message == Ping.INSTANCE) {
        getSender().tell(Pong.INSTANCE, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class Reader extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message instanceof Stamp s) {
        s.picked();
      } else {
        unhandled(message);
      }
    }
  }
}
