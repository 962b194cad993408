package dev.troupe.remote.internal.association;

import java.util.concurrent.atomic.LongAdder;

/**
 * The summed time of serializations (on the senders' threads) and deserializations (where
 * arriving messages are delivered), kept only with {@code
 * troupe.remote.advanced.measure-serialization = on}: two clock reads and two adds per message,
 * which is why it is off by default. Senders are any threads, so the sums are {@link LongAdder}s.
 */
public final class SerializationTimes {
  private final LongAdder serializeNanos = new LongAdder();
  private final LongAdder serializations = new LongAdder();
  private final LongAdder deserializeNanos = new LongAdder();
  private final LongAdder deserializations = new LongAdder();

  /** @param nanos how long one serialization took */
  public void serialized(long nanos) {
    serializeNanos.add(nanos);
    serializations.increment();
  }

  /** @param nanos how long one deserialization took */
  public void deserialized(long nanos) {
    deserializeNanos.add(nanos);
    deserializations.increment();
  }

  public long serializations() {
    return serializations.sum();
  }

  public long serializeNanos() {
    return serializeNanos.sum();
  }

  public long deserializations() {
    return deserializations.sum();
  }

  public long deserializeNanos() {
    return deserializeNanos.sum();
  }
}
