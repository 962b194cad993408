package dev.troupe.bench;

import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.TroupeSystems;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of a call through a closed circuit breaker shared by the benchmark's threads, Troupe's
 * against Pekko's: {@code sync} ({@code callWithSyncCircuitBreaker} of a body that returns at once),
 * {@code async} ({@code callWithCircuitBreakerCS} of a stage already complete: Troupe arms no timeout
 * for it, Pekko does) and {@code asyncPending} (a stage completed right after the call returned:
 * both arm the call's timeout on their scheduler and cancel it). Score: calls/s of all threads
 * together.
 *
 * <p>Run: {@code java -jar benchmarks.jar CircuitBreakerCall -f 2 -wi 3 -i 5 -r 1s -t 1} (and
 * {@code -t 2} or more: the threads share one breaker).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CircuitBreakerCall {
  /** troupe | pekko. */
  @Param({"troupe", "pekko"})
  public String impl;

  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Callable<String> BODY = () -> "ok";
  private static final CompletionStage<String> DONE = CompletableFuture.completedFuture("ok");
  private static final Callable<CompletionStage<String>> STAGE = () -> DONE;

  private dev.troupe.actor.ActorSystem troupe;
  private org.apache.pekko.actor.ActorSystem pekko;
  private dev.troupe.pattern.CircuitBreaker troupeBreaker;
  private org.apache.pekko.pattern.CircuitBreaker pekkoBreaker;

  @Setup(Level.Trial)
  public void setup() {
    switch (impl) {
      case "troupe" -> {
        troupe = TroupeSystems.start(Names.unique("breaker"), "");
        troupeBreaker = dev.troupe.pattern.CircuitBreaker.create(troupe.scheduler(), 5, TIMEOUT, TIMEOUT);
      }
      case "pekko" -> {
        pekko = PekkoSystems.start(Names.unique("breaker"), "");
        pekkoBreaker = org.apache.pekko.pattern.CircuitBreaker.create(pekko.scheduler(), 5, TIMEOUT, TIMEOUT);
      }
      default -> throw new IllegalArgumentException("impl is troupe or pekko, was " + impl);
    }
  }

  @TearDown(Level.Trial)
  public void teardown() {
    TroupeSystems.stop(troupe);
    PekkoSystems.stop(pekko);
  }

  @Benchmark
  public String sync() throws Exception {
    return troupeBreaker != null ? troupeBreaker.callWithSyncCircuitBreaker(BODY) : pekkoBreaker.callWithSyncCircuitBreaker(BODY);
  }

  @Benchmark
  public String asyncPending() throws Exception {
    CompletableFuture<String> answer = new CompletableFuture<>();
    Callable<CompletionStage<String>> body = () -> answer;
    CompletionStage<String> s =
        troupeBreaker != null ? troupeBreaker.callWithCircuitBreakerCS(body) : pekkoBreaker.callWithCircuitBreakerCS(body);
    answer.complete("ok"); // answered after the call returned: its timeout was armed, now cancelled
    return s.toCompletableFuture().join();
  }

  @Benchmark
  public String async() throws Exception {
    CompletionStage<String> s =
        troupeBreaker != null ? troupeBreaker.callWithCircuitBreakerCS(STAGE) : pekkoBreaker.callWithCircuitBreakerCS(STAGE);
    return s.toCompletableFuture().join();
  }
}
