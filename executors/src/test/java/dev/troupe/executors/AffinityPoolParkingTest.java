package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.AffineTask;
import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An idle pool wakes no thread: once its idle strategy would park, a worker parks with no deadline
 * ({@link Thread.State#WAITING}) unless it is the pool's lookout, and there is a lookout (parked
 * with a deadline, {@link Thread.State#TIMED_WAITING}) only while some worker is busy.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolParkingTest {

  /** IDLE, and its thread parked without a deadline (LockSupport.park). */
  static boolean parkedUntilWoken(AffinityWorker w) {
    return w.isIdle() && w.thread.getState() == Thread.State.WAITING;
  }

  static boolean allParkedUntilWoken(AffinityPool pool) {
    for (AffinityWorker w : pool.workers) {
      if (!parkedUntilWoken(w)) {
        return false;
      }
    }
    return true;
  }

  /** For failure messages: each worker's state word and its thread's state; the lookout. */
  static String describe(AffinityPool pool) {
    StringBuilder b = new StringBuilder("lookout=").append(pool.idleWorkers.lvLookout());
    for (AffinityWorker w : pool.workers) {
      b.append(", worker ").append(w.index).append(": state=").append(w.lvState())
          .append(" thread=").append(w.thread.getState());
    }
    return b.toString();
  }

  @ParameterizedTest(name = "idle-cpu-level {0}")
  @ValueSource(ints = {1, 5, 10})
  void afterABurstEveryWorkerParksWithoutADeadlineAndRunsNoMore(int level) throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(mx.isThreadCpuTimeSupported(), "thread CPU time not supported");
    if (!mx.isThreadCpuTimeEnabled()) {
      mx.setThreadCpuTimeEnabled(true);
    }
    RecordingThreadFactory threads = new RecordingThreadFactory("parking-" + level);
    AffinityPool pool =
        AffinityPool.builder().parallelism(4).idleCpuLevel(level).threadFactory(threads).build();
    try {
      int tasks = 20_000;
      CountDownLatch done = new CountDownLatch(tasks);
      for (int i = 0; i < tasks; i++) {
        pool.execute(done::countDown);
      }
      assertTrue(done.await(10, TimeUnit.SECONDS), "burst ran; missing " + done.getCount());
      // The lookout, if the burst made one, gives the role back 50 ms after the last task.
      awaitTrue(
          Duration.ofSeconds(5),
          () -> "every worker parked until woken: " + describe(pool),
          () -> allParkedUntilWoken(pool));
      assertEquals(IdleWorkers.NO_LOOKOUT, pool.idleWorkers.lvLookout(), "no lookout when idle");

      long cpuBefore = cpuNanos(mx, threads);
      long runBefore = pool.completedTaskCount();
      // A measurement window, not a synchronizer: a worker parked until woken must not run in it.
      TimeUnit.MILLISECONDS.sleep(300);
      long cpu = cpuNanos(mx, threads) - cpuBefore;
      assertTrue(allParkedUntilWoken(pool), "still parked until woken: " + describe(pool));
      assertEquals(runBefore, pool.completedTaskCount(), "no task ran");
      // Zero unless a park returned spuriously; a worker with a 10 ms deadline would wake 30
      // times per worker here, several microseconds each.
      assertTrue(
          cpu < 100_000,
          "idle workers used " + cpu / 1_000 + " µs of CPU in 300 ms: " + describe(pool));
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  @Test
  void whileAWorkerIsBusyExactlyOneIdlePeerIsTheLookoutAndTheRoleEndsWithTheWork()
      throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("lookout");
    AffinityPool pool = AffinityPool.builder().parallelism(4).threadFactory(threads).build();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try {
      awaitTrue(
          Duration.ofSeconds(5),
          () -> "a fresh pool parks until woken: " + describe(pool),
          () -> allParkedUntilWoken(pool));
      AffineTask blocker =
          new AffineTask() {
            @Override
            public void run() {
              started.countDown();
              TestSupport.awaitQuietly(release);
            }
          };
      blocker.affinity(0);
      pool.execute(blocker);
      assertTrue(started.await(5, TimeUnit.SECONDS), "blocker started on stripe 0");
      awaitTrue(
          Duration.ofSeconds(5),
          () -> "one lookout, the other idle workers parked until woken: " + describe(pool),
          () -> {
            int lookout = pool.idleWorkers.lvLookout();
            if (lookout <= 0) {
              return false; // none yet, or (impossibly) the busy worker
            }
            for (AffinityWorker w : pool.workers) {
              if (w.index != 0 && w.index != lookout && !parkedUntilWoken(w)) {
                return false;
              }
            }
            return true;
          });
      int lookout = pool.idleWorkers.lvLookout();
      assertNotEquals(0, lookout, "the busy worker is not the lookout");
      assertEquals(
          Thread.State.TIMED_WAITING,
          waitForState(pool.workers[lookout].thread, Thread.State.TIMED_WAITING),
          "the lookout parks with a deadline: " + describe(pool));
    } finally {
      release.countDown();
    }
    try {
      awaitTrue(
          Duration.ofSeconds(5),
          () -> "the lookout gave the role back and everyone parks until woken: " + describe(pool),
          () -> pool.idleWorkers.lvLookout() == IdleWorkers.NO_LOOKOUT && allParkedUntilWoken(pool));
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  /** The lookout is between parks now and then; its state is polled, bounded, until seen. */
  private static Thread.State waitForState(Thread t, Thread.State wanted) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    Thread.State s;
    while ((s = t.getState()) != wanted && System.nanoTime() - deadline < 0) {
      Thread.onSpinWait();
    }
    return s;
  }

  private static long cpuNanos(ThreadMXBean mx, RecordingThreadFactory threads) {
    long sum = 0;
    for (Thread t : threads.threads) {
      long cpu = mx.getThreadCpuTime(t.getId());
      assertTrue(cpu >= 0, "CPU time of " + t.getName() + " available");
      sum += cpu;
    }
    return sum;
  }
}
