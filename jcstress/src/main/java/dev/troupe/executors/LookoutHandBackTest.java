package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The lookout handshake, second half: the lookout has seen its peers quiet for longer than the
 * linger and gives the role back (CAS on the lookout word, then a look at its peers' states),
 * while its only peer, idle until now, starts running a task (publishes RUNNING, then reads the
 * lookout word and the idle count). Either the lookout sees the peer running and keeps the role,
 * or the peer finds the role free and wakes the lookout, which comes back and takes it. Never
 * both missed: the peer would run with nobody looking out for it. The threads are never started.
 *
 * <p>Result: (the lookout keeps parking with a deadline, the lookout was woken (WOKEN), the lookout
 * word afterwards).
 *
 * <p>Checked against a mutant (a private, never installed build) whose lookout looks at its peers
 * before it frees the word: quick mode then reports "0, 0, -1".
 */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "saw the peer running: kept the role")
@Outcome(id = "0, 1, -1", expect = Expect.ACCEPTABLE, desc = "gave the role back, and the running peer woke it")
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "kept the role and was woken too: a harmless extra wake-up")
@Outcome(id = "0, 0, -1", expect = Expect.FORBIDDEN, desc = "gave the role back unseen while its peer runs: nobody looks out")
@Outcome(expect = Expect.FORBIDDEN, desc = "another inconsistency")
@State
public class LookoutHandBackTest {
  private final AffinityPool pool = UnstartedPool.of(2);
  private final AffinityWorker runner = pool.workers[0];
  private final AffinityWorker lookout = pool.workers[1];

  public LookoutHandBackTest() {
    runner.initSightings();
    lookout.initSightings();
    runner.announceIdle();
    lookout.announceIdle();
    pool.idleWorkers.casLookout(IdleWorkers.NO_LOOKOUT, lookout.index);
    // Quiet for a second already: this look gives the role back unless the peer is seen running.
    lookout.lookoutQuietSince = System.nanoTime() - 1_000_000_000L;
  }

  @Actor
  public void startsRunning() {
    runner.becomeRunning();
  }

  @Actor
  public void looksAround(III_Result r) {
    r.r1 = lookout.idlesWithDeadline() ? 1 : 0;
  }

  @Arbiter
  public void arbiter(III_Result r) {
    r.r2 = lookout.lvState() == AffinityWorker.WOKEN ? 1 : 0;
    r.r3 = pool.idleWorkers.lvLookout();
  }
}
