package dev.troupe.bench.remote;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.Observability;
import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.RemoteMessages.Ping;
import dev.troupe.bench.common.RemoteMessages.Pong;
import dev.troupe.bench.common.RemoteMessages.RemoteStart;
import dev.troupe.bench.common.TroupeSystems;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** Troupe side of {@code RemotePingPong}; mirrors {@link PekkoRemotePingPong} line by line. */
final class TroupeRemotePingPong implements RemotePingPongDriver {
  /** Remoting with its defaults, on loopback and an ephemeral port; the messages on jackson-cbor. */
  static final String REMOTE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n"
          + "troupe.serialization.bindings { " + RemoteMessages.WIRE_BINDING + " }\n";

  private final boolean micrometer;
  private final boolean childJvm;
  private final String inboundLanes;
  private final String transport;
  private PongNode child;
  private ActorSystem pingSystem;
  private ActorSystem pongSystem;
  private Observability pingMetrics;
  private Observability pongMetrics;
  private ActorRef[] pingers;
  private int inFlight;

  /**
   * @param micrometer whether both systems run with telemetry on and the Micrometer binder bound
   * @param childJvm whether the pong system runs in a child JVM
   * @param inboundLanes {@code troupe.remote.advanced.inbound-lanes} of both systems
   * @param transport {@code troupe.remote.advanced.transport} of both systems
   */
  TroupeRemotePingPong(boolean micrometer, boolean childJvm, String inboundLanes, String transport) {
    this.micrometer = micrometer;
    this.childJvm = childJvm;
    this.inboundLanes = inboundLanes;
    this.transport = transport;
  }

  /** @return the configuration of a system of this benchmark with {@code inboundLanes} and {@code transport} */
  static String config(String inboundLanes, String transport) {
    return REMOTE
        + "troupe.remote.advanced.inbound-lanes = \"" + inboundLanes + "\"\n"
        + "troupe.remote.advanced.transport = \"" + transport + "\"\n"
        + Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT);
  }

  @Override
  public void setup(int pairs, int inFlight) {
    this.inFlight = inFlight;
    String config = config(inboundLanes, transport);
    if (micrometer) {
      config += Observability.TELEMETRY_ON;
    }
    String pongAddress;
    if (childJvm) {
      child = PongNode.start("troupe", pairs, inboundLanes, transport);
      pongAddress = child.address();
    } else {
      pongSystem = TroupeSystems.start(Names.unique("remote-pong"), config);
      pongAddress = pongSystem.address().toString();
    }
    pingSystem = TroupeSystems.start(Names.unique("remote-ping"), config);
    if (micrometer) {
      pongMetrics = Observability.metrics(pongSystem);
      pingMetrics = Observability.metrics(pingSystem);
    }
    pingers = new ActorRef[pairs];
    for (int i = 0; i < pairs; i++) {
      if (pongSystem != null) {
        pongSystem.actorOf(
            Props.create(Ponger.class, Ponger::new).withDispatcher(Dispatchers.ID), "ponger-" + i);
      }
      ActorRef ponger = lookup(pongAddress + "/user/ponger-" + i);
      pingers[i] =
          pingSystem.actorOf(
              Props.create(Pinger.class, () -> new Pinger(ponger)).withDispatcher(Dispatchers.ID));
    }
  }

  private ActorRef lookup(String path) {
    try {
      return pingSystem
          .actorSelection(path)
          .resolveOne(Duration.ofSeconds(10))
          .toCompletableFuture()
          .get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("troupe: cannot resolve " + path, e);
    }
  }

  @Override
  public void runIteration(int roundTripsPerPair, Histogram[] histograms) {
    Completion done = new Completion(pingers.length);
    for (int i = 0; i < pingers.length; i++) {
      pingers[i].tell(
          new RemoteStart(done, roundTripsPerPair, inFlight, histograms[i]), ActorRef.noSender());
    }
    done.await("troupe remote ping-pong");
  }

  @Override
  public long childPid() {
    return child == null ? -1 : child.pid();
  }

  @Override
  public void teardown() {
    try {
      TroupeSystems.stop(pingSystem);
    } finally {
      TroupeSystems.stop(pongSystem);
      if (child != null) {
        child.stop();
      }
      if (micrometer) {
        pingMetrics.close();
        pongMetrics.close();
      }
    }
  }

  static final class Pinger extends UntypedActor {
    private final ActorRef ponger;
    private final byte[] payload = RemoteMessages.payload();
    private Completion done;
    private Histogram histogram;
    private int quota;
    private int sent;
    private int received;

    Pinger(ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Pong p) {
        histogram.recordValue(System.nanoTime() - p.sentAt());
        received++;
        if (sent < quota) {
          sent++;
          ponger.tell(new Ping(System.nanoTime(), payload), getSelf());
        } else if (received == quota) {
          done.done();
        }
      } else if (message instanceof RemoteStart s) {
        done = s.done();
        histogram = s.histogram();
        quota = s.roundTrips();
        sent = 0;
        received = 0;
        int initial = Math.min(s.inFlight(), quota);
        for (int i = 0; i < initial; i++) {
          sent++;
          ponger.tell(new Ping(System.nanoTime(), payload), getSelf());
        }
      } else {
        unhandled(message);
      }
    }
  }

  static final class Ponger extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message instanceof Ping p) {
        getSender().tell(new Pong(p.sentAt(), p.payload()), getSelf());
      } else {
        unhandled(message);
      }
    }
  }
}
