package dev.troupe.routing;

import java.time.Duration;

/**
 * A pool that sends each message to one routee chosen at random, then, every {@code interval}
 * without a reply, to another routee not tried yet, and passes the first reply back to the sender
 * (with the router as sender). If none arrives within {@code within}, the sender gets a {@link
 * dev.troupe.actor.Status.Failure} with an {@link dev.troupe.pattern.AskTimeoutException}. Trades
 * extra work for lower tail latency.
 *
 * <p>Cost: one temporary reply ref, one timer for the deadline and one repeating timer per message.
 */
public final class TailChoppingPool extends Pool {
  private final Duration within;
  private final Duration interval;

  /**
   * @param nrOfInstances how many routees to start with, at least 1
   * @param within how long to wait for a reply in total, positive
   * @param interval how long to wait before trying the next routee, positive
   * @throws IllegalArgumentException on a bad argument
   */
  public TailChoppingPool(int nrOfInstances, Duration within, Duration interval) {
    this(Common.of(nrOfInstances), within, interval);
  }

  private TailChoppingPool(Common c, Duration within, Duration interval) {
    super(c);
    this.within = positive(within, "within");
    this.interval = positive(interval, "interval");
  }

  /** @return how long to wait for a reply in total */
  public Duration within() {
    return within;
  }

  /** @return the delay between tries */
  public Duration interval() {
    return interval;
  }

  @Override
  String extra() {
    return ", within=" + within + ", interval=" + interval;
  }

  @Override
  TailChoppingPool copy(Common c) {
    return new TailChoppingPool(c, within, interval);
  }

  @Override
  public TailChoppingPool withResizer(Resizer resizer) {
    return (TailChoppingPool) super.withResizer(resizer);
  }

  @Override
  public TailChoppingPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (TailChoppingPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public TailChoppingPool withRouterDispatcher(String dispatcherId) {
    return (TailChoppingPool) super.withRouterDispatcher(dispatcherId);
  }
}
