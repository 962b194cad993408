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

  /**
   * Padding in front of a stream's fields. The streams are allocated back to back and are 24 bytes
   * each: unpadded, neighbours share a cache line, and every task of one stream invalidates the
   * line of the stream that another thread runs next to it. Which executor pays more for that
   * depends only on which neighbours it puts on different threads (measured: round-robin placement
   * alternates them and lost about a quarter of its rate to it), which says nothing about the
   * executor; an actor's mailbox lies among its cell and actor objects, hundreds of bytes from the
   * next actor's. Pads are class layers because HotSpot orders a class's own fields by size (longs
   * first), but lays a superclass's fields out before its subclass's.
   */
  private abstract static class StreamPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
  }

  /** A stream's state, between the two pads. */
  private abstract static class StreamFields extends StreamPad {
    final ExecutorService executor;
    final Completion done;
    int remaining; // touched by one task at a time; the executor's hand-off publishes it
    int stripe = Affine.NO_AFFINITY; // the pool's hint, racy by design (see Affine)

    StreamFields(ExecutorService executor, int tasks, Completion done) {
      this.executor = executor;
      this.remaining = tasks;
      this.done = done;
    }
  }

  private static final class Stream extends StreamFields implements Runnable, Affine {
    // Padding behind the fields: keeps the next stream off their lines.
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;

    Stream(ExecutorService executor, int tasks, Completion done) {
      super(executor, tasks, done);
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
