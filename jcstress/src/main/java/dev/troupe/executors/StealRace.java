package dev.troupe.executors;

import java.util.Queue;
import java.util.function.Function;

/**
 * The shared state of the owner-vs-thief jcstress tests: stripe 0 holds two tasks (the smallest
 * backlog a thief takes from) in one of its queues; its worker polls its own queues while the
 * worker of stripe 1 steals. The workers' threads are never started: the tests' actors run the
 * owner's poll and the thief's steal with the pool's own methods.
 */
abstract class StealRace {
  final AffinityPool pool = UnstartedPool.of(2);
  final AffinityWorker owner = pool.workers[0];
  final AffinityWorker thief = pool.workers[1];
  private final Runnable task1 = () -> {};
  private final Runnable task2 = () -> {};
  private final Queue<Runnable> queue;

  /** Fills the owner's queue that {@code queueOf} picks; this thread is its one producer. */
  StealRace(Function<AffinityWorker, Queue<Runnable>> queueOf) {
    queue = queueOf.apply(owner);
    queue.offer(task1);
    queue.offer(task2);
    thief.initSightings(); // what the thief's run() does before its loop; steal() reads them
  }

  /** Owner actor: 1 or 2 for the task it polled, 0 for none. */
  int ownerPolls() {
    return id(owner.pollOwn());
  }

  /** Thief actor: 1 or 2 for the task it stole, 0 for none. */
  int thiefSteals() {
    return id(thief.steal());
  }

  /** Arbiter: the task left in the queue, 0 for none, -1 if both were left (impossible). */
  int leftInQueue() {
    int left = id(queue.poll());
    return queue.poll() != null ? -1 : left;
  }

  private int id(Runnable task) {
    return task == null ? 0 : task == task1 ? 1 : task == task2 ? 2 : -1;
  }
}
