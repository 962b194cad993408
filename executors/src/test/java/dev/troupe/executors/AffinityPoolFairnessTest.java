package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Order and fairness on one stripe: the shortcuts that keep local submissions out of the queue
 * (the next-task slot and the re-run of a task resubmitting itself) must not let one task overtake
 * queued ones without bound.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolFairnessTest {

  @Test
  void aTaskResubmittingItselfGoesBehindTasksAlreadyQueued() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("fair-order");
    AffinityPool pool = AffinityPool.builder().parallelism(1).threadFactory(threads).build();
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    pool.execute(
        () -> {
          blocked.countDown();
          TestSupport.awaitQuietly(release);
        });
    Runnable x =
        new Runnable() {
          int runs;

          @Override
          public void run() {
            order.add("x" + runs);
            if (++runs < 3) {
              pool.execute(this);
            } else {
              done.countDown();
            }
          }
        };
    assertTrue(blocked.await(10, TimeUnit.SECONDS), "the blocker did not start");
    pool.execute(x);
    pool.execute(() -> order.add("y"));
    release.countDown();
    assertTrue(done.await(10, TimeUnit.SECONDS), "x did not finish: " + order);
    TestSupport.shutdownAndVerify(pool, threads);
    assertEquals(List.of("x0", "y", "x1", "x2"), order, "x queued behind y, then re-ran alone");
  }

  @Test
  void aSelfResubmittingTaskAndAnExternalTaskRunWhileAPairKeepsTheSlotBusy() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("fair-slot");
    AffinityPool pool = AffinityPool.builder().parallelism(1).threadFactory(threads).build();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong pairRuns = new AtomicLong();
    AtomicLong selfRuns = new AtomicLong();
    // A ping-pong pair: each submits the other from the worker, so the two live in the slot.
    Runnable[] pair = new Runnable[2];
    for (int i = 0; i < 2; i++) {
      int partner = 1 - i;
      pair[i] =
          () -> {
            pairRuns.incrementAndGet();
            if (!stop.get()) {
              pool.execute(pair[partner]);
            }
          };
    }
    Runnable self =
        new Runnable() {
          @Override
          public void run() {
            selfRuns.incrementAndGet();
            if (!stop.get()) {
              pool.execute(this);
            }
          }
        };
    // The self-resubmitting task first: submitted second, it could arrive after any number of
    // pair runs (the test thread may be descheduled in between), which the bound below does not
    // allow for.
    pool.execute(self);
    pool.execute(pair[0]);
    awaitTrue(
        Duration.ofSeconds(10),
        () -> "self-resubmitting task ran " + selfRuns.get() + " times, the pair "
            + pairRuns.get(),
        () -> selfRuns.get() >= 10_000 && pairRuns.get() >= 10_000);
    CountDownLatch external = new CountDownLatch(1);
    pool.execute(external::countDown);
    assertTrue(
        external.await(10, TimeUnit.SECONDS),
        "an external task waited behind the pair and the self-resubmitting task");
    long before = selfRuns.get();
    awaitTrue(
        Duration.ofSeconds(10),
        () -> "self-resubmitting task stalled at " + selfRuns.get(),
        () -> selfRuns.get() >= before + 1_000);
    stop.set(true);
    // One worker: whatever read `stop` as false before this point resubmits into the slot, the
    // re-run field or the queue ahead of this marker, so once it ran nobody submits any more.
    CountDownLatch quiet = new CountDownLatch(1);
    pool.execute(quiet::countDown);
    assertTrue(quiet.await(10, TimeUnit.SECONDS), "the marker did not run");
    TestSupport.shutdownAndVerify(pool, threads);
    // Both shares are bounded by the slot budget: the pair gets at most SLOT_BUDGET runs per
    // turn of the self-resubmitting task (plus the turns in flight when counting started).
    long pairTotal = pairRuns.get();
    long own = selfRuns.get();
    assertTrue(
        pairTotal <= (own + 2) * (AffinityWorker.SLOT_BUDGET + 1),
        "pair " + pairTotal + " runs vs " + own + " of the self-resubmitting task");
  }
}
