package dev.troupe.bench.idle;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.PingPongMessages.Ping;
import dev.troupe.bench.common.PingPongMessages.Pong;
import dev.troupe.bench.common.PingPongMessages.Start;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code IdleCpu}: Pekko's defaults; mirrors {@link TroupeIdle}. */
final class PekkoIdle implements IdleEngine {
  private ActorSystem system;
  private ActorRef pinger;
  private ActorRef reader;

  @Override
  public void start(String name) {
    system = PekkoSystems.start(name, "");
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
    done.await("pekko burst");
  }

  @Override
  public long pickupNanos() {
    Stamp stamp = new Stamp();
    reader.tell(stamp, ActorRef.noSender());
    return stamp.await("pekko pickup");
  }

  @Override
  public void stop() {
    PekkoSystems.stop(system);
  }

  static final class Pinger extends UntypedAbstractActor {
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

  static final class Ponger extends UntypedAbstractActor {
    @Override
    public void onReceive(Object message) {
      if (message == Ping.INSTANCE) {
        getSender().tell(Pong.INSTANCE, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class Reader extends UntypedAbstractActor {
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
