package dev.troupe.executors;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Shutdown against a racing submission: a producer that passed the pool's run-state check offers
 * a task while the stripe's worker leaves its loop (publishes EXITED, then sweeps its queues one
 * last time). Either the sweep runs the task, or the producer reads EXITED after its offer and runs
 * what is left itself; the task runs exactly once and nothing stays queued. The worker's thread is
 * never started: the actors run both sides with the pool's own methods.
 *
 * <p>Result: (times the task ran, tasks left in the queue).
 *
 * <p>Checked against a mutant (a private, never installed build) whose worker sweeps before it
 * publishes EXITED: quick mode reports "0, 1" (the producer read the state before the store, the
 * sweep ran before the offer, and the task stays queued with nobody left to run it).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "run once: by the final sweep or by the producer")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "lost: queued after the sweep, producer saw no EXITED")
@Outcome(expect = Expect.FORBIDDEN, desc = "run twice, or another inconsistency")
@State
public class ExitSweepTest {
  private final AffinityPool pool = UnstartedPool.of(1);
  private final AffinityWorker worker = pool.workers[0];
  private final AtomicInteger runs = new AtomicInteger();
  private final Runnable task = runs::incrementAndGet;

  @Actor
  public void producer() {
    pool.execute(task);
  }

  @Actor
  public void exitingWorker() {
    worker.exit();
  }

  @Arbiter
  public void arbiter(II_Result r) {
    r.r1 = runs.get();
    r.r2 = worker.queue.size();
  }
}
