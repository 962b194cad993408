package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoChameneos;
import dev.troupe.bench.savina.SavinaBenchmark;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeChameneos;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Savina "Chameneos" ({@code chameneos}): {@value #CHAMENEOS} chameneo actors (colours red, yellow,
 * blue in turn) repeatedly ask a mall actor for a meeting; the mall pairs two requests by
 * forwarding the second to the first, which takes the complementary colour and answers its partner
 * with a change message; both then ask again. After {@value #MEETINGS} meetings the mall answers
 * each request with "fade"; each chameneo reports its meeting count, and the mall checks the sum is
 * twice the meetings. Contended many-to-one messaging. Score: meetings per second (about four
 * messages each).
 *
 * <p>Sizes: Savina defaults (100 chameneos, 200,000 meetings). Chameneos are children of the mall,
 * created once per trial and reset by each invocation.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar Chameneos -f 2 -wi 3 -i 5 -r 1s}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Chameneos extends SavinaBenchmark {
  /** Chameneo actors (Savina C). */
  public static final int CHAMENEOS = 100;

  /** Meetings per invocation (Savina N). */
  public static final int MEETINGS = 200_000;

  @Override
  protected SavinaDriver troupe() {
    return new TroupeChameneos();
  }

  @Override
  protected SavinaDriver pekko(Impl pekko) {
    return new PekkoChameneos(pekko);
  }

  @Override
  protected int setupSize() {
    return CHAMENEOS;
  }

  @Benchmark
  @OperationsPerInvocation(MEETINGS)
  public void meetings() {
    driver.runIteration(MEETINGS);
  }
}
