package dev.troupe.persistence.query.javadsl;

import dev.troupe.persistence.query.EventEnvelope;
import dev.troupe.persistence.query.Offset;
import java.util.concurrent.Flow;

/** A read journal that hands over the events of every actor written with a tag so far. */
public interface CurrentEventsByTagQuery extends ReadJournal {
  /**
   * As {@link EventsByTagQuery#eventsByTag}, but the stream completes once it has caught up with
   * what is stored.
   *
   * @param tag the tag
   * @param offset where to start: {@code Offset.noOffset()}, or the offset of the last event already
   *     handled
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<EventEnvelope> currentEventsByTag(String tag, Offset offset);
}
