package dev.troupe.bench.common;

/**
 * The per-message computation of Savina's fork-join benchmarks ({@code fjthr}, {@code fjcreate}).
 */
public final class Work {
  /** The angle Savina uses. */
  public static final double THETA = 37.2;

  private Work() {}

  /**
   * sin²(theta), checked so the JIT cannot drop it.
   *
   * @param theta the angle
   */
  public static void compute(double theta) {
    double sin = Math.sin(theta);
    double res = sin * sin;
    if (res <= 0) {
      throw new IllegalStateException("unrealistic result " + res);
    }
  }
}
