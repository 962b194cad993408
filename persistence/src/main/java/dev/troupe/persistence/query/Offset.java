package dev.troupe.persistence.query;

/**
 * Where an event is in a query's stream, for resuming the query after it: {@link Sequence} (an
 * ordered number) or {@link NoOffset} (from the start).
 */
public sealed interface Offset permits Sequence, NoOffset {
  /**
   * @param value the number
   * @return the offset of that number
   */
  static Offset sequence(long value) {
    return new Sequence(value);
  }

  /** @return the offset before every event */
  static Offset noOffset() {
    return NoOffset.getInstance();
  }
}
