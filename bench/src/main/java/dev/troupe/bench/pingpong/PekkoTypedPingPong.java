package dev.troupe.bench.pingpong;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Pekko Typed side of {@code TypedPingPong} ({@code impl=pekko-typed}); mirrors {@link
 * TypedTroupePingPong} line by line: a classic Pekko system with Pekko's default dispatcher
 * settings (as {@code impl=pekko}), the actors spawned into it as behaviours through Pekko's {@code
 * Adapter}, on the same {@code bench-dispatcher}.
 */
final class PekkoTypedPingPong implements PingPongDriver {
  private ActorSystem system;
  private ActorRef<Msg>[] pingers;
  private int inFlight;

  /** The protocol of both actors. */
  interface Msg {}

  /** The two balls. */
  enum Ball implements Msg {
    PING,
    PONG
  }

  /** Starts an iteration at a pinger. */
  record Start(Completion done, int roundTrips, int inFlight) implements Msg {}

  /** Tells a ponger where its pongs go. */
  record Peer(ActorRef<Msg> pinger) implements Msg {}

  @Override
  @SuppressWarnings("unchecked")
  public void setup(int pairs, int throughput, int inFlight) {
    this.inFlight = inFlight;
    system = PekkoSystems.start(Names.unique("pekko-typed-pingpong"), Dispatchers.section(Impl.PEKKO, throughput));
    DispatcherSelector onBench = DispatcherSelector.fromConfig(Dispatchers.ID);
    pingers = new ActorRef[pairs];
    for (int i = 0; i < pairs; i++) {
      ActorRef<Msg> ponger = Adapter.spawnAnonymous(system, Behaviors.setup(Ponger::new), onBench);
      ActorRef<Msg> pinger =
          Adapter.spawnAnonymous(system, Behaviors.<Msg>setup(ctx -> new Pinger(ctx, ponger)), onBench);
      ponger.tell(new Peer(pinger));
      pingers[i] = pinger;
    }
  }

  @Override
  public void runIteration(int roundTripsPerPair) {
    Completion done = new Completion(pingers.length);
    Start start = new Start(done, roundTripsPerPair, inFlight);
    for (ActorRef<Msg> p : pingers) {
      p.tell(start);
    }
    done.await("pekko typed ping-pong");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Pinger extends AbstractBehavior<Msg> {
    private final ActorRef<Msg> ponger;
    private Completion done;
    private int quota;
    private int sent;
    private int received;

    Pinger(ActorContext<Msg> ctx, ActorRef<Msg> ponger) {
      super(ctx);
      this.ponger = ponger;
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessageEquals(Ball.PONG, this::onPong)
          .onMessage(Start.class, this::onStart)
          .build();
    }

    private Behavior<Msg> onPong() {
      received++;
      if (sent < quota) {
        sent++;
        ponger.tell(Ball.PING);
      } else if (received == quota) {
        done.done();
      }
      return this;
    }

    private Behavior<Msg> onStart(Start s) {
      done = s.done();
      quota = s.roundTrips();
      sent = 0;
      received = 0;
      int initial = Math.min(s.inFlight(), quota);
      for (int i = 0; i < initial; i++) {
        sent++;
        ponger.tell(Ball.PING);
      }
      return this;
    }
  }

  static final class Ponger extends AbstractBehavior<Msg> {
    private ActorRef<Msg> pinger;

    Ponger(ActorContext<Msg> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessageEquals(Ball.PING, () -> {
            pinger.tell(Ball.PONG);
            return this;
          })
          .onMessage(Peer.class, p -> {
            pinger = p.pinger();
            return this;
          })
          .build();
    }
  }
}
