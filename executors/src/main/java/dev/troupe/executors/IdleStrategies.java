package dev.troupe.executors;

/**
 * Maps the {@code idle-cpu-level} setting (1..10) to an idle strategy. The one table:
 *
 * <table>
 *   <caption>idle-cpu-level to {@link BackoffIdleStrategy} parameters</caption>
 *   <tr><th>level</th><th>maxSpins</th><th>maxYields</th><th>minPark</th><th>maxPark</th></tr>
 *   <tr><td>1</td><td>0</td><td>0</td><td>50 µs</td><td>100 ms</td></tr>
 *   <tr><td>2</td><td>10</td><td>0</td><td>50 µs</td><td>50 ms</td></tr>
 *   <tr><td>3</td><td>50</td><td>5</td><td>20 µs</td><td>20 ms</td></tr>
 *   <tr><td>4</td><td>100</td><td>10</td><td>10 µs</td><td>20 ms</td></tr>
 *   <tr><td>5 (default)</td><td>200</td><td>20</td><td>10 µs</td><td>10 ms</td></tr>
 *   <tr><td>6</td><td>1 000</td><td>50</td><td>5 µs</td><td>10 ms</td></tr>
 *   <tr><td>7</td><td>5 000</td><td>100</td><td>5 µs</td><td>5 ms</td></tr>
 *   <tr><td>8</td><td>20 000</td><td>200</td><td>1 µs</td><td>5 ms</td></tr>
 *   <tr><td>9</td><td>50 000</td><td>500</td><td>1 µs</td><td>2 ms</td></tr>
 *   <tr><td>10</td><td>200 000</td><td>1 000</td><td>1 µs</td><td>1 ms</td></tr>
 * </table>
 *
 * <p>Level 1 parks at once and saves the most CPU; level 10 spins for roughly a millisecond (a
 * spin round costs tens of nanoseconds) before yielding and parking, for the lowest wake-up
 * latency. The spins and yields are what a level costs and buys: after each burst of work every
 * worker spends them before it parks, and a message that arrives while its worker still spins is
 * picked up within a spin round instead of an OS wake-up.
 *
 * <p>Parking is the same at every level. An {@link AffinityPool} worker is woken by the producer
 * that gives it work, so it parks with no deadline ({@link BackoffIdleStrategy#idleUntilWoken()}):
 * a pool with nothing to do wakes no thread, at any level. Only the pool's lookout (one idle
 * worker, and only while some peer is busy; see {@link AffinityPool}) parks with the
 * {@code minPark}..{@code maxPark} periods, to steal a task stuck behind a peer's long task;
 * {@code maxPark} bounds how late it comes.
 *
 * <p>Measured by the {@code IdleCpu} benchmark (2-core virtual machine, JDK 17; see {@code
 * bench/results/RESULTS.md}, "Idle"), per level, for a system on the default dispatcher:
 *
 * <table>
 *   <caption>What a level costs and buys</caption>
 *   <tr><th>level</th><th>idle system</th><th>first second after a burst</th>
 *       <th>pickup after a 1 ms pause</th><th>pickup after 100 ms</th></tr>
 *   <tr><td>1</td><td>0 % of a core, no wake-up</td><td>0.014 %</td><td>~4 µs</td>
 *       <td>50–210 µs</td></tr>
 *   <tr><td>5</td><td>0 %, no wake-up</td><td>0.017 %</td><td>~4–5 µs</td><td>50–210 µs</td></tr>
 *   <tr><td>10</td><td>0 %, no wake-up</td><td>1.25 %</td><td>~0.5–2 µs (spinning)</td>
 *       <td>50–210 µs</td></tr>
 * </table>
 *
 * <p>A pickup "after a pause" runs from the send to the start of the actor's processing; once a
 * worker has parked it is an OS wake-up, whose cost the machine decides, not the level.
 */
public final class IdleStrategies {

  /** The lowest idle-cpu-level. */
  public static final int MIN_CPU_LEVEL = 1;

  /** The highest idle-cpu-level. */
  public static final int MAX_CPU_LEVEL = 10;

  /** The default idle-cpu-level. */
  public static final int DEFAULT_CPU_LEVEL = 5;

  private static final long MICROS = 1_000L;
  private static final long MILLIS = 1_000_000L;

  // One row per level (index = level - 1): maxSpins, maxYields, minParkNanos, maxParkNanos.
  private static final long[][] TABLE = {
    {0, 0, 50 * MICROS, 100 * MILLIS},
    {10, 0, 50 * MICROS, 50 * MILLIS},
    {50, 5, 20 * MICROS, 20 * MILLIS},
    {100, 10, 10 * MICROS, 20 * MILLIS},
    {200, 20, 10 * MICROS, 10 * MILLIS},
    {1_000, 50, 5 * MICROS, 10 * MILLIS},
    {5_000, 100, 5 * MICROS, 5 * MILLIS},
    {20_000, 200, 1 * MICROS, 5 * MILLIS},
    {50_000, 500, 1 * MICROS, 2 * MILLIS},
    {200_000, 1_000, 1 * MICROS, 1 * MILLIS},
  };

  private IdleStrategies() {}

  /**
   * Returns a new strategy for an idle-cpu-level, as in the table above.
   *
   * @param level 1 (save CPU) .. 10 (lowest latency)
   * @return a new {@link BackoffIdleStrategy}, for one thread
   * @throws IllegalArgumentException if {@code level} is outside 1..10
   */
  public static BackoffIdleStrategy forCpuLevel(int level) {
    checkLevel("level", level);
    long[] row = TABLE[level - 1];
    return new BackoffIdleStrategy(row[0], row[1], row[2], row[3]);
  }

  static int checkLevel(String name, int level) {
    if (level < MIN_CPU_LEVEL || level > MAX_CPU_LEVEL) {
      throw new IllegalArgumentException(
          name + " must be between " + MIN_CPU_LEVEL + " and " + MAX_CPU_LEVEL + ", was " + level);
    }
    return level;
  }
}
