package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolIdleCpuTest {

  private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  @Test
  void anIdlePoolAtTheDefaultLevelBurnsLessThanFivePercentOfACore() throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(mx.isThreadCpuTimeSupported(), "thread CPU time not supported");
    if (!mx.isThreadCpuTimeEnabled()) {
      mx.setThreadCpuTimeEnabled(true);
    }
    RecordingThreadFactory threads = new RecordingThreadFactory("idle-cpu");
    AffinityPool pool = AffinityPool.builder().parallelism(2).threadFactory(threads).build();
    try {
      // Some work first, so the workers go from busy to idle as in real life.
      CountDownLatch done = new CountDownLatch(10_000);
      for (int i = 0; i < 10_000; i++) {
        pool.execute(done::countDown);
      }
      assertTrue(done.await(5, TimeUnit.SECONDS), "warm-up tasks ran");
      awaitTrue(
          Duration.ofSeconds(5),
          () -> "workers idle",
          () -> {
            for (AffinityWorker w : pool.workers) {
              if (!w.isIdle()) {
                return false;
              }
            }
            return true;
          });

      long cpuBefore = workerCpuNanos(mx, threads);
      long start = System.nanoTime();
      // A measurement interval, not a synchronizer: nothing happens at its end.
      TimeUnit.NANOSECONDS.sleep(WINDOW_NANOS);
      long elapsed = System.nanoTime() - start;
      long cpu = workerCpuNanos(mx, threads) - cpuBefore;
      double shareOfOneCore = (double) cpu / elapsed;
      assertTrue(
          shareOfOneCore < 0.05,
          String.format(
              "idle workers used %.2f%% of a core (%d µs CPU in %d ms)",
              shareOfOneCore * 100, cpu / 1_000, elapsed / 1_000_000));
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  private static long workerCpuNanos(ThreadMXBean mx, RecordingThreadFactory threads) {
    long sum = 0;
    for (Thread t : threads.threads) {
      long cpu = mx.getThreadCpuTime(t.getId());
      assertTrue(cpu >= 0, "CPU time of " + t.getName() + " available");
      sum += cpu;
    }
    return sum;
  }
}
