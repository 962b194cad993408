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
import dev.troupe.opentelemetry.TroupeTracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/** Troupe side of {@code PingPongThroughput}; mirrors {@link PekkoPingPong} line by line. */
final class TroupePingPong implements PingPongDriver {
  /** The {@code impl} spelling of Troupe with telemetry on. */
  static final String WITH_TELEMETRY = "troupe-telemetry";

  /** Troupe with OpenTelemetry tracing installed (an SDK, every span sampled) and no span current. */
  static final String WITH_TRACING = "troupe-tracing";

  /** As {@link #WITH_TRACING}, each iteration started under a span: every message is a span. */
  static final String TRACED = "troupe-traced";

  private final boolean telemetry;
  private final String tracing; // null, WITH_TRACING or TRACED
  private SdkTracerProvider tracerProvider;
  private Tracer tracer;
  private ActorSystem system;
  private ActorRef[] pingers;
  private int inFlight;

  /** @param telemetry whether the system runs with {@code troupe.telemetry.enabled = on} */
  TroupePingPong(boolean telemetry) {
    this(telemetry, null);
  }

  /**
   * @param telemetry whether the system runs with {@code troupe.telemetry.enabled = on}
   * @param tracing null, {@link #WITH_TRACING} or {@link #TRACED}
   */
  TroupePingPong(boolean telemetry, String tracing) {
    this.telemetry = telemetry;
    this.tracing = tracing;
  }

  @Override
  public void setup(int pairs, int throughput, int inFlight) {
    this.inFlight = inFlight;
    String hocon = Dispatchers.section(Impl.TROUPE, throughput);
    if (telemetry) {
      hocon += "\ntroupe.telemetry.enabled = on\n";
    }
    system = TroupeSystems.start(Names.unique("pingpong"), hocon);
    if (tracing != null) {
      // No span processor: spans are sampled, recorded and ended, and nothing is exported, so the
      // figure is Troupe's part plus the SDK's span itself, not an exporter's.
      tracerProvider = SdkTracerProvider.builder().setSampler(Sampler.alwaysOn()).build();
      OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
      TroupeTracing.install(system, sdk);
      tracer = sdk.getTracer("bench");
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
    Span iteration = TRACED.equals(tracing) ? tracer.spanBuilder("iteration").startSpan() : null;
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
    if (tracerProvider != null) {
      tracerProvider.close();
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
