package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The lookout handshake, first half: an idle worker whose strategy is about to park decides
 * whether to be the pool's lookout (park with a deadline) or to park until woken, while its only
 * peer, idle until now, starts running a task. The idle worker publishes IDLE and counts itself
 * idle, then reads the lookout word and its peer's state; the peer publishes RUNNING, then reads
 * the lookout word and the idle count and, finding no lookout and an idle worker, wakes one. If
 * the idle worker parks until woken while its peer runs, nobody would look for a task stuck behind
 * the peer's long task: with no periodic look-around left, that must not happen. The threads are
 * never started: the actors run both halves with the pool's own methods.
 *
 * <p>Result: (the idle worker parks with a deadline, the idle worker was woken (WOKEN), the lookout
 * word afterwards: the idle worker's index 1, or -1 for none).
 *
 * <p>Checked against a mutant (a private, never installed build) whose running worker reads the
 * lookout word and the idle count before it publishes RUNNING: quick mode then reports "0, 0, -1".
 */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "saw the peer running: took the lookout role")
@Outcome(id = "0, 1, -1", expect = Expect.ACCEPTABLE, desc = "parks until woken, and the running peer woke it")
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "took the role and was woken too: a harmless extra wake-up")
@Outcome(id = "0, 0, -1", expect = Expect.FORBIDDEN, desc = "parks until woken while its peer runs, with no lookout and no wake-up")
@Outcome(expect = Expect.FORBIDDEN, desc = "another inconsistency")
@State
public class LookoutSummonTest {
  private final AffinityPool pool = UnstartedPool.of(2);
  private final AffinityWorker runner = pool.workers[0];
  private final AffinityWorker idler = pool.workers[1];

  public LookoutSummonTest() {
    runner.initSightings();
    idler.initSightings();
    runner.announceIdle(); // idle until the actor below starts it running
  }

  @Actor
  public void startsRunning() {
    runner.becomeRunning();
  }

  @Actor
  public void goesIdle(III_Result r) {
    idler.announceIdle();
    r.r1 = idler.idlesWithDeadline() ? 1 : 0;
  }

  @Arbiter
  public void arbiter(III_Result r) {
    r.r2 = idler.lvState() == AffinityWorker.WOKEN ? 1 : 0;
    r.r3 = pool.idleWorkers.lvLookout();
  }
}
