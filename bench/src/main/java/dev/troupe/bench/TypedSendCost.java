package dev.troupe.bench;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.UntypedActor;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.TroupeSystems;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The CPU one typed message costs against one classic message, on one thread: {@link SendCost}'s
 * pinger/ponger pair on a {@code CallingThreadDispatcher}, written once as classic actors and once
 * as typed behaviours ({@code AbstractBehavior} with built cases, as in {@link TypedPingPong}), in
 * one JVM, measured in alternating windows by the thread's CPU time per message. With nothing
 * waiting for another thread and CPU time as the measure, the ratio is what the typed layer adds
 * to a message, and it holds on a machine shared with other work, where {@link TypedPaired}'s
 * wall-clock rates swing with the neighbours' load.
 *
 * <p>{@code mega} first runs messages through a few more classic actor classes and typed behaviour
 * classes (other case kinds, a functional behaviour), so that the call sites every actor of a JVM
 * shares (the cell's call of {@code onReceive}, the interpreter's call of the behaviour, a case's
 * call of its handler) have seen several classes, as in an application; {@code mono} leaves them
 * to the benchmark's own two classes.
 *
 * <p>{@code reqres} (a third argument; {@code pingpong} is the default) measures {@code
 * TypedRequestResponse}'s reply-to exchange instead: the classic client sends requests to its
 * server, which answers the sender; the typed request carries the client's ref, which the server
 * answers. Each client's behaviour lists its response case first and its start case second, as the
 * benchmark's does.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.troupe.bench.TypedSendCost mega 10          # sites rounds
 * java -cp bench/target/benchmarks.jar dev.troupe.bench.TypedSendCost mono 31 reqres   # ... exchange
 * </pre>
 *
 * Not a JMH benchmark: a {@code main} on the benchmarks jar. Prints each round's CPU ns and bytes
 * allocated per message for both, and the median and min–max of typed / classic CPU.
 */
public final class TypedSendCost {
  private static final int ROUND_TRIPS = 20_000;
  private static final long WINDOW_NANOS = 200_000_000L;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.ThreadMXBean ALLOCATION =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private TypedSendCost() {}

  /** @param args {@code mono|mega rounds [pingpong|reqres]} */
  public static void main(String[] args) {
    if (args.length < 2 || args.length > 3 || !(args[0].equals("mono") || args[0].equals("mega"))
        || (args.length == 3 && !(args[2].equals("pingpong") || args[2].equals("reqres")))) {
      System.err.println("usage: TypedSendCost mono|mega <rounds> [pingpong|reqres]");
      System.exit(2);
    }
    boolean reqres = args.length == 3 && args[2].equals("reqres");
    int rounds = Integer.parseInt(args[1]);
    ActorSystem system = TroupeSystems.start(
        Names.unique("typed-send-cost"), Dispatchers.ID + " { type = CallingThreadDispatcher }\n");
    try {
      if (args[0].equals("mega")) {
        pollute(system);
      }
      Pair classic = reqres ? classicReqRes(system) : classic(system);
      Pair typed = reqres ? typedReqRes(system) : typed(system);
      for (int i = 0; i < 10; i++) { // warm-up of both
        measure(classic);
        measure(typed);
      }
      double[] ratios = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        double[] c = measure(classic);
        double[] t = measure(typed);
        ratios[r] = t[0] / c[0];
        System.out.printf(Locale.ROOT,
            "round %d: classic %.1f ns/msg (CPU), %.1f B/msg; typed %.1f ns/msg, %.1f B/msg; typed / classic %.3f%n",
            r + 1, c[0], c[1], t[0], t[1], ratios[r]);
      }
      Arrays.sort(ratios);
      double median = rounds % 2 == 1 ? ratios[rounds / 2] : (ratios[rounds / 2 - 1] + ratios[rounds / 2]) / 2;
      System.out.printf(Locale.ROOT, "typed / classic CPU per message (%s sites, %s): median %.3f, min %.3f, max %.3f over %d rounds%n",
          args[0], reqres ? "reqres" : "pingpong", median, ratios[0], ratios[rounds - 1], rounds);
    } finally {
      TroupeSystems.stop(system);
    }
    System.exit(0);
  }

  /** Starts one run of round trips on the calling thread and waits for it. */
  private interface Pair {
    void run(Completion done, int roundTrips);
  }

  /**
   * @return CPU nanoseconds and bytes allocated by this thread per message over about one window
   *     (the bytes include one {@code Completion} and start message per run of round trips)
   */
  private static double[] measure(Pair pair) {
    long wallStart = System.nanoTime();
    long cpu = 0;
    long bytes = 0;
    long messages = 0;
    long self = Thread.currentThread().getId();
    do {
      long allocatedBefore = ALLOCATION.getThreadAllocatedBytes(self);
      Completion done = new Completion(1);
      long before = THREADS.getCurrentThreadCpuTime();
      pair.run(done, ROUND_TRIPS); // returns when every round trip is done: this thread ran them
      cpu += THREADS.getCurrentThreadCpuTime() - before;
      bytes += ALLOCATION.getThreadAllocatedBytes(self) - allocatedBefore;
      messages += 2L * ROUND_TRIPS;
      done.await("typed send-cost round trips");
    } while (System.nanoTime() - wallStart < WINDOW_NANOS);
    return new double[] {(double) cpu / messages, (double) bytes / messages};
  }

  // ------------------------------------------------------------------ classic

  /** Starts a run at a classic pinger. */
  record ClassicStart(Completion done, int roundTrips) {}

  private static Pair classic(ActorSystem system) {
    dev.troupe.actor.ActorRef ponger = system.actorOf(
        dev.troupe.actor.Props.create(ClassicPonger.class, ClassicPonger::new).withDispatcher(Dispatchers.ID));
    dev.troupe.actor.ActorRef pinger = system.actorOf(
        dev.troupe.actor.Props.create(ClassicPinger.class, () -> new ClassicPinger(ponger)).withDispatcher(Dispatchers.ID));
    return (done, n) -> pinger.tell(new ClassicStart(done, n), dev.troupe.actor.ActorRef.noSender());
  }

  static final class ClassicPinger extends UntypedActor {
    private final dev.troupe.actor.ActorRef ponger;
    private Completion done;
    private int left;

    ClassicPinger(dev.troupe.actor.ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public void onReceive(Object message) {
      if (message == Ball.PONG) {
        if (--left > 0) {
          ponger.tell(Ball.PING, getSelf());
        } else {
          done.done();
        }
      } else if (message instanceof ClassicStart s) {
        done = s.done();
        left = s.roundTrips();
        ponger.tell(Ball.PING, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class ClassicPonger extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message == Ball.PING) {
        getSender().tell(Ball.PONG, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  // ------------------------------------------------------------------ typed

  /** The typed protocol of both actors. */
  interface Msg {}

  /** The two balls (the classic side sends them too). */
  enum Ball implements Msg {
    PING,
    PONG
  }

  /** Starts a run at a typed pinger. */
  record Start(Completion done, int roundTrips) implements Msg {}

  /** Tells a ponger where its pongs go. */
  record Peer(ActorRef<Msg> pinger) implements Msg {}

  private static Pair typed(ActorSystem system) {
    Props onBench = Props.empty().withDispatcher(Dispatchers.ID);
    ActorRef<Msg> ponger = Adapter.toTyped(system.actorOf(Adapter.props(Behaviors.setup(Ponger::new), onBench)));
    ActorRef<Msg> pinger =
        Adapter.toTyped(system.actorOf(Adapter.props(Behaviors.<Msg>setup(ctx -> new Pinger(ctx, ponger)), onBench)));
    ponger.tell(new Peer(pinger));
    return (done, n) -> pinger.tell(new Start(done, n));
  }

  static final class Pinger extends AbstractBehavior<Msg> {
    private final ActorRef<Msg> ponger;
    private Completion done;
    private int left;

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
      if (--left > 0) {
        ponger.tell(Ball.PING);
      } else {
        done.done();
      }
      return this;
    }

    private Behavior<Msg> onStart(Start s) {
      done = s.done();
      left = s.roundTrips();
      ponger.tell(Ball.PING);
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

  // ------------------------------------------------------------------ request/response

  /** A classic request: the reply goes to the sender. */
  record ClassicRequest(int seq) {}

  /** A typed request: it carries where to reply. */
  record Request(int seq, ActorRef<Response> replyTo) {}

  /** The response of both. */
  record Response(int seq) implements Msg {}

  private static Pair classicReqRes(ActorSystem system) {
    dev.troupe.actor.ActorRef server = system.actorOf(
        dev.troupe.actor.Props.create(ClassicServer.class, ClassicServer::new).withDispatcher(Dispatchers.ID));
    dev.troupe.actor.ActorRef client = system.actorOf(
        dev.troupe.actor.Props.create(ClassicClient.class, () -> new ClassicClient(server)).withDispatcher(Dispatchers.ID));
    return (done, n) -> client.tell(new ClassicStart(done, n), dev.troupe.actor.ActorRef.noSender());
  }

  static final class ClassicClient extends UntypedActor {
    private final dev.troupe.actor.ActorRef server;
    private Completion done;
    private int quota;
    private int sent;

    ClassicClient(dev.troupe.actor.ActorRef server) {
      this.server = server;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Response) {
        if (sent < quota) {
          server.tell(new ClassicRequest(sent++), getSelf());
        } else {
          done.done();
        }
      } else if (message instanceof ClassicStart s) {
        done = s.done();
        quota = s.roundTrips();
        sent = 0;
        server.tell(new ClassicRequest(sent++), getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class ClassicServer extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message instanceof ClassicRequest r) {
        getSender().tell(new Response(r.seq()), getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  private static Pair typedReqRes(ActorSystem system) {
    Props onBench = Props.empty().withDispatcher(Dispatchers.ID);
    ActorRef<Request> server = Adapter.toTyped(system.actorOf(Adapter.props(Behaviors.setup(Server::new), onBench)));
    ActorRef<Msg> client =
        Adapter.toTyped(system.actorOf(Adapter.props(Behaviors.<Msg>setup(ctx -> new Client(ctx, server)), onBench)));
    return (done, n) -> client.tell(new Start(done, n));
  }

  static final class Client extends AbstractBehavior<Msg> {
    private final ActorRef<Request> server;
    private final ActorRef<Response> self;
    private Completion done;
    private int quota;
    private int sent;

    Client(ActorContext<Msg> ctx, ActorRef<Request> server) {
      super(ctx);
      this.server = server;
      this.self = ctx.getSelf().narrow();
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessage(Response.class, this::onResponse)
          .onMessage(Start.class, this::onStart)
          .build();
    }

    private Behavior<Msg> onResponse(Response r) {
      if (sent < quota) {
        server.tell(new Request(sent++, self));
      } else {
        done.done();
      }
      return this;
    }

    private Behavior<Msg> onStart(Start s) {
      done = s.done();
      quota = s.roundTrips();
      sent = 0;
      server.tell(new Request(sent++, self));
      return this;
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

  // ------------------------------------------------------------------ call-site pollution

  /** A message the polluting actors count. */
  record Noise(int n) implements Msg {}

  private static final int NOISE = 20_000;

  /** Runs messages through other actor and behaviour classes, so shared call sites see many. */
  private static void pollute(ActorSystem system) {
    dev.troupe.actor.Props[] classics = {
      dev.troupe.actor.Props.create(NoiseA.class, NoiseA::new).withDispatcher(Dispatchers.ID),
      dev.troupe.actor.Props.create(NoiseB.class, NoiseB::new).withDispatcher(Dispatchers.ID),
      dev.troupe.actor.Props.create(NoiseC.class, NoiseC::new).withDispatcher(Dispatchers.ID),
    };
    Props onBench = Props.empty().withDispatcher(Dispatchers.ID);
    Behavior<Msg> functional = Behaviors.receive(Msg.class)
        .onMessage(Noise.class, n -> Behaviors.same())
        .onMessageEquals(Ball.PING, Behaviors::same)
        .build();
    Behavior<Msg> plain = Behaviors.receiveMessage(m -> Behaviors.same());
    Behavior<Msg>[] typed = cast(new Behavior<?>[] {
      Behaviors.setup(NoiseX::new), Behaviors.setup(NoiseY::new), functional, plain,
      Behaviors.supervise(Behaviors.setup(NoiseX::new)).onFailure(RuntimeException.class,
          dev.troupe.actor.typed.SupervisorStrategy.restart()),
    });
    for (int round = 0; round < 5; round++) {
      for (dev.troupe.actor.Props p : classics) {
        dev.troupe.actor.ActorRef a = system.actorOf(p);
        for (int i = 0; i < NOISE; i++) {
          a.tell(new Noise(i), dev.troupe.actor.ActorRef.noSender());
          a.tell(Ball.PING, dev.troupe.actor.ActorRef.noSender());
        }
        system.stop(a);
      }
      for (Behavior<Msg> b : typed) {
        ActorRef<Msg> a = Adapter.toTyped(system.actorOf(Adapter.props(b, onBench)));
        for (int i = 0; i < NOISE; i++) {
          a.tell(new Noise(i));
          a.tell(Ball.PING);
        }
        system.stop(Adapter.toClassic(a));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Behavior<Msg>[] cast(Behavior<?>[] bs) {
    return (Behavior<Msg>[]) bs;
  }

  static final class NoiseA extends UntypedActor {
    private long sum;

    @Override
    public void onReceive(Object message) {
      if (message instanceof Noise n) {
        sum += n.n();
      }
    }
  }

  static final class NoiseB extends UntypedActor {
    private int count;

    @Override
    public void onReceive(Object message) {
      count++;
    }
  }

  static final class NoiseC extends UntypedActor {
    private Object last;

    @Override
    public void onReceive(Object message) {
      last = message;
    }
  }

  static final class NoiseX extends AbstractBehavior<Msg> {
    private long sum;

    NoiseX(ActorContext<Msg> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessage(Noise.class, n -> {
            sum += n.n();
            return this;
          })
          .onMessageEquals(Ball.PING, Behaviors::same)
          .build();
    }
  }

  static final class NoiseY extends AbstractBehavior<Msg> {
    private int count;

    NoiseY(ActorContext<Msg> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessage(Noise.class, n -> n.n() % 2 == 0, n -> {
            count++;
            return this;
          })
          .onAnyMessage(m -> this)
          .build();
    }
  }
}
