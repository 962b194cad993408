package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Owner against thief: stripe 0 holds two queued tasks (the smallest backlog a thief takes from);
 * its worker polls its own queue while the worker of stripe 1 steals. Each task is taken by exactly
 * one of them or stays queued (the thief may see the backlog already down to one and leave it), so
 * no mailbox can ever run on two threads at once. The workers' threads are never started: the
 * actors run the owner's poll and the thief's steal with the pool's own methods.
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
public class StealExclusiveTest {
  private final AffinityPool pool = UnstartedPool.of(2);
  private final AffinityWorker owner = pool.workers[0];
  private final AffinityWorker thief = pool.workers[1];
  private final Runnable task1 = () -> {};
  private final Runnable task2 = () -> {};

  public StealExclusiveTest() {
    owner.queue.offer(task1);
    owner.queue.offer(task2);
    thief.initSightings(); // what the thief's run() does before its loop; steal() reads them
  }

  @Actor
  public void ownerPolls(III_Result r) {
    r.r1 = id(owner.pollOwn());
  }

  @Actor
  public void thiefSteals(III_Result r) {
    r.r2 = id(thief.steal());
  }

  @Arbiter
  public void arbiter(III_Result r) {
    r.r3 = id(owner.queue.poll());
    if (owner.queue.poll() != null) {
      r.r3 = -1; // both left behind: impossible, the owner always takes one
    }
  }

  private int id(Runnable task) {
    return task == null ? 0 : task == task1 ? 1 : task == task2 ? 2 : -1;
  }
}
