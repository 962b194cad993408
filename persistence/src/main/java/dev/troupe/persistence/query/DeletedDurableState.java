package dev.troupe.persistence.query;

import java.util.Objects;

/**
 * A durable state object deleted at a revision (the next write continues from it).
 *
 * @param persistenceId the id of the object
 * @param revision the revision of the delete
 * @param offset where the change is among the store's changes
 * @param timestamp when it was deleted, in milliseconds since the epoch
 * @param <A> the type of the state
 */
public record DeletedDurableState<A>(String persistenceId, long revision, Offset offset, long timestamp)
    implements DurableStateChange<A> {
  /** Checks that nothing is missing. */
  public DeletedDurableState {
    Objects.requireNonNull(persistenceId, "persistenceId");
    Objects.requireNonNull(offset, "offset");
  }
}
