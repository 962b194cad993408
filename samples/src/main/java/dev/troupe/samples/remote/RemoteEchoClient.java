package dev.troupe.samples.remote;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Looks a remote echo up by path, sends it N messages keeping K in flight, and prints the round
 * trips' percentiles and the message rate. With {@code --deploy W} it instead creates W echo actors
 * on the server's node — deployed there by its configuration, a {@code "/workers/*"} section with
 * {@code remote = <server>} — prints their {@code /remote/…} paths and sends the messages to them in
 * turn; they stop when the client does.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar remote-echo-client \
 *     --target troupe://echo@127.0.0.1:2552/user/echo --messages 100000 --in-flight 10
 * java -jar samples/target/troupe-samples.jar remote-echo-client \
 *     --target troupe://echo@127.0.0.1:2552 --deploy 3
 * </pre>
 *
 * This is a demo, not a benchmark: for numbers to compare, use {@code RemotePingPong} in the JMH
 * suite ({@code bench}), which runs the same exchange on Apache Pekko side by side.
 */
@Command(
    name = "remote-echo-client",
    description = "sends N messages to a remote echo; prints round-trip percentiles and messages/s")
public final class RemoteEchoClient extends Sample {
  // Not picocli's required = true: that error would hide an unknown option's (see run).
  @Option(names = "--target", paramLabel = "PATH",
      description = "the echo actor's full path, required (no default): remote-echo-server prints it;"
          + " with --deploy the node's address")
  private String target;

  @Option(names = "--messages", paramLabel = "N", description = "messages to send; each comes back (default ${DEFAULT-VALUE})")
  private int messages = 10_000;

  @Option(names = "--in-flight", paramLabel = "K", description = "messages outstanding at any time (default ${DEFAULT-VALUE})")
  private int inFlight = 1;

  @Option(names = "--payload-bytes", paramLabel = "B", description = "bytes of payload in each message (default ${DEFAULT-VALUE})")
  private int payloadBytes = 100;

  @Option(names = "--deploy", paramLabel = "W",
      description = "deploy W echo actors onto the target's node (by configuration) and send to them instead;"
          + " 0 = none (default ${DEFAULT-VALUE})")
  private int deploy;

  @Option(names = "--watch", paramLabel = "S",
      description = "then watch the echoes up to S seconds and print when and how their node is lost (kill the server);"
          + " 0 = not at all (default ${DEFAULT-VALUE})")
  private int watch;

  /** How long the lookup may take, and how long the client waits for a reply before giving up. */
  static final Duration PATIENCE = Duration.ofSeconds(10);

  /**
   * {@code --watch}: after the exchange, watches the echoes and pings them every 200 ms; when one
   * terminates (its node left, or the failure detector gave up on it after the server was killed)
   * prints how long after the last reply that was noticed, and completes {@code gone}.
   */
  static final class Watcher extends AbstractActor {
    private final ActorRef[] echoes;
    private final PrintStream out;
    private final CompletableFuture<Void> gone;
    private long lastReplyNanos = System.nanoTime();
    private long seq;
    private dev.troupe.actor.Cancellable pings;

    Watcher(ActorRef[] echoes, PrintStream out, CompletableFuture<Void> gone) {
      this.echoes = echoes;
      this.out = out;
      this.gone = gone;
    }

    @Override
    public void preStart() {
      for (ActorRef e : echoes) {
        getContext().watch(e);
      }
      pings = getContext().system().scheduler()
          .scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(200), getSelf(), "ping", getContext().dispatcher(), getSelf());
    }

    @Override
    public void postStop() {
      if (pings != null) {
        pings.cancel();
      }
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("ping", p -> {
            for (ActorRef e : echoes) {
              e.tell(new EchoMessage(seq++, System.nanoTime(), new byte[0]), getSelf());
            }
          })
          .match(EchoMessage.class, m -> lastReplyNanos = System.nanoTime())
          .match(Terminated.class, t -> {
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastReplyNanos);
            out.println(
                "lost " + t.actor().path() + (t.addressTerminated() ? ": its node is gone" : ": it stopped")
                    + ", noticed " + ms + " ms after its last reply"
                    + (t.addressTerminated() && ms > 1000 ? " (the failure detector's verdict)" : ""));
            gone.complete(null);
            getContext().stop(getSelf());
          })
          .build();
    }
  }

  /**
   * Keeps {@code inFlight} messages outstanding until {@code messages} replies came back, sending to
   * the echoes in turn.
   */
  static final class Sender extends AbstractActor {
    private final ActorRef[] echoes;
    private final Run run;
    private final byte[] payload;
    private long sent;
    private long received;

    Sender(ActorRef[] echoes, Run run) {
      this.echoes = echoes;
      this.run = run;
      this.payload = new byte[run.payloadBytes];
    }

    @Override
    public void preStart() {
      long initial = Math.min(run.inFlight, run.messages);
      for (long i = 0; i < initial; i++) {
        sendNext();
      }
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(
              EchoMessage.class,
              m -> {
                run.roundTrips.recordValue(System.nanoTime() - m.sentAtNanos());
                run.replies.lazySet(++received);
                if (sent < run.messages) {
                  sendNext();
                } else if (received == run.messages) {
                  run.done.complete(null);
                }
              })
          .build();
    }

    private void sendNext() {
      ActorRef echo = echoes[(int) (sent % echoes.length)];
      echo.tell(new EchoMessage(sent++, System.nanoTime(), payload), getSelf());
    }
  }

  /**
   * {@code /user/workers}: creates its children {@code w1..wN} from plain props (the configuration
   * deploys them onto the server, {@code "/workers/*"}), watches them and pings each. Answers
   * "children", once every child answered or terminated (its deployment refused), with {@link
   * Deployed}.
   */
  static final class Workers extends AbstractActor {
    private final List<ActorRef> children = new ArrayList<>();
    private final List<ActorRef> ready = new ArrayList<>();
    private final List<ActorRef> refused = new ArrayList<>();
    private ActorRef asker;

    Workers(Integer count) {
      for (int i = 1; i <= count; i++) {
        ActorRef w = getContext().actorOf(Props.create(RemoteEchoServer.Echo.class), "w" + i);
        getContext().watch(w);
        w.tell(new EchoMessage(-1, System.nanoTime(), new byte[0]), getSelf());
        children.add(w);
      }
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(EchoMessage.class, m -> settled(ready))
          .match(Terminated.class, t -> {
            ready.remove(t.actor());
            refused.add(t.actor());
            answer();
          })
          .matchEquals("children", m -> {
            asker = getSender();
            answer();
          })
          .build();
    }

    private void settled(List<ActorRef> list) {
      list.add(getSender());
      answer();
    }

    private void answer() {
      if (asker != null && ready.size() + refused.size() >= children.size()) {
        asker.tell(new Deployed(List.copyOf(children), List.copyOf(refused)), getSelf());
        asker = null;
      }
    }
  }

  /** The workers, and those of them whose deployment was refused. */
  record Deployed(List<ActorRef> workers, List<ActorRef> refused) {}

  /** One run's settings and results; the histogram is written by the sender only. */
  static final class Run {
    final long messages;
    final int inFlight;
    final int payloadBytes;
    final Histogram roundTrips = new Histogram(3); // auto-resizing, nanoseconds
    final AtomicLong replies = new AtomicLong();
    final CompletableFuture<Void> done = new CompletableFuture<>();

    Run(long messages, int inFlight, int payloadBytes) {
      this.messages = messages;
      this.inFlight = inFlight;
      this.payloadBytes = payloadBytes;
    }
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    if (target == null) {
      throw usageError("--target is required, e.g. --target troupe://echo@127.0.0.1:2552/user/echo");
    }
    atLeast("--messages", messages, 1);
    atLeast("--in-flight", inFlight, 1);
    atLeast("--payload-bytes", payloadBytes, 0);
    atLeast("--deploy", deploy, 0);
    atLeast("--watch", watch, 0);
    if (deploy > 0) {
      return deployAndRun(target, deploy, new Run(messages, inFlight, payloadBytes), watch, out);
    }
    ActorSystem system = ActorSystem.create("echo-client", RemoteEcho.node("127.0.0.1", 0));
    try {
      ActorRef echo;
      try {
        echo = system.actorSelection(target).resolveOne(PATIENCE).toCompletableFuture().get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof ActorNotFound) {
          out.println("no actor at " + target + " (is remote-echo-server running there?)");
          return 1;
        }
        throw e;
      } catch (IllegalArgumentException e) {
        out.println("--target: " + e.getMessage());
        return 2;
      }
      out.println("found " + echo.path() + " from " + system.address());
      return exchange(system, new ActorRef[] {echo}, new Run(messages, inFlight, payloadBytes), watch, out);
    } finally {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /**
   * {@code --deploy}: a client whose configuration deploys {@code /user/workers/*} onto the node of
   * {@code target}; creates {@code count} workers there, prints their paths, runs the exchange.
   */
  private static int deployAndRun(String target, int count, Run run, int watch, PrintStream out) throws Exception {
    Address node;
    try {
      node = target.indexOf('/', "troupe://".length()) < 0 ? Address.parse(target) : ActorPath.fromString(target).address();
    } catch (IllegalArgumentException e) {
      out.println("--target: " + e.getMessage());
      return 2;
    }
    Config deployment =
        ConfigFactory.parseString("troupe.actor.deployment { \"/workers/*\" { remote = \"" + node + "\" } }");
    ActorSystem system =
        ActorSystem.create("echo-client", deployment.withFallback(RemoteEcho.node("127.0.0.1", 0)));
    try {
      ActorRef workers = system.actorOf(Props.create(Workers.class, count), "workers");
      Deployed d = (Deployed) Patterns.ask(workers, "children", PATIENCE).toCompletableFuture().get();
      if (!d.refused().isEmpty()) {
        out.println("the deployment of " + d.refused().get(0).path().name() + " onto " + node + " was refused"
            + " (the client's log says why): is remote-echo-server running there, and does it allow it?");
        return 1;
      }
      List<ActorRef> children = d.workers();
      for (ActorRef w : children) {
        out.println("deployed " + w.path().name() + " on " + node + ": " + w.path());
      }
      return exchange(system, children.toArray(new ActorRef[0]), run, watch, out);
    } finally {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /** Runs the exchange with {@code echoes} and prints the report; the exit code. */
  private static int exchange(ActorSystem system, ActorRef[] echoes, Run run, int watch, PrintStream out)
      throws Exception {
    long start = System.nanoTime();
    system.actorOf(Props.create(Sender.class, echoes, run), "sender");
    if (!await(run)) {
      out.println(
          "no reply for " + PATIENCE.toSeconds() + " s: " + run.replies.get() + " of " + run.messages
              + " replies arrived");
      return 1;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    report(run, seconds, out);
    if (watch > 0) {
      CompletableFuture<Void> gone = new CompletableFuture<>();
      system.actorOf(Props.create(Watcher.class, echoes, out, gone), "watcher");
      out.println("watching " + echoes.length + " echo actor(s) for up to " + watch + " s (stop or kill the server)");
      out.flush();
      try {
        gone.get(watch, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        out.println("the server is still there after " + watch + " s");
      }
    }
    return 0;
  }

  /** Waits for all replies; false when none arrived for {@link #PATIENCE}. */
  private static boolean await(Run run) throws InterruptedException, ExecutionException {
    long seen = -1;
    long lastProgress = System.nanoTime();
    while (true) {
      try {
        run.done.get(100, TimeUnit.MILLISECONDS);
        return true;
      } catch (TimeoutException e) {
        long now = System.nanoTime();
        long replies = run.replies.get();
        if (replies != seen) {
          seen = replies;
          lastProgress = now;
        } else if (now - lastProgress > PATIENCE.toNanos()) {
          return false;
        }
      }
    }
  }

  private static void report(Run run, double seconds, PrintStream out) {
    Histogram h = run.roundTrips;
    out.printf(
        "%d replies of %d bytes, %d in flight, in %.2f s: %,.0f messages/s (both directions)%n",
        h.getTotalCount(), run.payloadBytes, run.inFlight, seconds, 2 * run.messages / seconds);
    out.printf(
        "round trip (us): p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f%n",
        us(h.getValueAtPercentile(50)),
        us(h.getValueAtPercentile(90)),
        us(h.getValueAtPercentile(99)),
        us(h.getValueAtPercentile(99.9)),
        us(h.getMaxValue()));
  }

  private static double us(long nanos) {
    return nanos / 1000.0;
  }
}
