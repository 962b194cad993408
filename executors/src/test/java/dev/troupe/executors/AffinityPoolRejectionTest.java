package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.AffineTask;
import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolRejectionTest {

  private static AffineTask blocker(CountDownLatch started, CountDownLatch release) {
    AffineTask t =
        new AffineTask() {
          @Override
          public void run() {
            started.countDown();
            TestSupport.awaitQuietly(release);
          }
        };
    t.affinity(0);
    return t;
  }

  /** Runs {@link #blocker} on stripe 0 and waits until it holds the worker; returns its release. */
  private static CountDownLatch blockWorkerZero(AffinityPool pool) throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    pool.execute(blocker(started, release));
    assertTrue(started.await(5, TimeUnit.SECONDS), "worker 0 blocked");
    return release;
  }

  /** A task that records the thread it ran on, then counts down. */
  private static Runnable recording(Set<Thread> ranOn, CountDownLatch ran) {
    return () -> {
      ranOn.add(Thread.currentThread());
      ran.countDown();
    };
  }

  @Test
  void byDefaultAFullPoolRunsExternalSubmissionsOnTheCaller() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("full-external");
    AffinityPool pool =
        AffinityPool.builder().parallelism(1).taskQueueSize(2).threadFactory(threads).build();
    CountDownLatch release = blockWorkerZero(pool);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    CountDownLatch all = new CountDownLatch(10);
    for (int i = 0; i < 10; i++) {
      pool.execute(recording(ranOn, all));
    }
    assertEquals(2, all.getCount(), "8 of 10 ran on the caller, 2 wait in the full queue");
    assertTrue(ranOn.contains(Thread.currentThread()), "the caller ran the overflow");
    release.countDown();
    assertTrue(all.await(5, TimeUnit.SECONDS), "the queued two ran after the worker freed up");
    TestSupport.shutdownAndVerify(pool, threads);
  }

  @Test
  void byDefaultAFullStripeTakesTheOtherStripesFirst() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("full-other");
    AffinityPool pool =
        AffinityPool.builder().parallelism(2).taskQueueSize(2).threadFactory(threads).build();
    CountDownLatch release = blockWorkerZero(pool);
    CountDownLatch ranElsewhere = new CountDownLatch(1);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    // Fill stripe 0 (the thief may take some; keep submitting until one lands elsewhere).
    for (int i = 0; i < 4; i++) {
      AffineTask t =
          new AffineTask() {
            @Override
            public void run() {
              ranOn.add(Thread.currentThread());
              ranElsewhere.countDown();
            }
          };
      t.affinity(0);
      pool.execute(t);
    }
    assertTrue(ranElsewhere.await(5, TimeUnit.SECONDS), "some ran");
    release.countDown();
    TestSupport.shutdownAndVerify(pool, threads);
    assertTrue(!ranOn.contains(Thread.currentThread()), "none ran on the caller");
  }

  @Test
  void byDefaultAWorkerSpillsToItsOverflowQueueAndLosesNothing() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("spill");
    AffinityPool pool =
        AffinityPool.builder().parallelism(1).taskQueueSize(2).threadFactory(threads).build();
    int count = 1_000;
    CountDownLatch all = new CountDownLatch(count);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    pool.execute(
        () -> {
          for (int i = 0; i < count; i++) {
            pool.execute(recording(ranOn, all));
          }
        });
    assertTrue(all.await(5, TimeUnit.SECONDS), "all spilled tasks ran; missing " + all.getCount());
    assertEquals(Set.of(threads.threads.get(0)), ranOn, "all ran on the worker");
    TestSupport.shutdownAndVerify(pool, threads);
  }

  @Test
  void theAbortHandlerThrowsRejectedExecutionException() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("abort");
    AffinityPool pool =
        AffinityPool.builder()
            .parallelism(1)
            .taskQueueSize(2)
            .threadFactory(threads)
            .rejectionHandler(RejectionHandler.abort())
            .build();
    CountDownLatch release = blockWorkerZero(pool);
    pool.execute(() -> {});
    pool.execute(() -> {});
    RejectedExecutionException e =
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    assertTrue(e.getMessage().contains("is full"), e.getMessage());
    release.countDown();
    TestSupport.shutdownAndVerify(pool, threads);
  }

  @Test
  void theSpillHandlerQueuesEverythingForTheWorker() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("spill-handler");
    AffinityPool pool =
        AffinityPool.builder()
            .parallelism(1)
            .taskQueueSize(2)
            .threadFactory(threads)
            .rejectionHandler(RejectionHandler.spillToOverflow())
            .build();
    CountDownLatch release = blockWorkerZero(pool);
    CountDownLatch all = new CountDownLatch(100);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 100; i++) {
      pool.execute(recording(ranOn, all));
    }
    assertEquals(100, all.getCount(), "nothing ran on the caller");
    release.countDown();
    assertTrue(all.await(5, TimeUnit.SECONDS), "all ran");
    assertSame(threads.threads.get(0), ranOn.iterator().next(), "on the worker");
    TestSupport.shutdownAndVerify(pool, threads);
  }
}
