package dev.troupe.routing;

/**
 * A pool that sends all messages with the same key to the same routee, as long as the routees do
 * not change. The key is taken from, in this order: the {@link ConsistentHashMapper} (if it returns
 * non-null), a {@link ConsistentHashableEnvelope} (the routee gets the inner message), or a message
 * that implements {@link ConsistentHashable}. A message with no key goes to dead letters.
 *
 * <p>Routees sit on a hash ring with {@code virtualNodesFactor} points each, so adding or removing
 * one routee moves only about {@code 1/n} of the keys. Cost: one hash and a binary search over
 * {@code n * virtualNodesFactor} points per message; the ring is rebuilt only when routees change.
 */
public final class ConsistentHashingPool extends Pool {
  /** Virtual nodes per routee unless set otherwise. */
  public static final int DEFAULT_VIRTUAL_NODES_FACTOR = 10;

  private final ConsistentHashMapper hashMapper;
  private final int virtualNodesFactor;

  /**
   * @param nrOfInstances how many routees to start with, at least 1
   * @throws IllegalArgumentException if {@code nrOfInstances < 1}
   */
  public ConsistentHashingPool(int nrOfInstances) {
    this(Common.of(nrOfInstances), null, DEFAULT_VIRTUAL_NODES_FACTOR);
  }

  private ConsistentHashingPool(Common c, ConsistentHashMapper hashMapper, int virtualNodesFactor) {
    super(c);
    this.hashMapper = hashMapper;
    this.virtualNodesFactor = positive(virtualNodesFactor, "virtualNodesFactor");
  }

  /**
   * This pool with a function that maps messages to keys (return {@code null} for messages it does
   * not know; they then need a {@link ConsistentHashableEnvelope} or {@link ConsistentHashable}).
   * It is called in the senders' threads and must be thread-safe.
   *
   * @param mapper the mapper, or {@code null} for none
   * @return a new pool
   */
  public ConsistentHashingPool withHashMapper(ConsistentHashMapper mapper) {
    return new ConsistentHashingPool(common, mapper, virtualNodesFactor);
  }

  /**
   * This pool with another number of ring points per routee.
   *
   * @param factor at least 1; more points spread keys more evenly and cost a slightly bigger ring
   * @return a new pool
   * @throws IllegalArgumentException if {@code factor < 1}
   */
  public ConsistentHashingPool withVirtualNodesFactor(int factor) {
    return new ConsistentHashingPool(common, hashMapper, factor);
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
  String extra() {
    return ", virtualNodesFactor=" + virtualNodesFactor;
  }

  @Override
  ConsistentHashingPool copy(Common c) {
    return new ConsistentHashingPool(c, hashMapper, virtualNodesFactor);
  }

  @Override
  public ConsistentHashingPool withResizer(Resizer resizer) {
    return (ConsistentHashingPool) super.withResizer(resizer);
  }

  @Override
  public ConsistentHashingPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (ConsistentHashingPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public ConsistentHashingPool withRouterDispatcher(String dispatcherId) {
    return (ConsistentHashingPool) super.withRouterDispatcher(dispatcherId);
  }
}
