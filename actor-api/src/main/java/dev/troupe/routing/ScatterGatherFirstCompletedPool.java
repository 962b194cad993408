package dev.troupe.routing;

import java.time.Duration;

/**
 * A pool that sends each message to all routees and passes the first reply back to the sender;
 * later replies are dropped. If no routee replies within {@code within}, the sender gets a {@link
 * dev.troupe.actor.Status.Failure} with an {@link dev.troupe.pattern.AskTimeoutException}. The reply
 * arrives with the router as its sender.
 *
 * <p>Cost: one send per routee, one temporary reply ref and one timer per message.
 */
public final class ScatterGatherFirstCompletedPool extends Pool {
  private final Duration within;

  /**
   * @param nrOfInstances how many routees to start with, at least 1
   * @param within how long to wait for the first reply, positive
   * @throws IllegalArgumentException on a bad argument
   */
  public ScatterGatherFirstCompletedPool(int nrOfInstances, Duration within) {
    this(Common.of(nrOfInstances), within);
  }

  private ScatterGatherFirstCompletedPool(Common c, Duration within) {
    super(c);
    this.within = positive(within, "within");
  }

  /** @return how long to wait for the first reply */
  public Duration within() {
    return within;
  }

  @Override
  String extra() {
    return ", within=" + within;
  }

  @Override
  ScatterGatherFirstCompletedPool copy(Common c) {
    return new ScatterGatherFirstCompletedPool(c, within);
  }

  @Override
  public ScatterGatherFirstCompletedPool withResizer(Resizer resizer) {
    return (ScatterGatherFirstCompletedPool) super.withResizer(resizer);
  }

  @Override
  public ScatterGatherFirstCompletedPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (ScatterGatherFirstCompletedPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public ScatterGatherFirstCompletedPool withRouterDispatcher(String dispatcherId) {
    return (ScatterGatherFirstCompletedPool) super.withRouterDispatcher(dispatcherId);
  }
}
