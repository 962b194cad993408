package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.AffineTask;
import dev.troupe.executors.TestSupport.ParkUntilWokenIdleStrategy;
import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolShutdownTest {

  /** Occupies the worker of {@code stripe} until {@code release} opens (or it is interrupted). */
  private static void block(AffinityPool pool, int stripe, CountDownLatch started, CountDownLatch release) {
    AffineTask t =
        new AffineTask() {
          @Override
          public void run() {
            started.countDown();
            TestSupport.awaitQuietly(release);
          }
        };
    t.affinity(stripe);
    pool.execute(t);
  }

  @Test
  void shutdownRejectsNewTasksButRunsTheQueuedOnesThenTheThreadsExit() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("shutdown");
    AffinityPool pool = AffinityPool.builder().parallelism(2).threadFactory(threads).build();
    CountDownLatch started = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    block(pool, 0, started, release);
    block(pool, 1, started, release);
    assertTrue(started.await(5, TimeUnit.SECONDS), "both workers blocked");
    LongAdder ran = new LongAdder();
    for (int i = 0; i < 100; i++) {
      pool.execute(ran::increment);
    }
    pool.shutdown();
    assertTrue(pool.isShutdown(), "isShutdown after shutdown");
    assertFalse(pool.isTerminated(), "not terminated while tasks are queued");
    RejectedExecutionException e =
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    assertTrue(e.getMessage().contains("shut down"), e.getMessage());
    assertFalse(pool.awaitTermination(20, TimeUnit.MILLISECONDS), "awaitTermination times out");

    release.countDown();
    assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS), "terminated after the queue drained");
    assertTrue(pool.isTerminated(), "isTerminated");
    assertEquals(100, ran.sum(), "queued tasks ran after shutdown");
    threads.assertAllDead(Duration.ofSeconds(5));
  }

  @Test
  void shutdownNowReturnsTheTasksThatNeverRanAndInterruptsTheWorkers() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("shutdown-now");
    AffinityPool pool = AffinityPool.builder().parallelism(2).threadFactory(threads).build();
    CountDownLatch started = new CountDownLatch(2);
    CountDownLatch never = new CountDownLatch(1); // opened only by interruption
    block(pool, 0, started, never);
    block(pool, 1, started, never);
    assertTrue(started.await(5, TimeUnit.SECONDS), "both workers blocked");
    LongAdder ran = new LongAdder();
    List<Runnable> submitted = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Runnable r = ran::increment;
      submitted.add(r);
      pool.execute(r);
    }
    assertShutdownNowReturnsAllUnrun(pool, threads, ran, submitted);
    assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
  }

  @Test
  void shutdownNowAlsoReturnsWhatAWorkerQueuedOnItsOwnStripe() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("shutdown-now-own");
    AffinityPool pool =
        AffinityPool.builder().parallelism(1).workStealing(false).threadFactory(threads).build();
    LongAdder ran = new LongAdder();
    List<Runnable> submitted = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      submitted.add(ran::increment);
    }
    CountDownLatch queued = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1); // opened only by interruption
    pool.execute(
        () -> {
          submitted.forEach(pool::execute); // the worker's own thread: slot, then local ring
          queued.countDown();
          TestSupport.awaitQuietly(never);
        });
    assertTrue(queued.await(5, TimeUnit.SECONDS), "the worker queued its tasks");
    assertShutdownNowReturnsAllUnrun(pool, threads, ran, submitted);
  }

  @Test
  void anIdlePoolWhoseWorkersParkIndefinitelyShutsDownPromptly() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("idle-shutdown");
    AffinityPool pool =
        AffinityPool.builder()
            .parallelism(3)
            .threadFactory(threads)
            .idleStrategy(ParkUntilWokenIdleStrategy::new)
            .build();
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
    pool.shutdown();
    assertTrue(pool.awaitTermination(2, TimeUnit.SECONDS), "parked workers were woken to exit");
    threads.assertAllDead(Duration.ofSeconds(5));
  }

  @Test
  void everyTaskAcceptedWhileShutdownRacesRunsExactlyOnce() throws Exception {
    for (int round = 0; round < 20; round++) {
      RecordingThreadFactory threads = new RecordingThreadFactory("race-" + round);
      AffinityPool pool =
          AffinityPool.builder().parallelism(2).taskQueueSize(64).threadFactory(threads).build();
      int producers = 3;
      int maxPerProducer = 50_000;
      AtomicIntegerArray runs = new AtomicIntegerArray(producers * maxPerProducer);
      AtomicInteger accepted = new AtomicInteger();
      CountDownLatch go = new CountDownLatch(1);
      Thread[] ts = new Thread[producers];
      for (int p = 0; p < producers; p++) {
        int base = p * maxPerProducer;
        ts[p] =
            new Thread(
                () -> {
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int k = 0; k < maxPerProducer; k++) {
                    int id = base + k;
                    try {
                      pool.execute(() -> runs.incrementAndGet(id));
                      accepted.incrementAndGet();
                    } catch (RejectedExecutionException e) {
                      return;
                    }
                  }
                });
        ts[p].start();
      }
      go.countDown();
      awaitTrue(Duration.ofSeconds(5), () -> "producers started", () -> accepted.get() > 1_000);
      pool.shutdown();
      for (Thread t : ts) {
        t.join(10_000);
        assertFalse(t.isAlive(), "producer finished");
      }
      assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS), "terminated, round " + round);
      threads.assertAllDead(Duration.ofSeconds(5));
      int total = 0;
      for (int i = 0; i < runs.length(); i++) {
        int n = runs.get(i);
        assertTrue(n <= 1, "task " + i + " ran " + n + " times");
        total += n;
      }
      assertEquals(accepted.get(), total, "accepted tasks that ran, round " + round);
    }
  }

  /**
   * Stops {@code pool} with {@code shutdownNow} while its workers are blocked and checks that the
   * workers exit, none of the queued tasks ran, and exactly the {@code submitted} ones came back
   * (from the shared queues, the next-task slot and the local rings alike).
   */
  private static void assertShutdownNowReturnsAllUnrun(
      AffinityPool pool, RecordingThreadFactory threads, LongAdder ran, List<Runnable> submitted)
      throws InterruptedException {
    List<Runnable> notRun = pool.shutdownNow();
    assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS), "the workers exit after interruption");
    threads.assertAllDead(Duration.ofSeconds(5));
    assertEquals(0, ran.sum(), "no queued task ran");
    assertEquals(submitted.size(), notRun.size(), "every queued task returned");
    assertTrue(notRun.containsAll(submitted), "exactly the submitted tasks returned");
  }
}
