package dev.troupe.routing;

import java.util.Arrays;

/**
 * A group that sends all messages with the same key to the same path; keys as for {@link
 * ConsistentHashingPool}.
 *
 * <p>Immutable and thread-safe; see {@link Group} for how paths are resolved.
 */
public final class ConsistentHashingGroup extends Group {
  private final ConsistentHashMapper hashMapper;
  private final int virtualNodesFactor;

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries, or on another
   *     bad argument
   */
  public ConsistentHashingGroup(Iterable<String> paths) {
    this(paths, null, null, ConsistentHashingPool.DEFAULT_VIRTUAL_NODES_FACTOR);
  }

  /**
   * @param paths the routee paths, at least one
   * @throws IllegalArgumentException if {@code paths} is empty or has blank entries
   */
  public ConsistentHashingGroup(String... paths) {
    this(Arrays.asList(paths));
  }

  private ConsistentHashingGroup(Iterable<String> paths, String routerDispatcher, ConsistentHashMapper hashMapper, int virtualNodesFactor) {
    super(paths, routerDispatcher);
    this.hashMapper = hashMapper;
    this.virtualNodesFactor = positive(virtualNodesFactor, "virtualNodesFactor");
  }

  /**
   * This group with a function that maps messages to keys ({@code null} for unknown messages);
   * called in the senders' threads, so it must be thread-safe.
   *
   * @param mapper the mapper, or {@code null}
   * @return a new group
   */
  public ConsistentHashingGroup withHashMapper(ConsistentHashMapper mapper) {
    return new ConsistentHashingGroup(paths(), routerDispatcher(), mapper, virtualNodesFactor);
  }

  /**
   * This group with another number of ring points per routee.
   *
   * @param factor at least 1
   * @return a new group
   * @throws IllegalArgumentException if {@code factor < 1}
   */
  public ConsistentHashingGroup withVirtualNodesFactor(int factor) {
    return new ConsistentHashingGroup(paths(), routerDispatcher(), hashMapper, factor);
  }

  /** @return the hash mapper, or {@code null} */
  public ConsistentHashMapper hashMapper() {
    return hashMapper;
  }

  /** @return ring points per routee */
  public int virtualNodesFactor() {
    return virtualNodesFactor;
  }

  @Override
  public ConsistentHashingGroup withRouterDispatcher(String dispatcherId) {
    return new ConsistentHashingGroup(paths(), dispatcherId, hashMapper, virtualNodesFactor);
  }
}
