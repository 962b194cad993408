package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.AffineTask;
import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bursts of work separated by silences of every length, thousands of times: a burst that meets a
 * worker on its way to a park with no deadline must still wake it (a lost wake-up here hangs the
 * round instead of costing a park period). Silences range from none, through a few microseconds
 * (workers spinning or yielding), until every worker is IDLE, to, every 50th round, until every
 * worker is parked without a deadline and the lookout has given up its role. Bursts come from the
 * test thread, from two more outside threads at once, and from the tasks themselves (a child on
 * the same stripe, which goes to the next-task slot or the local ring, and one bound to another
 * stripe). Every task runs exactly once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AffinityPoolBurstSilenceStressTest {

  private static final int ROUNDS = 3_000;
  private static final int MAX_ROOTS = 48;
  /** Ids per round: roots plus at most two children each. */
  private static final int IDS_PER_ROUND = 3 * MAX_ROOTS;

  @ParameterizedTest(name = "idle-cpu-level {0}")
  @ValueSource(ints = {1, 5})
  void everyTaskOfThousandsOfBurstsRunsExactlyOnce(int level) throws Exception {
    long seed = System.nanoTime();
    SplittableRandom random = new SplittableRandom(seed);
    RecordingThreadFactory threads = new RecordingThreadFactory("burst-" + level);
    AffinityPool pool =
        AffinityPool.builder().parallelism(3).idleCpuLevel(level).threadFactory(threads).build();
    AtomicIntegerArray runs = new AtomicIntegerArray(ROUNDS * IDS_PER_ROUND);
    Helpers helpers = new Helpers(pool, runs);
    long start = System.nanoTime();
    try {
      for (int round = 0; round < ROUNDS; round++) {
        silence(pool, round, random);
        int roots = 1 + random.nextInt(MAX_ROOTS);
        int base = round * IDS_PER_ROUND;
        CountDownLatch done = new CountDownLatch(3 * roots); // each root: itself and two children
        boolean fromHelpers = round % 4 == 3;
        if (fromHelpers) {
          helpers.submit(base, roots, done); // two outside threads at once, half of the roots each
        } else {
          for (int r = 0; r < roots; r++) {
            pool.execute(new Root(pool, runs, base + 3 * r, random.nextInt(3), done));
          }
        }
        if (!done.await(10, TimeUnit.SECONDS)) {
          throw new AssertionError(
              "round " + round + " (seed " + seed + "): " + done.getCount() + " of " + 3 * roots
                  + " tasks never ran (lost wake-up?); " + AffinityPoolParkingTest.describe(pool));
        }
      }
    } finally {
      helpers.stop();
      TestSupport.shutdownAndVerify(pool, threads);
    }
    for (int i = 0; i < runs.length(); i++) {
      int r = runs.get(i);
      assertTrue(r <= 1, "task " + i + " ran " + r + " times (seed " + seed + ")");
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(ms < 50_000, ROUNDS + " rounds took " + ms + " ms");
  }

  /** The silence before a round: none, a short spin, until all IDLE, or until all parked. */
  private static void silence(AffinityPool pool, int round, SplittableRandom random) {
    if (round % 50 == 49) {
      awaitTrue(
          Duration.ofSeconds(5),
          () -> "every worker parked until woken before round " + round + ": "
              + AffinityPoolParkingTest.describe(pool),
          () -> pool.idleWorkers.lvLookout() == IdleWorkers.NO_LOOKOUT
              && AffinityPoolParkingTest.allParkedUntilWoken(pool));
      return;
    }
    switch (random.nextInt(4)) {
      case 0 -> { } // the next burst at once, while workers are still finishing the last
      case 1 -> {
        long until = System.nanoTime() + random.nextInt(50_000); // spin up to 50 µs
        while (System.nanoTime() - until < 0) {
          Thread.onSpinWait();
        }
      }
      case 2 -> LockSupport.parkNanos(random.nextInt(2_000_000)); // up to 2 ms of silence
      default ->
          awaitTrue(
              Duration.ofSeconds(5),
              () -> "every worker idle before round " + round + ": "
                  + AffinityPoolParkingTest.describe(pool),
              () -> {
                for (AffinityWorker w : pool.workers) {
                  if (!w.isIdle()) {
                    return false;
                  }
                }
                return true;
              });
    }
  }

  /** Runs once under id {@code id}, then submits a child to its own stripe and one elsewhere. */
  static final class Root extends AffineTask {
    private final AffinityPool pool;
    private final AtomicIntegerArray runs;
    private final int id;
    private final int otherStripeOffset;
    private final CountDownLatch done;

    Root(AffinityPool pool, AtomicIntegerArray runs, int id, int otherStripeOffset,
        CountDownLatch done) {
      this.pool = pool;
      this.runs = runs;
      this.id = id;
      this.otherStripeOffset = otherStripeOffset;
      this.done = done;
    }

    @Override
    public void run() {
      runs.incrementAndGet(id);
      done.countDown();
      pool.execute(new Leaf(runs, id + 1, done)); // a local submission: slot or local ring
      Leaf away = new Leaf(runs, id + 2, done);
      int here = Math.max(0, pool.currentWorkerIndex());
      away.affinity((here + 1 + otherStripeOffset % (pool.parallelism() - 1)) % pool.parallelism());
      pool.execute(away); // from a worker to another stripe, whose worker may be parking
    }
  }

  static final class Leaf extends AffineTask {
    private final AtomicIntegerArray runs;
    private final int id;
    private final CountDownLatch done;

    Leaf(AtomicIntegerArray runs, int id, CountDownLatch done) {
      this.runs = runs;
      this.id = id;
      this.done = done;
    }

    @Override
    public void run() {
      runs.incrementAndGet(id);
      done.countDown();
    }
  }

  /** One round's work for the helpers; immutable, so a helper reads all of it or none of it. */
  private record Round(int base, int roots, CountDownLatch done) {}

  /**
   * Two outside producer threads that submit half of a round's roots each, at the same time.
   *
   * <p>The round is handed over in two barrier phases: after {@code go} trips, each helper reads
   * the round and then waits on {@code taken}, which the test thread also awaits before it
   * returns. So the test thread cannot publish the next round until both helpers have read this
   * one. With a single barrier, a helper with nothing to do in a round (one root: all of it is
   * helper 0's) could be descheduled between the trip and its read; the round completed without
   * it, and four rounds later it read the next helper round's fields, submitted its half, then
   * passed the barrier with the others and submitted the same half again (two distinct tasks with
   * the same id, both from helper 1, in consecutive barrier generations).
   */
  static final class Helpers {
    private final AffinityPool pool;
    private final AtomicIntegerArray runs;
    private final CyclicBarrier go = new CyclicBarrier(3);
    private final CyclicBarrier taken = new CyclicBarrier(3);
    private final Thread[] threads = new Thread[2];
    private volatile Round round; // written before go, read between go and taken
    private volatile boolean stopped;

    Helpers(AffinityPool pool, AtomicIntegerArray runs) {
      this.pool = pool;
      this.runs = runs;
      for (int h = 0; h < threads.length; h++) {
        int half = h;
        threads[h] = new Thread(() -> loop(half), "burst-helper-" + h);
        threads[h].setDaemon(true);
        threads[h].start();
      }
    }

    void submit(int base, int roots, CountDownLatch done) throws Exception {
      this.round = new Round(base, roots, done);
      go.await(5, TimeUnit.SECONDS);
      taken.await(5, TimeUnit.SECONDS); // both helpers hold this round: the next may be written
    }

    private void loop(int half) {
      try {
        while (true) {
          go.await();
          if (stopped) {
            return;
          }
          Round rd = round;
          taken.await();
          for (int r = half; r < rd.roots(); r += 2) {
            pool.execute(new Root(pool, runs, rd.base() + 3 * r, r % 3, rd.done()));
          }
        }
      } catch (Exception e) {
        // broken barrier: the test thread reports any missing task
      }
    }

    /**
     * Stops the helpers with one more trip of {@code go} (they see {@code stopped} after it). A
     * reset alone would break only the helpers already waiting; one still submitting would then
     * wait on the fresh generation forever.
     */
    void stop() throws InterruptedException {
      stopped = true;
      try {
        go.await(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        go.reset(); // a helper is gone or stuck: break the barrier for any still waiting
        taken.reset();
      }
      for (Thread t : threads) {
        t.join(5_000);
        assertEquals(false, t.isAlive(), t.getName() + " stopped");
      }
    }
  }
}
