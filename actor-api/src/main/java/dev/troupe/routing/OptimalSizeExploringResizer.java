package dev.troupe.routing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * A resizer that searches for the pool size with the best measured throughput and settles there.
 *
 * <p><b>Measuring.</b> Each time the router reports (once per {@code actionInterval}, while messages
 * flow), the resizer notes the message count, the time and the size. If the pool was <em>fully
 * utilized</em> (every routee busy or with waiting messages) over a whole interval at one size, the
 * interval's throughput (messages per second) is folded into that size's record as an exponentially
 * weighted average ({@code weightOfLatestMetric} for the new sample). Throughput is only recorded at
 * full utilization, because only then does it measure what the size can do rather than what was
 * offered.
 *
 * <p><b>Deciding</b>, once per {@code actionInterval}:
 *
 * <ol>
 *   <li>if the pool has not been fully utilized for {@code downsizeAfterUnderutilizedFor}, shrink to
 *       {@code ceil(highest busy count seen meanwhile * downsizeRatio)};
 *   <li>else, if it is fully utilized: with probability {@code explorationProbability} <em>explore</em>
 *       — move by a random step of 1 to {@code ceil(size * exploreStepSize)}, downwards with
 *       probability {@code chanceOfScalingDownWhenFull}; otherwise <em>optimize</em> — among the
 *       recorded sizes within {@code numOfAdjacentSizesToConsiderDuringOptimization / 2} of the
 *       current one, take the fastest and move half-way towards it (explore if none is recorded);
 *   <li>if it is neither, keep the size.
 * </ol>
 *
 * The result is clamped to {@code [lowerBound, upperBound]}.
 *
 * <p>Thread-safety: the settings are immutable; the measurements are per pool ({@link
 * #newPoolInstance()} gives each pool its own) and touched only on that router's thread, except
 * the time of the last action, a volatile read by {@link #isTimeForResize}. Cost per routed message:
 * one volatile read and a clock read.
 */
public final class OptimalSizeExploringResizer implements Resizer {
  private final int lowerBound;
  private final int upperBound;
  private final double chanceOfScalingDownWhenFull;
  private final Duration actionInterval;
  private final int numOfAdjacentSizesToConsiderDuringOptimization;
  private final double exploreStepSize;
  private final double downsizeRatio;
  private final Duration downsizeAfterUnderutilizedFor;
  private final double explorationProbability;
  private final double weightOfLatestMetric;
  private final LongSupplier nanoClock;
  private final Random random;

  // per-pool state: router thread only, except lastActionNanos
  private final Map<Integer, Double> throughputBySize = new TreeMap<>();
  private volatile long lastActionNanos;
  private boolean hasRecord;
  private long recordCounter;
  private long recordNanos;
  private int recordSize;
  private boolean recordFull;
  private boolean underutilized;
  private long underutilizedSinceNanos;
  private int highestBusyWhileUnderutilized;

  /**
   * A resizer with the default exploration settings: chance of scaling down when full 0.2, action
   * interval 5 s, 12 adjacent sizes, explore step 0.1, downsize ratio 0.8, downsize after 72 h
   * underutilized, exploration probability 0.4, weight of the latest metric 0.5.
   *
   * @param lowerBound the fewest routees, at least 1
   * @param upperBound the most routees, at least {@code lowerBound}
   * @throws IllegalArgumentException naming the parameter on a bad value
   */
  public OptimalSizeExploringResizer(int lowerBound, int upperBound) {
    this(lowerBound, upperBound, 0.2, Duration.ofSeconds(5), 12, 0.1, 0.8, Duration.ofHours(72), 0.4, 0.5,
        System::nanoTime, new Random());
  }

  /** With an injected clock and random source; for tests. */
  OptimalSizeExploringResizer(
      int lowerBound,
      int upperBound,
      double chanceOfScalingDownWhenFull,
      Duration actionInterval,
      int numOfAdjacentSizesToConsiderDuringOptimization,
      double exploreStepSize,
      double downsizeRatio,
      Duration downsizeAfterUnderutilizedFor,
      double explorationProbability,
      double weightOfLatestMetric,
      LongSupplier nanoClock,
      Random random) {
    if (lowerBound < 1) {
      throw new IllegalArgumentException("lowerBound must be >= 1, was " + lowerBound);
    }
    if (upperBound < lowerBound) {
      throw new IllegalArgumentException(
          "upperBound must be >= lowerBound, was " + upperBound + " < " + lowerBound);
    }
    fraction(chanceOfScalingDownWhenFull, "chanceOfScalingDownWhenFull");
    if (actionInterval == null || actionInterval.isNegative() || actionInterval.isZero()) {
      throw new IllegalArgumentException("actionInterval must be positive, was " + actionInterval);
    }
    if (numOfAdjacentSizesToConsiderDuringOptimization < 2) {
      throw new IllegalArgumentException(
          "numOfAdjacentSizesToConsiderDuringOptimization must be >= 2, was "
              + numOfAdjacentSizesToConsiderDuringOptimization);
    }
    if (!(exploreStepSize > 0.0)) {
      throw new IllegalArgumentException("exploreStepSize must be > 0, was " + exploreStepSize);
    }
    if (!(downsizeRatio > 0.0 && downsizeRatio <= 1.0)) {
      throw new IllegalArgumentException("downsizeRatio must be in (0, 1], was " + downsizeRatio);
    }
    if (downsizeAfterUnderutilizedFor == null || downsizeAfterUnderutilizedFor.isNegative()) {
      throw new IllegalArgumentException(
          "downsizeAfterUnderutilizedFor must be >= 0, was " + downsizeAfterUnderutilizedFor);
    }
    fraction(explorationProbability, "explorationProbability");
    if (!(weightOfLatestMetric > 0.0 && weightOfLatestMetric <= 1.0)) {
      throw new IllegalArgumentException("weightOfLatestMetric must be in (0, 1], was " + weightOfLatestMetric);
    }
    this.lowerBound = lowerBound;
    this.upperBound = upperBound;
    this.chanceOfScalingDownWhenFull = chanceOfScalingDownWhenFull;
    this.actionInterval = actionInterval;
    this.numOfAdjacentSizesToConsiderDuringOptimization = numOfAdjacentSizesToConsiderDuringOptimization;
    this.exploreStepSize = exploreStepSize;
    this.downsizeRatio = downsizeRatio;
    this.downsizeAfterUnderutilizedFor = downsizeAfterUnderutilizedFor;
    this.explorationProbability = explorationProbability;
    this.weightOfLatestMetric = weightOfLatestMetric;
    this.nanoClock = nanoClock;
    this.random = random;
    this.lastActionNanos = nanoClock.getAsLong();
  }

  private static void fraction(double v, String name) {
    if (!(v >= 0.0 && v <= 1.0)) {
      throw new IllegalArgumentException(name + " must be in [0, 1], was " + v);
    }
  }

  private OptimalSizeExploringResizer with(
      double chance, Duration interval, int adjacent, double step, double ratio, Duration after,
      double exploration, double weight) {
    return new OptimalSizeExploringResizer(
        lowerBound, upperBound, chance, interval, adjacent, step, ratio, after, exploration, weight,
        nanoClock, new Random());
  }

  /**
   * @param chance probability in [0, 1] that an exploration step goes down
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withChanceOfScalingDownWhenFull(double chance) {
    return with(chance, actionInterval, numOfAdjacentSizesToConsiderDuringOptimization, exploreStepSize,
        downsizeRatio, downsizeAfterUnderutilizedFor, explorationProbability, weightOfLatestMetric);
  }

  /**
   * @param interval the time between two decisions, positive
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withActionInterval(Duration interval) {
    return with(chanceOfScalingDownWhenFull, interval, numOfAdjacentSizesToConsiderDuringOptimization,
        exploreStepSize, downsizeRatio, downsizeAfterUnderutilizedFor, explorationProbability,
        weightOfLatestMetric);
  }

  /**
   * @param sizes how many neighbouring sizes optimization compares, at least 2
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withNumOfAdjacentSizesToConsiderDuringOptimization(int sizes) {
    return with(chanceOfScalingDownWhenFull, actionInterval, sizes, exploreStepSize, downsizeRatio,
        downsizeAfterUnderutilizedFor, explorationProbability, weightOfLatestMetric);
  }

  /**
   * @param step the largest exploration step as a fraction of the size, positive
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withExploreStepSize(double step) {
    return with(chanceOfScalingDownWhenFull, actionInterval, numOfAdjacentSizesToConsiderDuringOptimization,
        step, downsizeRatio, downsizeAfterUnderutilizedFor, explorationProbability, weightOfLatestMetric);
  }

  /**
   * @param ratio the size kept when downsizing, as a fraction of the highest busy count, in (0, 1]
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withDownsizeRatio(double ratio) {
    return with(chanceOfScalingDownWhenFull, actionInterval, numOfAdjacentSizesToConsiderDuringOptimization,
        exploreStepSize, ratio, downsizeAfterUnderutilizedFor, explorationProbability, weightOfLatestMetric);
  }

  /**
   * @param after how long the pool must stay underutilized before it shrinks, at least 0
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withDownsizeAfterUnderutilizedFor(Duration after) {
    return with(chanceOfScalingDownWhenFull, actionInterval, numOfAdjacentSizesToConsiderDuringOptimization,
        exploreStepSize, downsizeRatio, after, explorationProbability, weightOfLatestMetric);
  }

  /**
   * @param probability probability in [0, 1] of exploring rather than optimizing
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withExplorationProbability(double probability) {
    return with(chanceOfScalingDownWhenFull, actionInterval, numOfAdjacentSizesToConsiderDuringOptimization,
        exploreStepSize, downsizeRatio, downsizeAfterUnderutilizedFor, probability, weightOfLatestMetric);
  }

  /**
   * @param weight weight in (0, 1] of the newest throughput sample in a size's average
   * @return a new resizer
   */
  public OptimalSizeExploringResizer withWeightOfLatestMetric(double weight) {
    return with(chanceOfScalingDownWhenFull, actionInterval, numOfAdjacentSizesToConsiderDuringOptimization,
        exploreStepSize, downsizeRatio, downsizeAfterUnderutilizedFor, explorationProbability, weight);
  }

  @Override
  public Resizer newPoolInstance() {
    return with(chanceOfScalingDownWhenFull, actionInterval, numOfAdjacentSizesToConsiderDuringOptimization,
        exploreStepSize, downsizeRatio, downsizeAfterUnderutilizedFor, explorationProbability,
        weightOfLatestMetric);
  }

  @Override
  public boolean isTimeForResize(long messageCounter) {
    return nanoClock.getAsLong() - lastActionNanos >= actionInterval.toNanos();
  }

  @Override
  public void reportMessageCount(List<RouteeLoad> routees, long messageCounter) {
    long now = nanoClock.getAsLong();
    int size = routees.size();
    int busy = 0;
    for (RouteeLoad r : routees) {
      if (r.busy() || r.hasMessages()) {
        busy++;
      }
    }
    boolean full = size > 0 && busy == size;
    if (full) {
      underutilized = false;
      if (hasRecord && recordFull && recordSize == size && now > recordNanos) {
        double throughput = (messageCounter - recordCounter) * 1e9 / (now - recordNanos);
        Double old = throughputBySize.get(size);
        throughputBySize.put(
            size, old == null ? throughput : weightOfLatestMetric * throughput + (1 - weightOfLatestMetric) * old);
      }
    } else if (!underutilized) {
      underutilized = true;
      underutilizedSinceNanos = now;
      highestBusyWhileUnderutilized = busy;
    } else {
      highestBusyWhileUnderutilized = Math.max(highestBusyWhileUnderutilized, busy);
    }
    hasRecord = true;
    recordCounter = messageCounter;
    recordNanos = now;
    recordSize = size;
    recordFull = full;
  }

  @Override
  public int resize(List<RouteeLoad> routees) {
    long now = nanoClock.getAsLong();
    lastActionNanos = now;
    int size = routees.size();
    int target;
    if (underutilized) {
      if (now - underutilizedSinceNanos >= downsizeAfterUnderutilizedFor.toNanos()) {
        target = (int) Math.ceil(highestBusyWhileUnderutilized * downsizeRatio);
        underutilized = false; // start a new streak at the new size
      } else {
        target = size;
      }
    } else if (!hasRecord || !recordFull) {
      target = size;
    } else if (random.nextDouble() < explorationProbability) {
      target = size + explore(size);
    } else {
      target = optimize(size);
    }
    return Math.max(lowerBound, Math.min(upperBound, target)) - size;
  }

  private int explore(int size) {
    int maxStep = Math.max(1, (int) Math.ceil(size * exploreStepSize));
    int step = 1 + random.nextInt(maxStep);
    return random.nextDouble() < chanceOfScalingDownWhenFull ? -step : step;
  }

  private int optimize(int size) {
    int half = numOfAdjacentSizesToConsiderDuringOptimization / 2;
    int best = -1;
    double bestThroughput = -1;
    for (Map.Entry<Integer, Double> e : throughputBySize.entrySet()) {
      int s = e.getKey();
      if (Math.abs(s - size) <= half && e.getValue() > bestThroughput) {
        best = s;
        bestThroughput = e.getValue();
      }
    }
    if (best < 0) {
      return size + explore(size);
    }
    double movement = (best - size) / 2.0;
    return size + (int) (movement < 0 ? Math.floor(movement) : Math.ceil(movement));
  }

  /** @return the fewest routees */
  public int lowerBound() {
    return lowerBound;
  }

  /** @return the most routees */
  public int upperBound() {
    return upperBound;
  }

  /** @return the time between decisions */
  public Duration actionInterval() {
    return actionInterval;
  }

  @Override
  public String toString() {
    return "OptimalSizeExploringResizer[" + lowerBound + ".." + upperBound + ", actionInterval=" + actionInterval + "]";
  }
}
