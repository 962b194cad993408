package dev.troupe.bench.sharding;

import dev.troupe.bench.common.Impl;
import org.HdrHistogram.Histogram;

/**
 * One side of {@code ShardedPingPong}: two cluster nodes of one framework in this JVM (loopback,
 * ephemeral ports), each with a shard region of the entity type {@code Ponger}. Pingers on the
 * first node send through its region to {@code pairs} entities, which the cluster spreads over both
 * nodes (some hops local, some remote); each entity answers its pinger directly.
 */
public interface ShardedPingPongDriver {
  /**
   * Forms the cluster, starts the regions and the pingers, and waits until every entity answered once.
   *
   * @param pairs pinger/entity pairs
   * @param inFlight pings outstanding per pair
   */
  void setup(int pairs, int inFlight);

  /**
   * Runs one invocation and waits for it (bounded).
   *
   * @param roundTripsPerPair round trips each pair does
   * @param histograms one per pair, where its pinger records each round trip in nanoseconds
   */
  void runIteration(int roundTripsPerPair, Histogram[] histograms);

  /** Terminates both nodes (bounded). */
  void teardown();

  /**
   * @param impl troupe or pekko
   * @return its driver
   */
  static ShardedPingPongDriver create(String impl) {
    Impl i = Impl.of(impl);
    if (i == Impl.TROUPE) {
      return new TroupeSharded();
    }
    if (i == Impl.PEKKO) {
      return new PekkoSharded();
    }
    throw new IllegalArgumentException("ShardedPingPong compares troupe and pekko, not " + impl);
  }
}
