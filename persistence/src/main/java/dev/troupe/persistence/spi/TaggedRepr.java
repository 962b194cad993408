package dev.troupe.persistence.spi;

import java.util.Objects;

/**
 * An event as {@link Journal#eventsByTag} hands it over: with its offset among the events of one
 * tag.
 *
 * @param offset its place among the events of the tag, from 1, increasing in the order the journal
 *     stored them
 * @param event the event
 */
public record TaggedRepr(long offset, PersistentRepr event) {
  /** Checks the fields. */
  public TaggedRepr {
    Objects.requireNonNull(event, "event");
    if (offset < 1) {
      throw new IllegalArgumentException("offset must be at least 1, was " + offset);
    }
  }
}
