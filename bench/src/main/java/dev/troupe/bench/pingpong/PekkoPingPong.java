package dev.troupe.bench.pingpong;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.PingPongMessages.Ping;
import dev.troupe.bench.common.PingPongMessages.Pong;
import dev.troupe.bench.common.PingPongMessages.Start;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code PingPongThroughput}; mirrors {@link TroupePingPong} line by line. */
final class PekkoPingPong implements PingPongDriver {
  private ActorSystem system;
  private ActorRef[] pingers;
  private int inFlight;
  private final Impl impl;

  PekkoPingPong(Impl impl) {
    this.impl = impl;
  }

  @Override
  public void setup(int pairs, int throughput, int inFlight) {
    this.inFlight = inFlight;
    system = PekkoSystems.start(Names.unique("pingpong"), Dispatchers.section(impl, throughput));
    pingers = new ActorRef[pairs];
    for (int i = 0; i < pairs; i++) {
      ActorRef ponger =
          system.actorOf(Props.create(Ponger.class, Ponger::new).withDispatcher(Dispatchers.ID));
      pingers[i] =
          system.actorOf(
              Props.create(Pinger.class, () -> new Pinger(ponger)).withDispatcher(Dispatchers.ID));
    }
  }

  @Override
  public void runIteration(int roundTripsPerPair) {
    Completion done = new Completion(pingers.length);
    Start start = new Start(done, roundTripsPerPair, inFlight);
    for (ActorRef p : pingers) {
      p.tell(start, ActorRef.noSender());
    }
    done.await("pekko ping-pong");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Pinger extends UntypedAbstractActor {
    private final ActorRef ponger;
    private Completion done;
    private int quota;
    private int sent;
    private int received;

    Pinger(ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public void onReceive(Object message) {
      if (message == Pong.INSTANCE) {
        received++;
        if (sent < quota) {
          sent++;
          ponger.tell(Ping.INSTANCE, getSelf());
        } else if (received == quota) {
          done.done();
        }
      } else if (message instanceof Start s) {
        done = s.done();
        quota = s.roundTrips();
        sent = 0;
        received = 0;
        int initial = Math.min(s.inFlight(), quota);
        for (int i = 0; i < initial; i++) {
          sent++;
          ponger.tell(Ping.INSTANCE, getSelf());
        }
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
}
