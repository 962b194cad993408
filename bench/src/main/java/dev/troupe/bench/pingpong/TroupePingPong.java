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
import dev.troupe.bench.common.Observability;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;

/** Troupe side of {@code PingPongThroughput}; mirrors {@link PekkoPingPong} line by line. */
final class TroupePingPong implements PingPongDriver {
  /** The {@code impl} spelling of Troupe with telemetry on. */
  static final String WITH_TELEMETRY = "troupe-telemetry";

  /** Troupe with OpenTelemetry tracing installed (an SDK, every span sampled) and no span current. */
  static final String WITH_TRACING = "troupe-tracing";

  /** As {@link #WITH_TRACING}, each iteration started under a span: every message is a span. */
  static final String TRACED = "troupe-traced";

  /** Troupe with telemetry on and the Micrometer binder bound (its defaults). */
  static final String WITH_MICROMETER = "troupe-micrometer";

  private final boolean telemetry;
  private final String variant; // null, WITH_TRACING, TRACED or WITH_MICROMETER
  private Observability observability;
  private ActorSystem system;
  private ActorRef[] pingers;
  private int inFlight;

  /** @param telemetry whether the system runs with {@code troupe.telemetry.enabled = on} */
  TroupePingPong(boolean telemetry) {
    this(telemetry, null);
  }

  /**
   * @param telemetry whether the system runs with {@code troupe.telemetry.enabled = on}
   * @param variant null, {@link #WITH_TRACING}, {@link #TRACED} or {@link #WITH_MICROMETER}
   */
  TroupePingPong(boolean telemetry, String variant) {
    this.telemetry = telemetry;
    this.variant = variant;
  }

  @Override
  public void setup(int pairs, int throughput, int inFlight) {
    this.inFlight = inFlight;
    String hocon = Dispatchers.section(Impl.TROUPE, throughput);
    boolean micrometer = WITH_MICROMETER.equals(variant);
    if (telemetry || micrometer) {
      hocon += Observability.TELEMETRY_ON;
    }
    system = TroupeSystems.start(Names.unique("pingpong"), hocon);
    if (micrometer) {
      observability = Observability.metrics(system);
    } else if (variant != null) {
      observability = Observability.tracing(system);
    }
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
    Span iteration = TRACED.equals(variant) ? observability.tracer().spanBuilder("iteration").startSpan() : null;
    try (Scope ignored = iteration == null ? null : iteration.makeCurrent()) {
      for (ActorRef p : pingers) {
        p.tell(start, ActorRef.noSender());
      }
    }
    done.await("troupe ping-pong");
    if (iteration != null) {
      iteration.end();
    }
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
