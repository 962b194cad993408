package dev.troupe.remote.internal.transport;

import org.slf4j.Logger;

/**
 * Warnings of one kind that a peer (or a flood of messages) can cause many times a second: at
 * most {@code burst} lines per interval, then one line saying how many were left out.
 */
public final class RateLimitedLog {
  private final Logger log;
  private final long intervalNanos;
  private final int burst;
  private long windowStart;
  private int inWindow;
  private long suppressed;

  public RateLimitedLog(Logger log, long intervalNanos, int burst) {
    this.log = log;
    this.intervalNanos = intervalNanos;
    this.burst = burst;
    this.windowStart = System.nanoTime() - intervalNanos;
  }

  /** @return the logger, for lines that come once per event (not per message or per bad frame) */
  public Logger logger() {
    return log;
  }

  /**
   * Logs at WARN unless this interval's lines are used up.
   *
   * @param format an slf4j format
   * @param args its arguments (a last Throwable is logged with its stack)
   */
  public void warn(String format, Object... args) {
    if (!log.isWarnEnabled()) {
      return;
    }
    long left;
    synchronized (this) {
      long now = System.nanoTime();
      if (now - windowStart >= intervalNanos) {
        left = suppressed;
        suppressed = 0;
        windowStart = now;
        inWindow = 0;
      } else {
        left = 0;
      }
      if (inWindow >= burst) {
        suppressed++;
        return;
      }
      inWindow++;
    }
    if (left > 0) {
      log.warn("{} similar warnings were left out in the last {} ms", left, intervalNanos / 1_000_000);
    }
    log.warn(format, args);
  }
}
