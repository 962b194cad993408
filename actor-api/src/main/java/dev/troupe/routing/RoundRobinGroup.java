package dev.troupe.routing;

import java.util.Arrays;

/**
 * A group that sends to its routee paths in turn (exact order for one sender).
 *
 * <p>Immutable and thread-safe; see {@link Group} for how paths are resolved.
 */
public final class RoundRobinGroup extends Group {

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries, or on another
   *     bad argument
   */
  public RoundRobinGroup(Iterable<String> paths) {
    this(paths, null);
  }

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries
   */
  public RoundRobinGroup(String... paths) {
    this(Arrays.asList(paths));
  }

  private RoundRobinGroup(Iterable<String> paths, String routerDispatcher) {
    super(paths, routerDispatcher);
  }

  @Override
  public RoundRobinGroup withRouterDispatcher(String dispatcherId) {
    return new RoundRobinGroup(paths(), dispatcherId);
  }
}
