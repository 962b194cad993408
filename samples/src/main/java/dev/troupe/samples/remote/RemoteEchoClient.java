package dev.troupe.samples.remote;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.samples.Flags;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Looks a remote echo up by path, sends it N messages keeping K in flight, and prints the round
 * trips' percentiles and the message rate.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar remote-echo-client \
 *     --target troupe://echo@127.0.0.1:2552/user/echo --messages 100000 --in-flight 10
 * </pre>
 *
 * This is a demo, not a benchmark: for numbers to compare, use {@code RemotePingPong} in the JMH
 * suite ({@code bench}), which runs the same exchange on Apache Pekko side by side.
 */
public final class RemoteEchoClient implements Sample {
  private static final Set<String> FLAGS =
      Set.of("target", "messages", "in-flight", "payload-bytes", "help");

  /** How long the lookup may take, and how long the client waits for a reply before giving up. */
  static final Duration PATIENCE = Duration.ofSeconds(10);

  /** Keeps {@code inFlight} messages outstanding until {@code messages} replies came back. */
  static final class Sender extends AbstractActor {
    private final ActorRef echo;
    private final Run run;
    private final byte[] payload;
    private long sent;
    private long received;

    Sender(ActorRef echo, Run run) {
      this.echo = echo;
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
      echo.tell(new EchoMessage(sent++, System.nanoTime(), payload), getSelf());
    }
  }

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
  public String name() {
    return "remote-echo-client";
  }

  @Override
  public String description() {
    return "sends N messages to a remote echo; prints round-trip percentiles and messages/s";
  }

  @Override
  public int run(String[] args, PrintStream out) throws Exception {
    Flags f;
    String target;
    int messages;
    int inFlight;
    int payloadBytes;
    try {
      f = new Flags(args, FLAGS);
      target = f.text("target", null);
      messages = f.intValue("messages", 10_000, 1);
      inFlight = f.intValue("in-flight", 1, 1);
      payloadBytes = f.intValue("payload-bytes", 100, 0);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return 2;
    }
    if (f.help()) {
      out.println(
          "remote-echo-client --target troupe://echo@127.0.0.1:2552/user/echo [--messages 10000]"
              + " [--in-flight 1] [--payload-bytes 100]");
      out.println("  --target PATH        the echo actor's full path, required (remote-echo-server prints it)");
      out.println("  --messages N         messages to send; each comes back (default 10000)");
      out.println("  --in-flight K        messages outstanding at any time (default 1)");
      out.println("  --payload-bytes B    bytes of payload in each message (default 100)");
      return 0;
    }
    if (target == null) {
      out.println("--target is required, e.g. --target troupe://echo@127.0.0.1:2552/user/echo");
      return 2;
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
      Run run = new Run(messages, inFlight, payloadBytes);
      long start = System.nanoTime();
      system.actorOf(Props.create(Sender.class, echo, run), "sender");
      if (!await(run)) {
        out.println(
            "no reply for "
                + PATIENCE.toSeconds()
                + " s: "
                + run.replies.get()
                + " of "
                + messages
                + " replies arrived");
        return 1;
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      report(run, seconds, out);
      return 0;
    } finally {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
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
