package dev.troupe.persistence.query;

import java.util.Objects;

/**
 * A durable state object as it was stored at a revision.
 *
 * @param persistenceId the id of the object
 * @param revision the revision of the value
 * @param value the value stored
 * @param offset where the change is among the store's changes
 * @param timestamp when it was stored, in milliseconds since the epoch
 * @param <A> the type of the state
 */
public record UpdatedDurableState<A>(String persistenceId, long revision, A value, Offset offset, long timestamp)
    implements DurableStateChange<A> {
  /** Checks that nothing is missing. */
  public UpdatedDurableState {
    Objects.requireNonNull(persistenceId, "persistenceId");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(offset, "offset");
  }
}
