package dev.troupe.bench.common;

/**
 * The implementations a benchmark compares, as spelled in the {@code impl} JMH parameter.
 *
 * <ul>
 *   <li>{@code troupe}: Troupe, actors on a {@code bench-dispatcher} that falls back to Troupe's
 *       {@code default-dispatcher} (affinity pool, one thread per core);
 *   <li>{@code pekko}: Apache Pekko with its default dispatcher settings (fork-join pool,
 *       parallelism-min 8, factor 1.0, max 64);
 *   <li>{@code pekko-tuned}: Pekko on a fork-join pool with exactly one thread per available
 *       processor.
 * </ul>
 *
 * Where a benchmark varies {@code throughput}, all three run with that throughput, so each row of a
 * result table compares the same setting.
 */
public enum Impl {
  TROUPE("troupe"),
  PEKKO("pekko"),
  PEKKO_TUNED("pekko-tuned");

  private final String id;

  Impl(String id) {
    this.id = id;
  }

  /**
   * @return the parameter spelling
   */
  public String id() {
    return id;
  }

  /**
   * Parses the JMH parameter.
   *
   * @param id {@code troupe}, {@code pekko} or {@code pekko-tuned}
   * @return the implementation
   * @throws IllegalArgumentException for anything else
   */
  public static Impl of(String id) {
    for (Impl i : values()) {
      if (i.id.equals(id)) {
        return i;
      }
    }
    throw new IllegalArgumentException(
        "unknown impl '" + id + "': expected troupe, pekko or pekko-tuned");
  }
}
