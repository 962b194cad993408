package dev.troupe.bench.idle;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A message that carries the time it was sent; the actor that receives it writes down how long it
 * took to be picked up. Used once per measurement, by both frameworks.
 */
final class Stamp {
  private final long sentAt = System.nanoTime();
  private final CountDownLatch read = new CountDownLatch(1);
  private volatile long pickupNanos; // written by the actor before the count-down, read after it

  /** Actor side: the message is being processed now. */
  void picked() {
    pickupNanos = System.nanoTime() - sentAt;
    read.countDown();
  }

  /** Sender side: waits (bounded) for the actor. */
  long await(String what) {
    try {
      if (!read.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException(what + ": a stamp was not read within 60 s (lost message?)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + ": interrupted", e);
    }
    return pickupNanos;
  }
}
