package dev.troupe.bench;

import dev.troupe.bench.reqres.RequestResponseDriver;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Request/response, typed against classic Troupe and Pekko Typed in one run: client actors, each
 * with its own server, {@code inFlight} requests outstanding per client; every request and every
 * response a new message. {@code mode=reply-to}: the request carries the client's ref (the
 * classic client is the sender); {@code mode=ask}: the client asks from inside the actor ({@code
 * ActorContext.ask} in both typed APIs, {@code Patterns.ask} piped to itself in classic Troupe),
 * so each request also makes a temporary reply ref, a timeout and a completion. Score: requests
 * answered per second. Troupe on its defaults ({@code impl=troupe}, {@code troupe-typed}), Pekko
 * Typed on Pekko's ({@code pekko-typed}), all on a {@code bench-dispatcher} with the default
 * throughput.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar TypedRequestResponse -f 2 -wi 3 -i 5 -r
 * 1s}; goals: typed / classic Troupe at least 0.9, typed Troupe / Pekko Typed at least 3 in every
 * cell. Results of this session: {@code bench/README.md}, "Typed actors".
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TypedRequestResponse {
  /** Requests answered per invocation, split evenly over the clients. */
  public static final int REQUESTS = 1 << 16;

  /** troupe (classic actors) | troupe-typed | pekko-typed. */
  @Param({"troupe", "troupe-typed", "pekko-typed"})
  public String impl;

  /** reply-to | ask (see the class comment). */
  @Param({"reply-to", "ask"})
  public String mode;

  /** Client/server pairs; must divide {@value #REQUESTS}. */
  @Param({"1", "4"})
  public int clients;

  /** Requests outstanding per client. */
  @Param({"1", "10"})
  public int inFlight;

  private RequestResponseDriver driver;

  @Setup(Level.Trial)
  public void setup() {
    if (clients < 1 || REQUESTS % clients != 0) {
      throw new IllegalArgumentException("clients must divide " + REQUESTS + ", was " + clients);
    }
    driver = RequestResponseDriver.create(impl);
    driver.setup(clients, inFlight, RequestResponseDriver.Mode.of(mode));
  }

  @Benchmark
  @OperationsPerInvocation(REQUESTS)
  public void requestResponse() {
    driver.runIteration(REQUESTS / clients);
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
