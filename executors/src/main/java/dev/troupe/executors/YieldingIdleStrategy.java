package dev.troupe.executors;

/**
 * Calls {@link Thread#yield()}: gives the core to other runnable threads but keeps the worker
 * runnable, so it still uses a core when the machine is otherwise idle. Stateless, so one
 * instance may be shared.
 */
public final class YieldingIdleStrategy implements IdleStrategy {

  /** A shared instance. */
  public static final YieldingIdleStrategy INSTANCE = new YieldingIdleStrategy();

  /** Creates a yielding strategy. */
  public YieldingIdleStrategy() {}

  @Override
  public void idle() {
    Thread.yield();
  }

  @Override
  public void reset() {}

  /** Never parks: the worker keeps yielding and looking around for work itself. */
  @Override
  public boolean parksNext() {
    return false;
  }

  @Override
  public String toString() {
    return "YieldingIdleStrategy";
  }
}
