package dev.troupe.bench.latency;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.Observability;
import dev.troupe.bench.common.PingPongMessages.Ping;
import dev.troupe.bench.common.PingPongMessages.Pong;
import dev.troupe.bench.common.PingPongMessages.TimedStart;
import dev.troupe.bench.common.TroupeSystems;
import org.HdrHistogram.Histogram;

/** Troupe side of {@code RoundTripLatency}; mirrors {@link PekkoLatency} line by line. */
final class TroupeLatency implements LatencyDriver {
  /** The {@code impl} spelling of {@code troupe-idle5} with tracing installed, no span current. */
  static final String WITH_TRACING = "troupe-tracing";

  private final String config;
  private final boolean tracing;
  private ActorSystem system;
  private Observability observability;
  private ActorRef pinger;

  TroupeLatency(int idleCpuLevel) {
    this(idleCpuLevel, false);
  }

  /**
   * @param idleCpuLevel the affinity pool's idle CPU level
   * @param tracing whether OpenTelemetry tracing is installed (and no span current)
   */
  TroupeLatency(int idleCpuLevel, boolean tracing) {
    this("affinity-pool-executor.idle-cpu-level = " + idleCpuLevel, tracing);
  }

  /** @param executorKeys HOCON for the affinity pool, inside the dispatcher section */
  TroupeLatency(String executorKeys) {
    this(executorKeys, false);
  }

  private TroupeLatency(String executorKeys, boolean tracing) {
    this.tracing = tracing;
    this.config =
        Dispatchers.section(
            Impl.TROUPE,
            Dispatchers.DEFAULT_THROUGHPUT,
            "executor = affinity-pool-executor\n" + executorKeys);
  }

  @Override
  public void setup() {
    system = TroupeSystems.start(Names.unique("latency"), config);
    if (tracing) {
      observability = Observability.tracing(system);
    }
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
    done.await("troupe round trips");
  }

  @Override
  public String systemName() {
    return system.name();
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
    if (observability != null) {
      observability.close();
    }
  }

  static final class Pinger extends UntypedActor {
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
