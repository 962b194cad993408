package dev.troupe.persistence;

import java.util.Objects;
import java.util.Set;

/**
 * An event persisted with tags, for the queries by tag ({@code eventsByTag}): {@code persist(new
 * Tagged(event, Set.of("orders")), handler)}. The journal stores the event and its tags; the
 * handler of that {@code persist} gets this wrapper, as it was passed, and recovery replays the
 * event alone.
 *
 * @param payload the event
 * @param tags its tags (none: an untagged event)
 */
public record Tagged(Object payload, Set<String> tags) {
  /** Checks the fields; the tags are copied. */
  public Tagged {
    Objects.requireNonNull(payload, "payload");
    if (payload instanceof Tagged) {
      throw new IllegalArgumentException("a Tagged event inside a Tagged one: give one Tagged all the tags");
    }
    tags = Set.copyOf(Objects.requireNonNull(tags, "tags"));
  }
}
