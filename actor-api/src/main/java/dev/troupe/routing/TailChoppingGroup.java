package dev.troupe.routing;

import java.time.Duration;

/**
 * A group that sends each message to one path chosen at random, then to another every {@code
 * interval} without a reply, and passes the first reply back to the sender (with the router as
 * sender); without one within {@code within} the sender gets a {@link
 * dev.troupe.actor.Status.Failure} with an {@link dev.troupe.pattern.AskTimeoutException}.
 *
 * <p>Immutable and thread-safe; see {@link Group} for how paths are resolved.
 */
public final class TailChoppingGroup extends Group {
  private final Duration within;
  private final Duration interval;

  /**
   * @param paths the routee paths, at least one
   * @param within how long to wait for a reply in total, positive
   * @param interval the delay between tries, positive
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries, or on another
   *     bad argument
   */
  public TailChoppingGroup(Iterable<String> paths, Duration within, Duration interval) {
    this(paths, null, within, interval);
  }

  private TailChoppingGroup(Iterable<String> paths, String routerDispatcher, Duration within, Duration interval) {
    super(paths, routerDispatcher);
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
  public TailChoppingGroup withRouterDispatcher(String dispatcherId) {
    return new TailChoppingGroup(paths(), dispatcherId, within, interval);
  }
}
