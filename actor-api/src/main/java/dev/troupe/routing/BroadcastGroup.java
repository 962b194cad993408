package dev.troupe.routing;

import java.util.Arrays;

/**
 * A group that sends every message to all its paths.
 *
 * <p>Immutable and thread-safe; see {@link Group} for how paths are resolved.
 */
public final class BroadcastGroup extends Group {

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries, or on another
   *     bad argument
   */
  public BroadcastGroup(Iterable<String> paths) {
    this(paths, null);
  }

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries
   */
  public BroadcastGroup(String... paths) {
    this(Arrays.asList(paths));
  }

  private BroadcastGroup(Iterable<String> paths, String routerDispatcher) {
    super(paths, routerDispatcher);
  }

  @Override
  public BroadcastGroup withRouterDispatcher(String dispatcherId) {
    return new BroadcastGroup(paths(), dispatcherId);
  }
}
