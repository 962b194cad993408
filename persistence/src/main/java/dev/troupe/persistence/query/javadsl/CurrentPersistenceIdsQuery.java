package dev.troupe.persistence.query.javadsl;

import java.util.concurrent.Flow;

/** A read journal that hands over the ids of the persistent actors it stores now. */
public interface CurrentPersistenceIdsQuery extends ReadJournal {
  /**
   * As {@link PersistenceIdsQuery#persistenceIds}, but the stream completes once it has handed over
   * the ids stored when it was subscribed to.
   *
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<String> currentPersistenceIds();
}
