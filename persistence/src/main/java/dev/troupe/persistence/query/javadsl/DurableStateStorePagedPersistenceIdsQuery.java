package dev.troupe.persistence.query.javadsl;

import java.util.Optional;
import java.util.concurrent.Flow;

/**
 * The ids of a durable state store's objects, page by page: Pekko's {@code
 * DurableStateStorePagedPersistenceIdsQuery}.
 *
 * @param <A> the type of the state
 */
public interface DurableStateStorePagedPersistenceIdsQuery<A> {
  /**
   * The ids of the objects stored now (deleted ones included), in ascending order of their UTF-16
   * code units ({@link String#compareTo}); the stream completes after {@code limit} ids or the last.
   *
   * @param afterId start after this id; empty for the first
   * @param limit the most ids to hand over
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<String> currentPersistenceIds(Optional<String> afterId, long limit);
}
