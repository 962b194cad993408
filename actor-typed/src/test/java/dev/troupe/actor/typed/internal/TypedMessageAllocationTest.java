package dev.troupe.actor.typed.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.UntypedActor;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A typed message allocates no more than a classic one (the rule: no per-message allocation
 * beyond the classic path). Both pairs run on a {@code CallingThreadDispatcher}, so the test's own
 * thread sends, enqueues and handles every message, and the bytes that thread allocated over many
 * round trips, divided by the messages, are what one message costs: the envelope, for both. The
 * typed pair uses the common style (an {@code AbstractBehavior} with a value case and a class case),
 * so an allocation anywhere on its path (the interpreter, the cases, the typed ref's tell, the
 * actor's bookkeeping of the returned behaviour) shows as bytes per message above classic's.
 */
class TypedMessageAllocationTest {
  private static final int ROUND_TRIPS = 20_000;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = ActorSystem.create(Behaviors.empty(), "typed-allocation",
        ConfigFactory.parseString("calling { type = CallingThreadDispatcher }"));
  }

  @AfterEach
  void stop() throws Exception {
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** The balls of both pairs. */
  enum Ball implements Msg {
    PING,
    PONG
  }

  /** The typed protocol. */
  interface Msg {}

  /** Starts a run at a pinger. */
  record Start(int roundTrips, int[] done) implements Msg {}

  /** Tells a typed ponger its pinger. */
  record Peer(ActorRef<Msg> pinger) implements Msg {}

  static final class ClassicPinger extends UntypedActor {
    private final dev.troupe.actor.ActorRef ponger;
    private int left;
    private int[] done;

    ClassicPinger(dev.troupe.actor.ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public void onReceive(Object m) {
      if (m == Ball.PONG) {
        if (--left > 0) {
          ponger.tell(Ball.PING, getSelf());
        } else {
          done[0]++;
        }
      } else if (m instanceof Start s) {
        left = s.roundTrips();
        done = s.done();
        ponger.tell(Ball.PING, getSelf());
      } else {
        unhandled(m);
      }
    }
  }

  static final class ClassicPonger extends UntypedActor {
    @Override
    public void onReceive(Object m) {
      if (m == Ball.PING) {
        getSender().tell(Ball.PONG, getSelf());
      } else {
        unhandled(m);
      }
    }
  }

  static final class Pinger extends AbstractBehavior<Msg> {
    private final ActorRef<Msg> ponger;
    private int left;
    private int[] done;

    Pinger(ActorContext<Msg> ctx, ActorRef<Msg> ponger) {
      super(ctx);
      this.ponger = ponger;
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessageEquals(Ball.PONG, () -> {
            if (--left > 0) {
              ponger.tell(Ball.PING);
            } else {
              done[0]++;
            }
            return this;
          })
          .onMessage(Start.class, s -> {
            left = s.roundTrips();
            done = s.done();
            ponger.tell(Ball.PING);
            return this;
          })
          .build();
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
            return Behaviors.same();
          })
          .build();
    }
  }

  @Test
  void aTypedMessageAllocatesNoMoreThanAClassicOne() {
    assumeTrue(THREADS.isThreadAllocatedMemorySupported(), "the VM does not count allocated bytes per thread");
    THREADS.setThreadAllocatedMemoryEnabled(true);
    dev.troupe.actor.ActorSystem classicSystem = Adapter.toClassic(system);

    dev.troupe.actor.ActorRef classicPonger = classicSystem.actorOf(
        dev.troupe.actor.Props.create(ClassicPonger.class, ClassicPonger::new).withDispatcher("calling"));
    dev.troupe.actor.ActorRef classicPinger = classicSystem.actorOf(
        dev.troupe.actor.Props.create(ClassicPinger.class, () -> new ClassicPinger(classicPonger)).withDispatcher("calling"));
    Runnable classic = () -> {
      int[] done = new int[1];
      classicPinger.tell(new Start(ROUND_TRIPS, done), dev.troupe.actor.ActorRef.noSender());
      assertEquals(1, done[0], "the calling thread ran every classic round trip before tell returned");
    };

    Props calling = Props.empty().withDispatcher("calling");
    ActorRef<Msg> ponger = Adapter.toTyped(classicSystem.actorOf(Adapter.props(Behaviors.setup(Ponger::new), calling)));
    Behavior<Msg> pingerBehavior = Behaviors.setup(ctx -> new Pinger(ctx, ponger));
    ActorRef<Msg> pinger = Adapter.toTyped(classicSystem.actorOf(Adapter.props(pingerBehavior, calling)));
    ponger.tell(new Peer(pinger));
    Runnable typed = () -> {
      int[] done = new int[1];
      pinger.tell(new Start(ROUND_TRIPS, done));
      assertEquals(1, done[0], "the calling thread ran every typed round trip before tell returned");
    };

    // The same pair as built behaviours (Behaviors.receive(...).build()), which the actor calls
    // directly as it does an AbstractBehavior, with the state in arrays the handlers capture.
    int[] left = new int[1];
    int[][] builtDone = new int[1][];
    AtomicReference<ActorRef<Msg>> builtPingerRef = new AtomicReference<>();
    ActorRef<Msg> builtPonger = Adapter.toTyped(classicSystem.actorOf(Adapter.props(
        Behaviors.receive(Msg.class)
            .onMessageEquals(Ball.PING, () -> {
              builtPingerRef.get().tell(Ball.PONG);
              return Behaviors.same();
            })
            .build(),
        calling)));
    ActorRef<Msg> builtPinger = Adapter.toTyped(classicSystem.actorOf(Adapter.props(
        Behaviors.receive(Msg.class)
            .onMessageEquals(Ball.PONG, () -> {
              if (--left[0] > 0) {
                builtPonger.tell(Ball.PING);
              } else {
                builtDone[0][0]++;
              }
              return Behaviors.same();
            })
            .onMessage(Start.class, st -> {
              left[0] = st.roundTrips();
              builtDone[0] = st.done();
              builtPonger.tell(Ball.PING);
              return Behaviors.same();
            })
            .build(),
        calling)));
    builtPingerRef.set(builtPinger);
    Runnable built = () -> {
      int[] done = new int[1];
      builtPinger.tell(new Start(ROUND_TRIPS, done));
      assertEquals(1, done[0], "the calling thread ran every built round trip before tell returned");
    };

    for (int i = 0; i < 5; i++) { // the first runs load and initialise classes
      classic.run();
      typed.run();
      built.run();
    }
    double classicBytes = bytesPerMessage(classic);
    double typedBytes = bytesPerMessage(typed);
    double builtBytes = bytesPerMessage(built);
    // One run allocates, besides its messages, a start message and its array: well under a byte
    // per message over 40,000 messages.
    assertTrue(typedBytes <= classicBytes + 0.5,
        "a typed message allocated " + typedBytes + " bytes, a classic one " + classicBytes);
    assertTrue(builtBytes <= classicBytes + 0.5,
        "a message to a built behaviour allocated " + builtBytes + " bytes, a classic one " + classicBytes);
  }

  /** A request of the classic pair: the reply goes to the sender. */
  record ClassicRequest(int seq) {}

  /** A request of the typed pair: it carries where to reply. */
  record Request(int seq, ActorRef<Response> replyTo) {}

  /** The response of both pairs. */
  record Response(int seq) implements Msg {}

  static final class ClassicClient extends UntypedActor {
    private final dev.troupe.actor.ActorRef server;
    private int left;
    private int[] done;

    ClassicClient(dev.troupe.actor.ActorRef server) {
      this.server = server;
    }

    @Override
    public void onReceive(Object m) {
      if (m instanceof Response r) {
        if (--left > 0) {
          server.tell(new ClassicRequest(r.seq() + 1), getSelf());
        } else {
          done[0]++;
        }
      } else if (m instanceof Start s) {
        left = s.roundTrips();
        done = s.done();
        server.tell(new ClassicRequest(0), getSelf());
      } else {
        unhandled(m);
      }
    }
  }

  static final class ClassicServer extends UntypedActor {
    @Override
    public void onReceive(Object m) {
      if (m instanceof ClassicRequest r) {
        getSender().tell(new Response(r.seq()), getSelf());
      } else {
        unhandled(m);
      }
    }
  }

  /** Asks for its own ref on every request, as handlers commonly do: the ref must cost nothing. */
  static final class Client extends AbstractBehavior<Msg> {
    private final ActorRef<Request> server;
    private int left;
    private int[] done;

    Client(ActorContext<Msg> ctx, ActorRef<Request> server) {
      super(ctx);
      this.server = server;
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessage(Response.class, r -> {
            if (--left > 0) {
              server.tell(new Request(r.seq() + 1, getContext().getSelf().narrow()));
            } else {
              done[0]++;
            }
            return this;
          })
          .onMessage(Start.class, s -> {
            left = s.roundTrips();
            done = s.done();
            server.tell(new Request(0, getContext().getSelf().narrow()));
            return this;
          })
          .build();
    }
  }

  static final class Server extends AbstractBehavior<Request> {
    Server(ActorContext<Request> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Request> createReceive() {
      return newReceiveBuilder()
          .onMessage(Request.class, r -> {
            r.replyTo().tell(new Response(r.seq()));
            return this;
          })
          .build();
    }
  }

  /**
   * Request/response with a reply-to ref (issue 33's {@code TypedRequestResponse}): the typed
   * request carries the client's ref where the classic one relies on the envelope's sender, so it
   * has one field more (8 bytes with its padding), and nothing else may be allocated per request:
   * not a typed view of the client's ref per {@code getSelf()}, nor anything on the reply's way.
   */
  @Test
  void aTypedReplyToRequestAllocatesAtMostItsRefFieldMoreThanAClassicOne() {
    assumeTrue(THREADS.isThreadAllocatedMemorySupported(), "the VM does not count allocated bytes per thread");
    THREADS.setThreadAllocatedMemoryEnabled(true);
    dev.troupe.actor.ActorSystem classicSystem = Adapter.toClassic(system);

    dev.troupe.actor.ActorRef classicServer = classicSystem.actorOf(
        dev.troupe.actor.Props.create(ClassicServer.class, ClassicServer::new).withDispatcher("calling"));
    dev.troupe.actor.ActorRef classicClient = classicSystem.actorOf(
        dev.troupe.actor.Props.create(ClassicClient.class, () -> new ClassicClient(classicServer)).withDispatcher("calling"));
    Runnable classic = () -> {
      int[] done = new int[1];
      classicClient.tell(new Start(ROUND_TRIPS, done), dev.troupe.actor.ActorRef.noSender());
      assertEquals(1, done[0], "the calling thread ran every classic request before tell returned");
    };

    Props calling = Props.empty().withDispatcher("calling");
    ActorRef<Request> server = Adapter.toTyped(classicSystem.actorOf(Adapter.props(Behaviors.setup(Server::new), calling)));
    ActorRef<Msg> client = Adapter.toTyped(
        classicSystem.actorOf(Adapter.props(Behaviors.<Msg>setup(ctx -> new Client(ctx, server)), calling)));
    Runnable typed = () -> {
      int[] done = new int[1];
      client.tell(new Start(ROUND_TRIPS, done));
      assertEquals(1, done[0], "the calling thread ran every typed request before tell returned");
    };

    for (int i = 0; i < 5; i++) { // the first runs load and initialise classes
      classic.run();
      typed.run();
    }
    // bytesPerMessage counts two messages per round trip: a request and its response.
    double classicBytes = 2 * bytesPerMessage(classic);
    double typedBytes = 2 * bytesPerMessage(typed);
    assertTrue(typedBytes <= classicBytes + 8 + 0.5,
        "a typed reply-to request and its response allocated " + typedBytes + " bytes, a classic pair " + classicBytes
            + " (the typed request's reply-to field explains 8 bytes more)");
  }

  private static double bytesPerMessage(Runnable run) {
    long self = Thread.currentThread().getId();
    long before = THREADS.getThreadAllocatedBytes(self);
    for (int i = 0; i < 5; i++) {
      run.run();
    }
    return (double) (THREADS.getThreadAllocatedBytes(self) - before) / (5.0 * 2 * ROUND_TRIPS);
  }
}
