package dev.troupe.bench.pubsub;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Impl;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * One side of {@code PubSubPublish}: two cluster members of one framework in this JVM (loopback,
 * ephemeral ports), each with {@code subscribers} actors subscribed to one topic through its
 * member's publish-subscribe mediator; the benchmark thread publishes on the first member.
 */
public interface PubSubDriver {
  /** The topic every subscriber is on. */
  String TOPIC = "bench";

  /**
   * Forms the cluster, subscribes, and waits until the first member knows of both members'
   * subscriptions.
   *
   * @param subscribers subscribers per member
   */
  void setup(int subscribers);

  /**
   * Tells every subscriber to count {@code messages} deliveries, then publishes that many messages
   * on the first member, and waits (bounded) until every subscriber counted them.
   *
   * @param messages messages to publish
   */
  void runIteration(int messages);

  /** Terminates both members (bounded). */
  void teardown();

  /** Starts an iteration at a subscriber (local, never serialized). */
  record Expect(Completion done, int messages) {}

  /**
   * @param impl troupe or pekko
   * @return its driver
   */
  static PubSubDriver create(String impl) {
    Impl i = Impl.of(impl);
    if (i == Impl.TROUPE) {
      return new TroupePubSub();
    }
    if (i == Impl.PEKKO) {
      return new PekkoPubSub();
    }
    throw new IllegalArgumentException("PubSubPublish compares troupe and pekko, not " + impl);
  }

  /** Waits (polling; set-up only) until {@code done}, or fails naming {@code what}. */
  static void await(String what, BooleanSupplier done) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(what + " not within 60 s");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
