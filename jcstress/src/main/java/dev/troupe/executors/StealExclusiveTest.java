package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Owner against thief on the shared queue (see {@link StealRace}): each task is taken by exactly
 * one of them or stays queued (the thief may see the backlog already down to one and leave it), so
 * no mailbox can ever run on two threads at once.
 *
 * <p>Result: (task the owner took, task the thief took, task left in the queue), where 1 and 2
 * are the tasks in queue order and 0 is none. Checked against a mutant (a private, never
 * installed build) whose thief reads the head without claiming it (a peek where the queue's poll
 * claims the slot with a CAS): quick mode reports "1, 1, 2" and "1, 2, 2".
 */
@JCStressTest
@Outcome(id = {"1, 2, 0", "2, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "one task each")
@Outcome(id = "1, 0, 2", expect = Expect.ACCEPTABLE, desc = "the thief saw a backlog of one and left it")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task taken twice or lost")
@State
public class StealExclusiveTest extends StealRace {
  public StealExclusiveTest() {
    super(w -> w.queue);
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
