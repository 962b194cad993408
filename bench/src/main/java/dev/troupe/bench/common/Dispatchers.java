package dev.troupe.bench.common;

/**
 * The HOCON body of the {@value #ID} section, per implementation. Both frameworks fall back to
 * their own {@code default-dispatcher} for every key the section does not set, so {@code troupe}
 * and {@code pekko} run on each framework's defaults unless a benchmark varies a setting.
 */
public final class Dispatchers {
  /** The dispatcher id every benchmark actor runs on, in both frameworks. */
  public static final String ID = "bench-dispatcher";

  /** Leave the framework's default throughput. */
  public static final int DEFAULT_THROUGHPUT = -1;

  private Dispatchers() {}

  /**
   * The section for one implementation.
   *
   * @param impl which implementation
   * @param throughput messages per actor per turn, or {@link #DEFAULT_THROUGHPUT}
   * @return e.g. {@code bench-dispatcher { type = Dispatcher, throughput = 5 }}
   */
  public static String section(Impl impl, int throughput) {
    return section(impl, throughput, "");
  }

  /**
   * The section for one implementation, with extra keys.
   *
   * @param impl which implementation
   * @param throughput messages per actor per turn, or {@link #DEFAULT_THROUGHPUT}
   * @param extra more HOCON inside the section (e.g. executor settings); wins over the defaults
   * @return the section
   */
  public static String section(Impl impl, int throughput, String extra) {
    StringBuilder b = new StringBuilder(ID).append(" {\n  type = Dispatcher\n");
    if (throughput != DEFAULT_THROUGHPUT) {
      if (throughput < 1) {
        throw new IllegalArgumentException("throughput must be >= 1, was " + throughput);
      }
      b.append("  throughput = ").append(throughput).append('\n');
    }
    if (impl == Impl.PEKKO_TUNED) {
      int p = Runtime.getRuntime().availableProcessors();
      b.append("  executor = fork-join-executor\n")
          .append("  fork-join-executor { parallelism-min = ")
          .append(p)
          .append(", parallelism-factor = 1.0, parallelism-max = ")
          .append(p)
          .append(" }\n");
    }
    return b.append(extra).append("\n}\n").toString();
  }
}
