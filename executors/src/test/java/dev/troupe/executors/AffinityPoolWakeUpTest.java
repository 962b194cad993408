package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.AffineTask;
import dev.troupe.executors.TestSupport.ParkUntilWokenIdleStrategy;
import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The workers here park until unparked (no timeout), so a lost wake-up shows as a task that never
 * runs rather than one that runs a park period late.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolWakeUpTest {

  /** Two workers that park until a producer wakes them: the handshake under test, no timeout. */
  private static AffinityPool parkingPool(RecordingThreadFactory threads) {
    return AffinityPool.builder()
        .parallelism(2)
        .threadFactory(threads)
        .idleStrategy(ParkUntilWokenIdleStrategy::new)
        .build();
  }

  private static boolean allIdle(AffinityPool pool) {
    for (AffinityWorker w : pool.workers) {
      if (!w.isIdle()) {
        return false;
      }
    }
    return true;
  }

  private static AffineTask boundTo(int stripe, Runnable body) {
    AffineTask t =
        new AffineTask() {
          @Override
          public void run() {
            body.run();
          }
        };
    t.affinity(stripe);
    return t;
  }

  @Test
  void aTaskSubmittedToAnIdleWorkerFromOutsideRunsPromptlyEveryTime() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("wake-external");
    AffinityPool pool = parkingPool(threads);
    try {
      for (int i = 0; i < 2_000; i++) {
        int round = i;
        awaitTrue(Duration.ofSeconds(5), () -> "workers idle before round " + round, () -> allIdle(pool));
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(boundTo(i & 1, ran::countDown));
        assertTrue(ran.await(5, TimeUnit.SECONDS), "lost wake-up in round " + i);
      }
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  @Test
  void aTaskSubmittedByOneWorkerToAnotherIdleWorkerRunsPromptlyEveryTime() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("wake-internal");
    AffinityPool pool = parkingPool(threads);
    try {
      // A relay bouncing between the two stripes: each hop wakes the other, idle, worker.
      int hops = 20_000;
      AtomicInteger left = new AtomicInteger(hops);
      CountDownLatch done = new CountDownLatch(1);
      AffineTask[] relay = new AffineTask[2];
      for (int s = 0; s < 2; s++) {
        int other = 1 - s;
        relay[s] =
            boundTo(
                s,
                () -> {
                  if (left.decrementAndGet() > 0) {
                    pool.execute(relay[other]);
                  } else {
                    done.countDown();
                  }
                });
      }
      pool.execute(relay[0]);
      assertTrue(
          done.await(15, TimeUnit.SECONDS), "relay stalled with " + left.get() + " hops left");
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  @Test
  void aBurstFromManyProducersToAnIdlePoolAllRuns() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("wake-burst");
    AffinityPool pool = parkingPool(threads);
    try {
      for (int round = 0; round < 200; round++) {
        int r = round;
        awaitTrue(Duration.ofSeconds(5), () -> "workers idle before round " + r, () -> allIdle(pool));
        int producers = 3;
        int perProducer = 20;
        CountDownLatch ran = new CountDownLatch(producers * perProducer);
        Thread[] ts = new Thread[producers];
        for (int p = 0; p < producers; p++) {
          ts[p] =
              new Thread(
                  () -> {
                    for (int k = 0; k < perProducer; k++) {
                      pool.execute(ran::countDown);
                    }
                  });
          ts[p].start();
        }
        for (Thread t : ts) {
          t.join();
        }
        assertTrue(
            ran.await(5, TimeUnit.SECONDS),
            "lost wake-up in round " + round + ": " + ran.getCount() + " tasks never ran");
      }
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }
}
