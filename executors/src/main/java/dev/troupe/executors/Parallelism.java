package dev.troupe.executors;

/** Sizing of thread pools from the number of available processors. */
public final class Parallelism {

  private Parallelism() {}

  /**
   * Returns {@code clamp(ceil(availableProcessors * factor), min, max)}, the rule behind the
   * {@code parallelism-min / parallelism-factor / parallelism-max} settings.
   *
   * @param min the lower bound, {@code >= 1}
   * @param factor the multiplier of the available processors, finite and {@code > 0}
   * @param max the upper bound, {@code >= min}
   * @return the parallelism
   * @throws IllegalArgumentException naming the first invalid argument
   */
  public static int scaled(int min, double factor, int max) {
    return scaled(min, factor, max, Runtime.getRuntime().availableProcessors());
  }

  static int scaled(int min, double factor, int max, int processors) {
    if (min < 1) {
      throw new IllegalArgumentException("min must be >= 1, was " + min);
    }
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("factor must be finite and > 0, was " + factor);
    }
    if (max < min) {
      throw new IllegalArgumentException("max must be >= min (" + min + "), was " + max);
    }
    double scaled = Math.ceil(processors * factor);
    return scaled >= max ? max : Math.max(min, (int) scaled);
  }
}
