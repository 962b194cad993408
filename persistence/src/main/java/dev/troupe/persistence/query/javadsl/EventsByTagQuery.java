package dev.troupe.persistence.query.javadsl;

import dev.troupe.persistence.query.EventEnvelope;
import dev.troupe.persistence.query.Offset;
import java.util.concurrent.Flow;

/** A read journal that streams the events of every actor written with a tag, also those to come. */
public interface EventsByTagQuery extends ReadJournal {
  /**
   * The events written with a tag, of every persistent actor, in the order the journal stored them
   * (each event's offset is its place among the tag's events), deleted ones left out; the stream goes
   * on with events stored later, until cancelled.
   *
   * @param tag the tag
   * @param offset where to start: {@code Offset.noOffset()} for the first event, or the offset of
   *     the last event already handled (that one is not handed over again)
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<EventEnvelope> eventsByTag(String tag, Offset offset);
}
