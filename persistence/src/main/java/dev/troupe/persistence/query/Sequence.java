package dev.troupe.persistence.query;

/**
 * An offset that is a number: events later in the stream have greater ones. The events of one
 * persistence id carry their sequence numbers.
 *
 * @param value the number
 */
public record Sequence(long value) implements Offset, Comparable<Sequence> {
  @Override
  public int compareTo(Sequence other) {
    return Long.compare(value, other.value);
  }
}
