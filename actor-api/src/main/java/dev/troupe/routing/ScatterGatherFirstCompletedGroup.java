package dev.troupe.routing;

import java.time.Duration;

/**
 * A group that sends each message to all its paths and passes the first reply back to the sender
 * (with the router as sender); without a reply within {@code within} the sender gets a {@link
 * dev.troupe.actor.Status.Failure} with an {@link dev.troupe.pattern.AskTimeoutException}.
 *
 * <p>Immutable and thread-safe; see {@link Group} for how paths are resolved.
 */
public final class ScatterGatherFirstCompletedGroup extends Group {
  private final Duration within;

  /**
   * @param paths the routee paths, at least one
   * @param within how long to wait for the first reply, positive
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries, or on another
   *     bad argument
   */
  public ScatterGatherFirstCompletedGroup(Iterable<String> paths, Duration within) {
    this(paths, null, within);
  }

  private ScatterGatherFirstCompletedGroup(Iterable<String> paths, String routerDispatcher, Duration within) {
    super(paths, routerDispatcher);
    this.within = positive(within, "within");
  }

  /** @return how long to wait for the first reply */
  public Duration within() {
    return within;
  }

  @Override
  public ScatterGatherFirstCompletedGroup withRouterDispatcher(String dispatcherId) {
    return new ScatterGatherFirstCompletedGroup(paths(), dispatcherId, within);
  }
}
