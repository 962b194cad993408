package dev.troupe.executors;

/**
 * Spins with {@link Thread#onSpinWait()}: the lowest wake-up latency, one core busy per idle
 * worker. Stateless, so one instance may be shared.
 */
public final class BusySpinIdleStrategy implements IdleStrategy {

  /** A shared instance. */
  public static final BusySpinIdleStrategy INSTANCE = new BusySpinIdleStrategy();

  /** Creates a busy-spin strategy. */
  public BusySpinIdleStrategy() {}

  @Override
  public void idle() {
    Thread.onSpinWait();
  }

  @Override
  public void reset() {}

  /** Never parks: the worker keeps spinning and looking around for work itself. */
  @Override
  public boolean parksNext() {
    return false;
  }

  @Override
  public String toString() {
    return "BusySpinIdleStrategy";
  }
}
