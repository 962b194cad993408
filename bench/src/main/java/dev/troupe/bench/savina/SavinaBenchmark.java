package dev.troupe.bench.savina;

import dev.troupe.bench.common.Impl;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The JMH state shared by the Savina benchmarks: the {@code impl} parameter, one driver per trial
 * (a fresh actor system), and its teardown. A subclass names its drivers and its setup size and
 * declares the {@code @Benchmark} method with its own operations per invocation.
 */
@State(Scope.Benchmark)
public abstract class SavinaBenchmark {
  /** troupe | pekko | pekko-tuned (see {@link Impl}). */
  @Param({"troupe", "pekko", "pekko-tuned"})
  public String impl;

  /** The driver of the current trial. */
  protected SavinaDriver driver;

  /** @return the Troupe driver */
  protected abstract SavinaDriver troupe();

  /**
   * @param pekko {@code pekko} or {@code pekko-tuned}
   * @return the Pekko driver
   */
  protected abstract SavinaDriver pekko(Impl pekko);

  /** @return the argument of {@link SavinaDriver#setup(int)} */
  protected abstract int setupSize();

  /** Starts the trial's system. */
  @Setup(Level.Trial)
  public void setup() {
    Impl i = Impl.of(impl);
    driver = i == Impl.TROUPE ? troupe() : pekko(i);
    driver.setup(setupSize());
  }

  /** Terminates the trial's system. */
  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
