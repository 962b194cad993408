package dev.troupe.bench.pingpong;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PingPongMessages.Ping;
import dev.troupe.bench.common.PingPongMessages.Pong;
import dev.troupe.bench.common.PingPongMessages.Start;
import dev.troupe.bench.common.TroupeSystems;

/** Troupe side of {@code PingPongThroughput}; mirrors {@link PekkoPingPong} line by line. */
final class TroupePingPong implements PingPongDriver {
  /** The {@code impl} spelling of Troupe with telemetry on. */
  static final String WITH_TELEMETRY = "troupe-telemetry";

  private final boolean telemetry;
  private ActorSystem system;
  private ActorRef[] pingers;
  private int inFlight;

  /** @param telemetry whether the system runs with {@code troupe.telemetry.enabled = on} */
  TroupePingPong(boolean telemetry) {
    this.telemetry = telemetry;
  }

  @Override
  public void setup(int pairs, int throughput, int inFlight) {
    this.inFlight = inFlight;
    String hocon = Dispatchers.section(Impl.TROUPE, throughput);
    if (telemetry) {
      hocon += "\ntroupe.telemetry.enabled = on\n";
    }
    system = TroupeSystems.start(Names.unique("pingpong"), hocon);
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
    done.await("troupe ping-pong");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Pinger extends UntypedActor {
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
}
