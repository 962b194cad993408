package dev.troupe.executors;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;

/**
 * A quick measurement (not a test, not a benchmark of record) behind the queue choice of
 * {@link AffinityPool}: MPMC vs. MPSC with a consumer-claim word (the two ways to allow stealing)
 * vs. plain MPSC (no stealing possible), for the two patterns that matter: a worker pushing to and
 * polling its own queue (local push, the actor ping-pong case) and one producer feeding one
 * consumer thread. Run it with:
 *
 * <pre>
 * mvn -q -pl executors test-compile
 * java -cp executors/target/classes:executors/target/test-classes:$HOME/.m2/repository/org/jctools/jctools-core/4.0.5/jctools-core-4.0.5.jar \
 *     dev.troupe.executors.QueueChoiceMeasurement
 * </pre>
 *
 * <p>A JMH benchmark in the {@code bench} module should replace this.
 */
public final class QueueChoiceMeasurement {

  private static final int CAPACITY = 512;
  private static final int OPS = 20_000_000;
  private static final Integer ITEM = 42;

  /** The operations a worker does on its own queue. */
  interface Q {
    boolean offer(Integer e);

    Integer poll();
  }

  static Q mpsc() {
    Queue<Integer> q = new MpscAtomicArrayQueue<>(CAPACITY);
    return new Q() {
      public boolean offer(Integer e) {
        return q.offer(e);
      }

      public Integer poll() {
        return q.poll();
      }
    };
  }

  static Q mpscClaim() {
    Queue<Integer> q = new MpscAtomicArrayQueue<>(CAPACITY);
    AtomicInteger claim = new AtomicInteger();
    return new Q() {
      public boolean offer(Integer e) {
        return q.offer(e);
      }

      public Integer poll() {
        if (!claim.compareAndSet(0, 1)) {
          return null; // a thief holds the consumer role
        }
        try {
          return q.poll();
        } finally {
          claim.setRelease(0);
        }
      }
    };
  }

  static Q mpmc() {
    Queue<Integer> q = new MpmcAtomicArrayQueue<>(CAPACITY);
    return new Q() {
      public boolean offer(Integer e) {
        return q.offer(e);
      }

      public Integer poll() {
        return q.poll();
      }
    };
  }

  static long localPushNanosPerOp(Q q) {
    long start = System.nanoTime();
    for (int i = 0; i < OPS; i++) {
      q.offer(ITEM);
      if (q.poll() == null) {
        throw new AssertionError();
      }
    }
    return (System.nanoTime() - start);
  }

  static long crossThreadNanos(Q q) throws InterruptedException {
    Thread producer =
        new Thread(
            () -> {
              for (int i = 0; i < OPS; i++) {
                while (!q.offer(ITEM)) {
                  Thread.onSpinWait();
                }
              }
            });
    long start = System.nanoTime();
    producer.start();
    for (int i = 0; i < OPS; ) {
      if (q.poll() != null) {
        i++;
      } else {
        Thread.onSpinWait();
      }
    }
    long t = System.nanoTime() - start;
    producer.join();
    return t;
  }

  static void measure(String name, Supplier<Q> queues) throws InterruptedException {
    long bestLocal = Long.MAX_VALUE;
    long bestCross = Long.MAX_VALUE;
    for (int round = 0; round < 5; round++) {
      bestLocal = Math.min(bestLocal, localPushNanosPerOp(queues.get()));
      bestCross = Math.min(bestCross, crossThreadNanos(queues.get()));
    }
    System.out.printf(
        "%-12s local push+poll %6.2f ns/op   1P1C %6.2f ns/op%n",
        name, (double) bestLocal / OPS, (double) bestCross / OPS);
  }

  public static void main(String[] args) throws InterruptedException {
    System.out.println(
        "JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
    for (int i = 0; i < 2; i++) {
      measure("mpsc", QueueChoiceMeasurement::mpsc);
      measure("mpsc+claim", QueueChoiceMeasurement::mpscClaim);
      measure("mpmc", QueueChoiceMeasurement::mpmc);
    }
  }
}
