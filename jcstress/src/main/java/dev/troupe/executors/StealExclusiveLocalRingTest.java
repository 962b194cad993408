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
 * a worker submitted to its own stripe) instead of the shared queue: the owner polls while a thief
 * steals from a backlog of two. Each task is taken by exactly one of them or stays queued.
 *
 * <p>Result: (task the owner took, task the thief took, task left in the ring), 1 and 2 in ring
 * order, 0 for none.
 */
@JCStressTest
@Outcome(id = {"1, 2, 0", "2, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "one task each")
@Outcome(id = "1, 0, 2", expect = Expect.ACCEPTABLE, desc = "the thief saw a backlog of one and left it")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task taken twice or lost")
@State
public class StealExclusiveLocalRingTest {
  private final AffinityPool pool = UnstartedPool.of(2);
  private final AffinityWorker owner = pool.workers[0];
  private final AffinityWorker thief = pool.workers[1];
  private final Runnable task1 = () -> {};
  private final Runnable task2 = () -> {};

  public StealExclusiveLocalRingTest() {
    // The ring's one producer is the thread that builds the state; the actors only consume.
    owner.local.offer(task1);
    owner.local.offer(task2);
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
    r.r3 = id(owner.local.poll());
    if (owner.local.poll() != null) {
      r.r3 = -1; // both left behind: impossible, the owner always takes one
    }
  }

  private int id(Runnable task) {
    return task == null ? 0 : task == task1 ? 1 : task == task2 ? 2 : -1;
  }
}
