package dev.troupe.persistence.query.javadsl;

import java.util.concurrent.Flow;

/** A read journal that streams the ids of the persistent actors it stores, also those to come. */
public interface PersistenceIdsQuery extends ReadJournal {
  /**
   * Every persistence id with stored events, each once, in no particular order; the stream goes
   * on with ids that store their first event later, until cancelled.
   *
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<String> persistenceIds();
}
