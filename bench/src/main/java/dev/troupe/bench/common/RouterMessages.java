package dev.troupe.bench.common;

import java.util.concurrent.atomic.AtomicInteger;

/** Messages of {@code RouterOverhead}. */
public final class RouterMessages {
  private RouterMessages() {}

  /** Tells a routee (through a Broadcast) or the direct target how many jobs to expect. */
  public record Expect(Completion done, int jobs) {}

  /**
   * The balancing pool's job: one instance per invocation, sent {@code jobs} times (allocation
   * free); whichever routee takes a copy counts it down, and the one that reaches zero completes.
   */
  public record SharedJob(Completion done, AtomicInteger left) {
    /** Counts one job; the last one completes the invocation. */
    public void processed() {
      if (left.decrementAndGet() == 0) {
        done.done();
      }
    }
  }

  /** One job; allocation-free. */
  public enum Job {
    INSTANCE
  }
}
