package dev.troupe.persistence.journal;

import java.util.Arrays;
import java.util.List;

/**
 * What {@link EventAdapter#fromJournal} makes of one stored event: none, one or several events, in
 * the order the actor sees them. Immutable; no event is null.
 */
public final class EventSeq {
  private static final EventSeq EMPTY = new EventSeq(List.of());

  private final List<Object> events;

  private EventSeq(List<Object> events) {
    this.events = events;
  }

  /** @return no event: the stored one is skipped */
  public static EventSeq empty() {
    return EMPTY;
  }

  /**
   * @param event an event, not null
   * @return that event alone
   */
  public static EventSeq single(Object event) {
    return new EventSeq(List.of(event));
  }

  /**
   * @param events events, none null
   * @return those events, in order
   */
  public static EventSeq create(Object... events) {
    return create(Arrays.asList(events));
  }

  /**
   * @param events events, none null
   * @return those events, in order (copied)
   */
  public static EventSeq create(List<?> events) {
    return events.isEmpty() ? EMPTY : new EventSeq(List.copyOf(events));
  }

  /** @return the events, in order (unmodifiable) */
  public List<Object> events() {
    return events;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EventSeq s && s.events.equals(events);
  }

  @Override
  public int hashCode() {
    return events.hashCode();
  }

  @Override
  public String toString() {
    return "EventSeq" + events;
  }
}
