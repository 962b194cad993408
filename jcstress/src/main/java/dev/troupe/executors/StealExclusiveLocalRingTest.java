package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link StealExclusiveTest} for the worker's local ring (the single-producer ring that holds what
 * a worker submitted to its own stripe) instead of the shared queue: each task is taken by exactly
 * one of owner and thief, or stays queued.
 *
 * <p>Result: (task the owner took, task the thief took, task left in the ring), 1 and 2 in ring
 * order, 0 for none.
 */
@JCStressTest
@Outcome(id = {"1, 2, 0", "2, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "one task each")
@Outcome(id = "1, 0, 2", expect = Expect.ACCEPTABLE, desc = "the thief saw a backlog of one and left it")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task taken twice or lost")
@State
public class StealExclusiveLocalRingTest extends StealRace {
  public StealExclusiveLocalRingTest() {
    super(w -> w.local);
  }

  @Actor
  public void ownerPolls(III_Result r) {
    r.r1 = ownerPolls();
  }

  @Actor
  public void thiefSteals(III_Result r) {
    r.r2 = thiefSteals();
  }

  @Arbiter
  public void arbiter(III_Result r) {
    r.r3 = leftInQueue();
  }
}
