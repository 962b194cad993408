package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two producers give work to one idle (parked) worker at the same time: exactly one of them wins
 * the IDLE to WOKEN transition and pays for the unpark, and the pool's idle count goes back to
 * zero exactly once.
 *
 * <p>Result: (producer 1 woke it, producer 2 woke it, idle count afterwards). A mutant whose
 * wake-up checks IDLE and then stores WOKEN (no CAS) fails with "1, 1, -1".
 */
@JCStressTest
@Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "one wake-up, idle count consistent")
@Outcome(expect = Expect.FORBIDDEN, desc = "no wake-up, two wake-ups, or a wrong idle count")
@State
public class WakeOnceTest {
  private final AffinityPool pool = UnstartedPool.of(1);
  private final AffinityWorker worker = pool.workers[0];

  public WakeOnceTest() {
    worker.announceIdle(); // as if it had found nothing and parked
  }

  @Actor
  public void producer1(III_Result r) {
    r.r1 = worker.lvState() == AffinityWorker.IDLE && worker.wake() ? 1 : 0;
  }

  @Actor
  public void producer2(III_Result r) {
    r.r2 = worker.lvState() == AffinityWorker.IDLE && worker.wake() ? 1 : 0;
  }

  @Arbiter
  public void arbiter(III_Result r) {
    r.r3 = (int) pool.idleWorkers.lv();
  }
}
