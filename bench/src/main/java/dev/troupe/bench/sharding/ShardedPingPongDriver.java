package dev.troupe.bench.sharding;

import dev.troupe.bench.common.Impl;
import org.HdrHistogram.Histogram;

/**
 * One side of {@code ShardedPingPong}: {@value #NODES} cluster nodes of one framework in this JVM
 * (loopback, ephemeral ports), each with a shard region of the entity type {@code Ponger}. Pinger
 * {@code i} runs on node {@code i % }{@value #NODES} and sends through that node's region to its own
 * entity, which the cluster places on any of the nodes (some hops local, most remote); each entity
 * answers its pinger directly.
 */
public interface ShardedPingPongDriver {
  /** The cluster's nodes. */
  int NODES = 3;

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

  /** Terminates every node (bounded). */
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
