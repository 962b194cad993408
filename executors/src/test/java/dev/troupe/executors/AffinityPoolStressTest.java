package dev.troupe.executors;

import static dev.troupe.executors.TestSupport.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AffinityPoolStressTest {

  private static final int PRODUCERS = 4;
  private static final int TOTAL = 10_000_000;
  /** Tasks with an id below this are tracked individually. */
  private static final int TRACKED = 200_000;

  @Test
  void tenMillionTasksFromSeveralProducersRunExactlyOnceEach() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("stress");
    AffinityPool pool =
        AffinityPool.builder().parallelism(2).taskQueueSize(1024).threadFactory(threads).build();
    LongAdder ran = new LongAdder();
    AtomicIntegerArray runsPerId = new AtomicIntegerArray(TRACKED);
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int first = p;
      Thread producer =
          new Thread(
              () -> {
                for (int id = first; id < TOTAL; id += PRODUCERS) {
                  if (id < TRACKED) {
                    int tracked = id;
                    pool.execute(
                        () -> {
                          runsPerId.incrementAndGet(tracked);
                          ran.increment();
                        });
                  } else {
                    pool.execute(ran::increment);
                  }
                }
              },
              "producer-" + p);
      producers.add(producer);
      producer.start();
    }
    for (Thread producer : producers) {
      producer.join(TimeUnit.SECONDS.toMillis(40));
      assertTrue(!producer.isAlive(), producer.getName() + " did not finish submitting in 40 s");
    }
    awaitTrue(
        Duration.ofSeconds(15),
        () -> "ran " + ran.sum() + " of " + TOTAL + " tasks",
        () -> ran.sum() >= TOTAL);
    TestSupport.shutdownAndVerify(pool, threads);
    assertEquals(TOTAL, ran.sum(), "every task runs exactly once in total");
    for (int id = 0; id < TRACKED; id++) {
      assertEquals(1, runsPerId.get(id), "runs of tracked task " + id);
    }
  }

  @Test
  void tasksSubmittedFromWorkersThroughTinyQueuesAreNeitherLostNorDuplicated() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("fanout");
    // Queues of 4 force the rejection path: other stripes, then spilling to overflow on workers.
    AffinityPool pool =
        AffinityPool.builder().parallelism(3).taskQueueSize(4).threadFactory(threads).build();
    int depth = 14; // a binary tree of 2^15 - 1 tasks
    int nodes = (1 << (depth + 1)) - 1;
    AtomicIntegerArray runs = new AtomicIntegerArray(nodes);
    LongAdder ran = new LongAdder();
    class Node implements Runnable {
      final int id;

      Node(int id) {
        this.id = id;
      }

      @Override
      public void run() {
        runs.incrementAndGet(id);
        ran.increment();
        int left = 2 * id + 1;
        if (left < nodes) {
          pool.execute(new Node(left));
          pool.execute(new Node(left + 1));
        }
      }
    }
    pool.execute(new Node(0));
    awaitTrue(
        Duration.ofSeconds(20),
        () -> "ran " + ran.sum() + " of " + nodes + " tasks",
        () -> ran.sum() >= nodes);
    TestSupport.shutdownAndVerify(pool, threads);
    for (int id = 0; id < nodes; id++) {
      assertEquals(1, runs.get(id), "runs of node " + id);
    }
  }
}
