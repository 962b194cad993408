package dev.troupe.executors;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Queue selection: two threads outside the pool place two fresh tasks at once while round-robin
 * tickets last; they must land on different stripes (each ticket is handed out once), and the
 * identity cache must then route the first task back to the stripe it got.
 *
 * <p>Result: (stripe of task 1, stripe of task 2, stripe of task 1 when submitted again). A
 * mutant that takes a ticket with a get and a set instead of an atomic increment fails with
 * "0, 0, 0".
 */
@JCStressTest
@Outcome(id = {"0, 1, 0", "1, 0, 1"}, expect = Expect.ACCEPTABLE, desc = "one ticket each; the cache remembers")
@Outcome(expect = Expect.FORBIDDEN, desc = "a ticket handed out twice, or the cache forgot the stripe")
@State
public class RoundRobinPlacementTest {
  /** Never started; only its parallelism and worker lookup matter to the selector. */
  private static final AffinityPool POOL = UnstartedPool.of(2);

  private final QueueSelector selector = QueueSelector.affinityFirst(4);
  private final Runnable task1 = () -> {};
  private final Runnable task2 = () -> {};

  @Actor
  public void submitter1(III_Result r) {
    r.r1 = selector.select(task1, POOL);
  }

  @Actor
  public void submitter2(III_Result r) {
    r.r2 = selector.select(task2, POOL);
  }

  @Arbiter
  public void arbiter(III_Result r) {
    r.r3 = selector.select(task1, POOL);
  }
}
