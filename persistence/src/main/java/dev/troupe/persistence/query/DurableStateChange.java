package dev.troupe.persistence.query;

/**
 * A change of a durable state object as a durable state query hands it over ({@code
 * javadsl.DurableStateStoreQuery}): the object was stored ({@link UpdatedDurableState}) or deleted
 * ({@link DeletedDurableState}) at a revision.
 *
 * @param <A> the type of the state
 */
public sealed interface DurableStateChange<A> permits UpdatedDurableState, DeletedDurableState {
  /** @return the id of the object (of the actor that stores it) */
  String persistenceId();

  /** @return the revision the change was stored at */
  long revision();

  /**
   * @return where the change is among all the store's changes (a {@link Sequence}): resume a query
   *     after it
   */
  Offset offset();

  /** @return when the change was stored, in milliseconds since the epoch */
  long timestamp();
}
