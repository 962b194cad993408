package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The affinity pool's park/wake-up handshake: a worker about to idle publishes IDLE and re-checks
 * its queue; a producer offers a task to that queue and then reads the worker's state, waking it
 * (IDLE to WOKEN, unpark) if it is IDLE. The worker's thread is never started: the actors run the
 * two halves of the protocol with the pool's own methods.
 *
 * <p>Result: (the worker's re-check found the task, the worker was woken).
 *
 * <p>Checked against a mutant (a private, never installed build): with the worker's IDLE store
 * weakened to a release store, quick mode reports "0, 0" (about 1 in 3,000 samples on a 2-core
 * x86 box: the store waits in the store buffer while the re-check reads the old producer index).
 * The idle-count increment that follows the store is a locked add and a fence too, so the mutant
 * has to weaken both; the real code relies on the volatile store.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the re-check found the task; no wake-up needed")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "offered after the re-check; the producer woke the worker")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "both: a harmless extra wake-up")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: task queued, worker would park unwoken")
@State
public class WakeUpHandshakeTest {
  private static final Runnable TASK = () -> {};

  private final AffinityPool pool = UnstartedPool.of(1);
  private final AffinityWorker worker = pool.workers[0];

  @Actor
  public void producer() {
    pool.execute(TASK);
  }

  @Actor
  public void worker(II_Result r) {
    worker.announceIdle();
    r.r1 = worker.pollOwn() != null ? 1 : 0;
  }

  @Arbiter
  public void arbiter(II_Result r) {
    r.r2 = worker.lvState() == AffinityWorker.WOKEN ? 1 : 0;
  }
}
