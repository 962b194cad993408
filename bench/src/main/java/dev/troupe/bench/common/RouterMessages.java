package dev.troupe.bench.common;

/** Messages of {@code RouterOverhead}. */
public final class RouterMessages {
  private RouterMessages() {}

  /** Tells a routee (through a Broadcast) or the direct target how many jobs to expect. */
  public record Expect(Completion done, int jobs) {}

  /** One job; allocation-free. */
  public enum Job {
    INSTANCE
  }
}
