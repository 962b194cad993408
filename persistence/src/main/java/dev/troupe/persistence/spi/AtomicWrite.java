package dev.troupe.persistence.spi;

import java.util.List;
import java.util.Objects;

/**
 * Events a journal stores all together or not at all: what one {@code persist} or {@code
 * persistAll} call gave. The events belong to one persistent actor and their sequence numbers
 * follow each other.
 *
 * @param persistenceId the persistent actor's id
 * @param events the events, in order; not empty
 */
public record AtomicWrite(String persistenceId, List<PersistentRepr> events) {
  /** Checks that the events are one actor's and numbered one after another. */
  public AtomicWrite {
    Objects.requireNonNull(persistenceId, "persistenceId");
    events = List.copyOf(events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException("an atomic write needs at least one event");
    }
    long expected = events.get(0).sequenceNr();
    for (PersistentRepr e : events) {
      if (!e.persistenceId().equals(persistenceId)) {
        throw new IllegalArgumentException("event of " + e.persistenceId() + " in a write for " + persistenceId);
      }
      if (e.sequenceNr() != expected++) {
        throw new IllegalArgumentException("sequence numbers of one write must follow each other: " + events);
      }
    }
  }

  /** @return the first event's sequence number */
  public long lowestSequenceNr() {
    return events.get(0).sequenceNr();
  }

  /** @return the last event's sequence number */
  public long highestSequenceNr() {
    return events.get(events.size() - 1).sequenceNr();
  }
}
