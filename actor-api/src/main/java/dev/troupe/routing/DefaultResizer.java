package dev.troupe.routing;

import java.util.List;

/**
 * A resizer that grows a pool when all routees are under pressure and shrinks it when few are,
 * within {@code [lowerBound, upperBound]}. Every {@code messagesPerResize} messages:
 *
 * <ol>
 *   <li><b>pressure</b> = the number of routees under pressure, by {@code pressureThreshold}: 0 —
 *       busy (processing) or with waiting messages; 1 — with at least one waiting message; {@code
 *       n > 1} — with an estimated {@code n} or more waiting messages (the O(1) size hint: exact for
 *       bounded mailboxes; unbounded mailboxes keep no count and estimate at most 1, so with them
 *       use 0 or 1);
 *   <li><b>ramp-up</b>: if every routee is under pressure, add {@code ceil(size * rampupRate)};
 *   <li><b>back-off</b>: if {@code pressure / size < backoffThreshold}, remove {@code ceil(size *
 *       backoffRate)} (at least one, so small pools shrink too);
 *   <li>the new size is clamped to the bounds.
 * </ol>
 *
 * A pool is only resized while messages flow: an idle pool keeps its size until the next message.
 * Immutable and thread-safe; cost per routed message: one modulo.
 */
public final class DefaultResizer implements Resizer {
  private final int lowerBound;
  private final int upperBound;
  private final int pressureThreshold;
  private final double rampupRate;
  private final double backoffThreshold;
  private final double backoffRate;
  private final int messagesPerResize;

  /**
   * A resizer with the default rates: pressure threshold 1, ramp-up rate 0.2, back-off threshold
   * 0.3, back-off rate 0.1, a check every 10 messages.
   *
   * @param lowerBound the fewest routees, at least 0
   * @param upperBound the most routees, at least {@code lowerBound} and at least 1
   * @throws IllegalArgumentException naming the parameter on a bad value
   */
  public DefaultResizer(int lowerBound, int upperBound) {
    this(lowerBound, upperBound, 1, 0.2, 0.3, 0.1, 10);
  }

  private DefaultResizer(
      int lowerBound,
      int upperBound,
      int pressureThreshold,
      double rampupRate,
      double backoffThreshold,
      double backoffRate,
      int messagesPerResize) {
    if (lowerBound < 0) {
      throw new IllegalArgumentException("lowerBound must be >= 0, was " + lowerBound);
    }
    if (upperBound < 1) {
      throw new IllegalArgumentException("upperBound must be >= 1, was " + upperBound);
    }
    if (upperBound < lowerBound) {
      throw new IllegalArgumentException(
          "upperBound must be >= lowerBound, was " + upperBound + " < " + lowerBound);
    }
    if (pressureThreshold < 0) {
      throw new IllegalArgumentException("pressureThreshold must be >= 0, was " + pressureThreshold);
    }
    if (!(rampupRate >= 0.0)) {
      throw new IllegalArgumentException("rampupRate must be >= 0, was " + rampupRate);
    }
    if (!(backoffThreshold >= 0.0 && backoffThreshold <= 1.0)) {
      throw new IllegalArgumentException("backoffThreshold must be in [0, 1], was " + backoffThreshold);
    }
    if (!(backoffRate >= 0.0)) {
      throw new IllegalArgumentException("backoffRate must be >= 0, was " + backoffRate);
    }
    if (messagesPerResize < 1) {
      throw new IllegalArgumentException("messagesPerResize must be >= 1, was " + messagesPerResize);
    }
    this.lowerBound = lowerBound;
    this.upperBound = upperBound;
    this.pressureThreshold = pressureThreshold;
    this.rampupRate = rampupRate;
    this.backoffThreshold = backoffThreshold;
    this.backoffRate = backoffRate;
    this.messagesPerResize = messagesPerResize;
  }

  /**
   * @param threshold when a routee counts as under pressure (see the class comment), at least 0
   * @return a new resizer
   */
  public DefaultResizer withPressureThreshold(int threshold) {
    return new DefaultResizer(
        lowerBound, upperBound, threshold, rampupRate, backoffThreshold, backoffRate, messagesPerResize);
  }

  /**
   * @param rate the fraction of the size added when all routees are under pressure, at least 0
   * @return a new resizer
   */
  public DefaultResizer withRampupRate(double rate) {
    return new DefaultResizer(
        lowerBound, upperBound, pressureThreshold, rate, backoffThreshold, backoffRate, messagesPerResize);
  }

  /**
   * @param threshold the fraction of routees under pressure below which the pool shrinks, in [0,
   *     1]; 0 never shrinks
   * @return a new resizer
   */
  public DefaultResizer withBackoffThreshold(double threshold) {
    return new DefaultResizer(
        lowerBound, upperBound, pressureThreshold, rampupRate, threshold, backoffRate, messagesPerResize);
  }

  /**
   * @param rate the fraction of the size removed when backing off, at least 0; 0 never shrinks
   * @return a new resizer
   */
  public DefaultResizer withBackoffRate(double rate) {
    return new DefaultResizer(
        lowerBound, upperBound, pressureThreshold, rampupRate, backoffThreshold, rate, messagesPerResize);
  }

  /**
   * @param messages how many messages between two resize checks, at least 1
   * @return a new resizer
   */
  public DefaultResizer withMessagesPerResize(int messages) {
    return new DefaultResizer(
        lowerBound, upperBound, pressureThreshold, rampupRate, backoffThreshold, backoffRate, messages);
  }

  @Override
  public boolean isTimeForResize(long messageCounter) {
    return messageCounter % messagesPerResize == 0;
  }

  @Override
  public int resize(List<RouteeLoad> routees) {
    int size = routees.size();
    int pressure = 0;
    for (RouteeLoad r : routees) {
      if (underPressure(r)) {
        pressure++;
      }
    }
    int change = rampup(pressure, size) + backoff(pressure, size);
    int proposed = size + change;
    if (proposed < lowerBound) {
      return lowerBound - size;
    }
    if (proposed > upperBound) {
      return upperBound - size;
    }
    return change;
  }

  private boolean underPressure(RouteeLoad r) {
    return switch (pressureThreshold) {
      case 0 -> r.busy() || r.hasMessages();
      case 1 -> r.hasMessages();
      default -> r.sizeHint() >= pressureThreshold;
    };
  }

  private int rampup(int pressure, int size) {
    return size == 0 || pressure < size ? 0 : (int) Math.ceil(rampupRate * size);
  }

  private int backoff(int pressure, int size) {
    if (backoffThreshold > 0.0 && backoffRate > 0.0 && size > 0 && (double) pressure / size < backoffThreshold) {
      return -(int) Math.ceil(backoffRate * size);
    }
    return 0;
  }

  /** @return the fewest routees */
  public int lowerBound() {
    return lowerBound;
  }

  /** @return the most routees */
  public int upperBound() {
    return upperBound;
  }

  /** @return the pressure threshold */
  public int pressureThreshold() {
    return pressureThreshold;
  }

  /** @return the ramp-up rate */
  public double rampupRate() {
    return rampupRate;
  }

  /** @return the back-off threshold */
  public double backoffThreshold() {
    return backoffThreshold;
  }

  /** @return the back-off rate */
  public double backoffRate() {
    return backoffRate;
  }

  /** @return messages between two checks */
  public int messagesPerResize() {
    return messagesPerResize;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DefaultResizer r
        && r.lowerBound == lowerBound
        && r.upperBound == upperBound
        && r.pressureThreshold == pressureThreshold
        && r.rampupRate == rampupRate
        && r.backoffThreshold == backoffThreshold
        && r.backoffRate == backoffRate
        && r.messagesPerResize == messagesPerResize;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        lowerBound, upperBound, pressureThreshold, rampupRate, backoffThreshold, backoffRate, messagesPerResize);
  }

  @Override
  public String toString() {
    return "DefaultResizer[" + lowerBound + ".." + upperBound
        + ", pressureThreshold=" + pressureThreshold
        + ", rampupRate=" + rampupRate
        + ", backoffThreshold=" + backoffThreshold
        + ", backoffRate=" + backoffRate
        + ", messagesPerResize=" + messagesPerResize + "]";
  }
}
