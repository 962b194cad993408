package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.AffineTask;
import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolPlacementTest {

  private final RecordingThreadFactory threads = new RecordingThreadFactory("placement");
  // No stealing: on a loaded machine a descheduled owner looks stuck, and a thief may rightly take
  // its single task; placement itself is what these tests pin.
  private final AffinityPool pool =
      AffinityPool.builder().parallelism(4).workStealing(false).threadFactory(threads).build();

  @AfterEach
  void shutdown() throws InterruptedException {
    TestSupport.shutdownAndVerify(pool, threads);
  }

  /** Runs {@code body} on the worker of {@code stripe} and waits for it. */
  private void onWorker(int stripe, Runnable body) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    AffineTask task =
        new AffineTask() {
          @Override
          public void run() {
            try {
              body.run();
              done.complete(null);
            } catch (Throwable t) {
              done.completeExceptionally(t);
            }
          }
        };
    task.affinity(stripe);
    pool.execute(task);
    done.get(5, TimeUnit.SECONDS);
  }

  @Test
  void anUnboundAffineTaskSubmittedFromAWorkerRunsOnThatWorkerAndIsBoundToIt() throws Exception {
    for (int stripe = 0; stripe < pool.parallelism(); stripe++) {
      BlockingQueue<Thread> ranOn = new ArrayBlockingQueue<>(1);
      AffineTask child =
          new AffineTask() {
            @Override
            public void run() {
              ranOn.add(Thread.currentThread());
            }
          };
      Thread[] submitter = new Thread[1];
      int expected = stripe;
      onWorker(
          stripe,
          () -> {
            submitter[0] = Thread.currentThread();
            assertEquals(expected, pool.currentWorkerIndex(), "index of the submitting worker");
            pool.execute(child);
          });
      Thread thread = ranOn.poll(5, TimeUnit.SECONDS);
      assertSame(submitter[0], thread, "child of stripe " + stripe + " ran on its submitter");
      assertEquals(stripe, child.affinity(), "child is bound to the submitting worker's stripe");
    }
  }

  @Test
  void aBoundAffineTaskKeepsItsStripeWhenResubmittedFromOutside() throws Exception {
    BlockingQueue<Thread> ranOn = new ArrayBlockingQueue<>(1);
    AffineTask task =
        new AffineTask() {
          @Override
          public void run() {
            ranOn.add(Thread.currentThread());
          }
        };
    task.affinity(2);
    Thread expected = threads.threads.get(2);
    for (int i = 0; i < 50; i++) {
      pool.execute(task);
      assertSame(expected, ranOn.poll(5, TimeUnit.SECONDS), "run " + i + " on stripe 2");
      assertEquals(2, task.affinity(), "hint unchanged after run " + i);
    }
  }

  @Test
  void aPlainRunnableSubmittedFromAWorkerRunsOnThatWorker() throws Exception {
    BlockingQueue<Thread> ranOn = new ArrayBlockingQueue<>(1);
    Thread[] submitter = new Thread[1];
    onWorker(
        3,
        () -> {
          submitter[0] = Thread.currentThread();
          pool.execute(() -> ranOn.add(Thread.currentThread()));
        });
    assertSame(submitter[0], ranOn.poll(5, TimeUnit.SECONDS), "ran on the submitting worker");
  }

  @Test
  void externalUnboundAffineTasksAreSpreadRoundRobinUpToTheThresholdAndNotBound() {
    QueueSelector selector = QueueSelector.affinityFirst(8);
    List<Integer> stripes = new ArrayList<>();
    List<AffineTask> tasks = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      AffineTask t =
          new AffineTask() {
            @Override
            public void run() {}
          };
      tasks.add(t);
      stripes.add(selector.select(t, pool));
    }
    assertEquals(List.of(0, 1, 2, 3, 0, 1, 2, 3), stripes.subList(0, 8), "round-robin first");
    for (int i = 8; i < 12; i++) {
      assertEquals(
          AffinityFirstSelector.hashStripe(tasks.get(i), 4), stripes.get(i), "hashed after");
    }
    for (AffineTask t : tasks) {
      assertEquals(Affine.NO_AFFINITY, t.affinity(), "external placement does not bind");
    }
  }

  @Test
  void plainRunnablesKeepTheirStripeAndOnlyTheFirstThresholdManyAreCached() {
    QueueSelector selector = QueueSelector.affinityFirst(2);
    Runnable a = () -> {};
    Runnable b = () -> {};
    Runnable c = () -> {};
    assertEquals(0, selector.select(a, pool), "first plain runnable, round-robin");
    assertEquals(1, selector.select(b, pool), "second plain runnable, round-robin");
    int hashed = AffinityFirstSelector.hashStripe(c, 4);
    for (int i = 0; i < 5; i++) {
      assertEquals(0, selector.select(a, pool), "a keeps its cached stripe");
      assertEquals(1, selector.select(b, pool), "b keeps its cached stripe");
      assertEquals(hashed, selector.select(c, pool), "c, beyond the threshold, is hashed");
    }
  }

  @Test
  void theIdentityHashSpreadsTasksOverAllStripes() {
    int[] perStripe = new int[4];
    for (int i = 0; i < 4_000; i++) {
      perStripe[AffinityFirstSelector.hashStripe(new Object(), 4)]++;
    }
    for (int s = 0; s < 4; s++) {
      assertTrue(perStripe[s] > 700, "stripe " + s + " got " + perStripe[s] + " of 4000");
    }
  }

  @Test
  void aSelectorReturningAnInvalidStripeFailsTheSubmission() throws InterruptedException {
    RecordingThreadFactory own = new RecordingThreadFactory("bad-selector");
    AffinityPool bad =
        AffinityPool.builder()
            .parallelism(2)
            .threadFactory(own)
            .queueSelector((task, p) -> 7)
            .build();
    try {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> bad.execute(() -> {}));
      assertTrue(e.getMessage().contains("returned stripe 7"), e.getMessage());
    } finally {
      TestSupport.shutdownAndVerify(bad, own);
    }
  }
}
