package dev.troupe.bench.alone;

import dev.troupe.bench.common.Completion;
import dev.troupe.executors.Affine;
import dev.troupe.executors.AffinityPool;
import java.util.concurrent.ExecutorService;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Mailbox-shaped load for a bare executor: each stream is one {@link Runnable} that does one unit
 * of work per run and resubmits itself while work remains, the way an actor's mailbox is
 * rescheduled after each turn. Executors that place a task by its identity (the affinity pool) keep
 * a stream on one stripe, so a skewed load shows whether the other threads stay busy.
 */
public final class Streams {
  /** CPU burned per task, in {@link Blackhole#consumeCPU} tokens (a few hundred nanoseconds). */
  public static final int TOKENS = 50;

  private Streams() {}

  /**
   * Runs the streams to completion and waits (bounded).
   *
   * @param executor the executor under test
   * @param tasksPerStream how many tasks each stream runs
   */
  public static void run(ExecutorService executor, int[] tasksPerStream) {
    run(executor, tasksPerStream, null);
  }

  /**
   * Runs the streams to completion and waits (bounded), each stream first bound to a stripe the
   * way a mailbox that last ran there is: an {@link AffinityPool} places it on that stripe, other
   * executors ignore the hint.
   *
   * @param executor the executor under test
   * @param tasksPerStream how many tasks each stream runs
   * @param stripes the stripe of each stream, or null for unbound streams
   */
  public static void run(ExecutorService executor, int[] tasksPerStream, int[] stripes) {
    Completion done = new Completion(tasksPerStream.length);
    for (int i = 0; i < tasksPerStream.length; i++) {
      Stream stream = new Stream(executor, tasksPerStream[i], done);
      if (stripes != null) {
        stream.affinity(stripes[i]);
      }
      executor.execute(stream);
    }
    done.await("executor streams");
  }

  private static final class Stream implements Runnable, Affine {
    private final ExecutorService executor;
    private final Completion done;
    private int remaining; // touched by one task at a time; the executor's hand-off publishes it
    private int stripe = Affine.NO_AFFINITY; // the pool's hint, racy by design (see Affine)

    Stream(ExecutorService executor, int tasks, Completion done) {
      this.executor = executor;
      this.remaining = tasks;
      this.done = done;
    }

    @Override
    public int affinity() {
      return stripe;
    }

    @Override
    public void affinity(int stripe) {
      this.stripe = stripe;
    }

    @Override
    public void run() {
      Blackhole.consumeCPU(TOKENS);
      if (--remaining > 0) {
        executor.execute(this);
      } else {
        done.done();
      }
    }
  }
}
