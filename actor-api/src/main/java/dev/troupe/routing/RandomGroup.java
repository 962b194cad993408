package dev.troupe.routing;

import java.util.Arrays;

/**
 * A group that sends each message to one of its paths chosen uniformly at random.
 *
 * <p>Immutable and thread-safe; see {@link Group} for how paths are resolved.
 */
public final class RandomGroup extends Group {

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries, or on another
   *     bad argument
   */
  public RandomGroup(Iterable<String> paths) {
    this(paths, null);
  }

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries
   */
  public RandomGroup(String... paths) {
    this(Arrays.asList(paths));
  }

  private RandomGroup(Iterable<String> paths, String routerDispatcher) {
    super(paths, routerDispatcher);
  }

  @Override
  public RandomGroup withRouterDispatcher(String dispatcherId) {
    return new RandomGroup(paths(), dispatcherId);
  }
}
