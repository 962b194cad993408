package dev.troupe.bench.latency;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.PingPongMessages.Ping;
import dev.troupe.bench.common.PingPongMessages.Pong;
import dev.troupe.bench.common.PingPongMessages.TimedStart;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code RoundTripLatency}; mirrors {@link TroupeLatency} line by line. */
final class PekkoLatency implements LatencyDriver {
  private final String config;
  private ActorSystem system;
  private ActorRef pinger;

  PekkoLatency(Impl impl) {
    this.config = Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT);
  }

  @Override
  public void setup() {
    system = PekkoSystems.start(Names.unique("latency"), config);
    ActorRef ponger =
        system.actorOf(Props.create(Ponger.class, Ponger::new).withDispatcher(Dispatchers.ID));
    pinger =
        system.actorOf(
            Props.create(Pinger.class, () -> new Pinger(ponger)).withDispatcher(Dispatchers.ID));
  }

  @Override
  public void runIteration(int roundTrips, Histogram histogram) {
    Completion done = new Completion(1);
    pinger.tell(new TimedStart(done, roundTrips, histogram), ActorRef.noSender());
    done.await("pekko round trips");
  }

  @Override
  public String systemName() {
    return system.name();
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Pinger extends UntypedAbstractActor {
    private final ActorRef ponger;
    private Completion done;
    private Histogram histogram;
    private int remaining;
    private long sentAt;

    Pinger(ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public void onReceive(Object message) {
      if (message == Pong.INSTANCE) {
        histogram.recordValue(System.nanoTime() - sentAt);
        if (--remaining > 0) {
          sentAt = System.nanoTime();
          ponger.tell(Ping.INSTANCE, getSelf());
        } else {
          done.done();
        }
      } else if (message instanceof TimedStart s) {
        done = s.done();
        histogram = s.histogram();
        remaining = s.roundTrips();
        sentAt = System.nanoTime();
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
}
