package dev.troupe.persistence.internal.query;

import dev.troupe.persistence.query.NoOffset;
import dev.troupe.persistence.query.Offset;
import dev.troupe.persistence.query.Sequence;
import java.util.Objects;

/** The offsets the queries by tag are given, checked once for all of them. */
public final class Offsets {
  private Offsets() {}

  /**
   * @param tag the tag of the query, not null
   * @param offset where it starts: {@link NoOffset}, or a {@link Sequence} of at least 0
   * @return the offset it resumes after (0 for {@code NoOffset})
   * @throws NullPointerException if the tag or the offset is null
   * @throws IllegalArgumentException if the offset is negative
   */
  public static long after(String tag, Offset offset) {
    Objects.requireNonNull(tag, "tag");
    if (offset instanceof Sequence s) {
      if (s.value() < 0) {
        throw new IllegalArgumentException("a query by tag resumes after an offset of at least 0, not " + s);
      }
      return s.value();
    }
    if (offset instanceof NoOffset) {
      return 0;
    }
    throw new NullPointerException("offset");
  }
}
