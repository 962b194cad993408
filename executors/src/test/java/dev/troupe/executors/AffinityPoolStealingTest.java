package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.AffineTask;
import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolStealingTest {

  /** Like a mailbox: runs, leaves its critical section, then reschedules itself. */
  static final class Mailbox extends AffineTask {
    final AffinityPool pool;
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger overlaps;
    final LongAdder finished;
    final Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    int remaining; // guarded by the in-flight discipline itself: only one run at a time

    Mailbox(AffinityPool pool, int runs, AtomicInteger overlaps, LongAdder finished) {
      this.pool = pool;
      this.remaining = runs;
      this.overlaps = overlaps;
      this.finished = finished;
    }

    @Override
    public void run() {
      if (inFlight.incrementAndGet() != 1) {
        overlaps.incrementAndGet();
      }
      ranOn.add(Thread.currentThread());
      for (int i = 0; i < 50; i++) {
        Thread.onSpinWait(); // a little work, so runs can overlap if the pool would let them
      }
      boolean again = --remaining > 0;
      inFlight.decrementAndGet(); // volatile write publishes `remaining` to the next run
      if (again) {
        pool.execute(this);
      } else {
        finished.increment();
      }
    }
  }

  /** A task that records the thread it ran on, then counts down; no affinity set yet. */
  private static AffineTask recording(Set<Thread> ranOn, CountDownLatch ran) {
    return new AffineTask() {
      @Override
      public void run() {
        ranOn.add(Thread.currentThread());
        ran.countDown();
      }
    };
  }

  @Test
  void anAffineTaskReschedulingItselfNeverRunsOnTwoThreadsAtOnceWhileBeingStolen()
      throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("steal");
    AffinityPool pool = AffinityPool.builder().parallelism(2).threadFactory(threads).build();
    AtomicInteger overlaps = new AtomicInteger();
    LongAdder finished = new LongAdder();
    int mailboxes = 64;
    int runs = 3_000;
    Mailbox[] all = new Mailbox[mailboxes];
    for (int i = 0; i < mailboxes; i++) {
      all[i] = new Mailbox(pool, runs, overlaps, finished);
      all[i].affinity(0); // all start on stripe 0, so stripe 1 has to steal
    }
    for (Mailbox m : all) {
      pool.execute(m);
    }
    awaitTrue(
        Duration.ofSeconds(20),
        () -> finished.sum() + " of " + mailboxes + " mailboxes finished",
        () -> finished.sum() == mailboxes);
    TestSupport.shutdownAndVerify(pool, threads);
    assertEquals(0, overlaps.get(), "runs of one task that overlapped");
    assertEquals((long) mailboxes * runs, pool.completedTaskCount(), "tasks run");
    assertTrue(pool.stolenTaskCount() > 0, "stripe 1 stole from the overloaded stripe 0");
    assertTrue(
        pool.completedTaskCount(1) > 0, "the worker of stripe 1 ran tasks although none was placed");
  }

  @Test
  void withoutWorkStealingTasksWaitForTheirOwnStripe() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("no-steal");
    AffinityPool pool =
        AffinityPool.builder().parallelism(2).workStealing(false).threadFactory(threads).build();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
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
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    CountDownLatch done = new CountDownLatch(20);
    for (int i = 0; i < 20; i++) {
      AffineTask t = recording(ranOn, done);
      t.affinity(0);
      pool.execute(t);
    }
    // A bounded negative check: with stealing on, a lookout with a 10 ms maximum park would
    // have taken them well within 50 ms.
    assertTrue(!done.await(50, TimeUnit.MILLISECONDS), "nothing ran while stripe 0 was blocked");
    release.countDown();
    assertTrue(done.await(5, TimeUnit.SECONDS), "all ran once stripe 0 was free");
    TestSupport.shutdownAndVerify(pool, threads);
    assertEquals(Set.of(threads.threads.get(0)), ranOn, "only on stripe 0");
    assertEquals(0, pool.stolenTaskCount(), "nothing stolen");
  }

  @Test
  void anIdleWorkerStealsFromAStripeWhoseWorkerIsBlockedAndRebindsTheTasks() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("blocked");
    AffinityPool pool = AffinityPool.builder().parallelism(2).threadFactory(threads).build();
    CountDownLatch blockerStarted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AffineTask blocker =
        new AffineTask() {
          @Override
          public void run() {
            blockerStarted.countDown();
            TestSupport.awaitQuietly(release);
          }
        };
    blocker.affinity(0);
    pool.execute(blocker);
    assertTrue(blockerStarted.await(5, TimeUnit.SECONDS), "blocker started on stripe 0");

    int count = 100;
    CountDownLatch done = new CountDownLatch(count);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    AffineTask[] tasks = new AffineTask[count];
    for (int i = 0; i < count; i++) {
      tasks[i] =
          new AffineTask() {
            @Override
            public void run() {
              ranOn.add(Thread.currentThread());
              done.countDown();
            }
          };
      tasks[i].affinity(0);
      pool.execute(tasks[i]);
    }
    try {
      assertTrue(
          done.await(10, TimeUnit.SECONDS),
          "tasks queued behind a blocked worker ran elsewhere; missing " + done.getCount());
      assertEquals(Set.of(threads.threads.get(1)), ranOn, "all ran on the worker of stripe 1");
      for (AffineTask t : tasks) {
        assertEquals(1, t.affinity(), "a stolen task is rebound to the thief's stripe");
      }
      assertEquals(count, pool.stolenTaskCount(1), "stolen by stripe 1");
    } finally {
      release.countDown();
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  @Test
  void aTaskInTheNextTaskSlotOfAWorkerStuckInALongTaskIsTakenByAnIdlePeer() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("slot");
    AffinityPool pool = AffinityPool.builder().parallelism(2).threadFactory(threads).build();
    CountDownLatch receiverRan = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    AffineTask receiver = new AffineTask() {
      @Override
      public void run() {
        ranOn.add(Thread.currentThread());
        receiverRan.countDown();
      }
    };
    AffineTask longSender = new AffineTask() {
      @Override
      public void run() {
        ranOn.add(Thread.currentThread());
        pool.execute(receiver); // a local submission: into this worker's next-task slot
        TestSupport.awaitQuietly(release); // then a long task on the same worker
      }
    };
    longSender.affinity(0);
    pool.execute(longSender);
    assertTrue(receiverRan.await(10, TimeUnit.SECONDS),
        "the slot task waited for the long task instead of being stolen");
    release.countDown();
    TestSupport.shutdownAndVerify(pool, threads);
    assertEquals(2, ranOn.size(), "sender and receiver ran on different workers: " + ranOn);
    assertEquals(1, pool.stolenTaskCount(), "steals");
  }
  @Test
  void tasksAWorkerQueuedOnItsOwnStripeBeforeBlockingAreStolenFromItsLocalRing() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("local-ring");
    AffinityPool pool = AffinityPool.builder().parallelism(2).threadFactory(threads).build();
    int count = 50;
    CountDownLatch done = new CountDownLatch(count);
    CountDownLatch release = new CountDownLatch(1);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    AffineTask blocker =
        new AffineTask() {
          @Override
          public void run() {
            // Submitted on the worker's own thread: one into the next-task slot, the rest into
            // the worker's local ring, which only thieves can empty while we block.
            for (int i = 0; i < count; i++) {
              AffineTask t = recording(ranOn, done);
              pool.execute(t);
            }
            TestSupport.awaitQuietly(release);
          }
        };
    blocker.affinity(0);
    pool.execute(blocker);
    try {
      assertTrue(
          done.await(10, TimeUnit.SECONDS),
          "tasks in a blocked worker's local ring were not stolen; missing " + done.getCount());
      assertEquals(Set.of(threads.threads.get(1)), ranOn, "all ran on the worker of stripe 1");
      assertEquals(count, pool.stolenTaskCount(1), "stolen by stripe 1");
    } finally {
      release.countDown();
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }
}
