package dev.troupe.bench.remote;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.RemoteMessages.Ping;
import dev.troupe.bench.common.RemoteMessages.Pong;
import dev.troupe.bench.common.RemoteMessages.RemoteStart;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code RemotePingPong}; mirrors {@link TroupeRemotePingPong} line by line. */
final class PekkoRemotePingPong implements RemotePingPongDriver {
  /**
   * Artery TCP with its defaults, on loopback and an ephemeral port; the messages on Pekko's own
   * jackson-cbor serializer ({@code pekko-serialization-jackson}). Nothing else is tuned.
   */
  static final String REMOTE =
      "pekko.actor.provider = remote\n"
          + "pekko.remote.artery.transport = tcp\n"
          + "pekko.remote.artery.canonical.hostname = \"127.0.0.1\"\n"
          + "pekko.remote.artery.canonical.port = 0\n"
          // Only a log line at start ("use cluster rather than remote directly").
          + "pekko.remote.warn-about-direct-use = off\n"
          + "pekko.actor.serialization-bindings { " + RemoteMessages.WIRE_BINDING + " }\n";

  private ActorSystem pingSystem;
  private ActorSystem pongSystem;
  private ActorRef[] pingers;
  private int inFlight;
  private final Impl impl;
  private final boolean childJvm;
  private PongNode child;

  PekkoRemotePingPong(Impl impl, boolean childJvm) {
    this.impl = impl;
    this.childJvm = childJvm;
  }

  @Override
  public void setup(int pairs, int inFlight) {
    this.inFlight = inFlight;
    String config = REMOTE + Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT);
    String pongAddress;
    if (childJvm) {
      child = PongNode.start(impl.id(), pairs);
      pongAddress = child.address();
    } else {
      pongSystem = PekkoSystems.start(Names.unique("remote-pong"), config);
      pongAddress = address(pongSystem);
    }
    pingSystem = PekkoSystems.start(Names.unique("remote-ping"), config);
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

  /** Pekko's {@code system.address()}: the provider's address, with the bound port. */
  private static String address(ActorSystem system) {
    return ((ExtendedActorSystem) system).provider().getDefaultAddress().toString();
  }

  private ActorRef lookup(String path) {
    try {
      return pingSystem
          .actorSelection(path)
          .resolveOne(Duration.ofSeconds(10))
          .toCompletableFuture()
          .get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("pekko: cannot resolve " + path, e);
    }
  }

  @Override
  public void runIteration(int roundTripsPerPair, Histogram[] histograms) {
    Completion done = new Completion(pingers.length);
    for (int i = 0; i < pingers.length; i++) {
      pingers[i].tell(
          new RemoteStart(done, roundTripsPerPair, inFlight, histograms[i]), ActorRef.noSender());
    }
    done.await("pekko remote ping-pong");
  }

  @Override
  public long childPid() {
    return child == null ? -1 : child.pid();
  }

  @Override
  public void teardown() {
    try {
      PekkoSystems.stop(pingSystem);
    } finally {
      PekkoSystems.stop(pongSystem);
      if (child != null) {
        child.stop();
      }
    }
  }

  static final class Pinger extends UntypedAbstractActor {
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

  static final class Ponger extends UntypedAbstractActor {
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
