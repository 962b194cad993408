package dev.troupe.persistence.state;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Where durable-state actors keep their state: the latest value of each persistence id and its
 * revision, a number that goes up by one with every write or delete. A durable state store plugin.
 *
 * <p>Configured and constructed as a {@link dev.troupe.persistence.spi.Journal} is (a section with
 * a {@code class} key; a public constructor taking the {@link dev.troupe.actor.ActorSystem} and
 * that section's {@link com.typesafe.config.Config}); one instance serves the whole system, so
 * every method may be called from many threads at once, and none may block its caller: IO runs on
 * the plugin's own threads, and the returned stage completes there. The runtime keeps one write or
 * delete in flight per actor; a store applies the calls for one id in the order they were made.
 *
 * <p>A write or delete must fail unless its revision is exactly the stored revision plus one: a
 * second writer of one id (two actors that both think they own it) is caught there instead of one
 * silently overwriting the other.
 *
 * <p>A store that implements {@link #changesByTag}, {@link #highestOffset} and {@link
 * #persistenceIds} can be queried ({@code DurableStateStoreRegistry}): it numbers every write and
 * delete, of any id, with an offset (1, 2, 3, ... in the order they were stored) and keeps, per tag,
 * the latest change of each id stored with it.
 */
public interface DurableStateStore extends AutoCloseable {
  /**
   * The stored value and revision of an id.
   *
   * @param persistenceId the actor's id
   * @return completes with the value (empty if none is stored, or it was deleted) and revision (0
   *     if nothing was ever stored); exceptionally if it cannot be read (e.g. a damaged file)
   */
  CompletionStage<GetObjectResult> getObject(String persistenceId);

  /**
   * Stores a new value, replacing the old one.
   *
   * @param persistenceId the actor's id
   * @param revision the new revision: the stored one plus one
   * @param value the value, not null
   * @param tag a tag stored with it, possibly empty
   * @return completes once the value is stored (durably, for a store that keeps values on disk);
   *     exceptionally if the revision is not the stored one plus one, or the value cannot be stored
   *     (and then it may or may not be, unless the revision was wrong or the value refused before
   *     any IO, e.g. too large or not serializable)
   */
  CompletionStage<Void> upsertObject(String persistenceId, long revision, Object value, String tag);

  /**
   * Deletes the value of an id; its revision stays, so that the next write continues the
   * numbering ({@code revision + 1}) and a writer that missed the delete is still caught.
   *
   * @param persistenceId the actor's id
   * @param revision the revision of the delete: the stored one plus one
   * @return completes once the value is deleted; exceptionally as {@link #upsertObject} does
   */
  CompletionStage<Void> deleteObject(String persistenceId, long revision);

  /**
   * Reads the latest change of each id whose latest write was stored with a tag (a delete keeps the
   * tag of the write before it), for the durable state queries. A store that keeps no offsets keeps
   * this default, and the queries fail with its exception.
   *
   * <p>A change is handed over only once every change with a lower offset can be: a reader that
   * resumes after the last offset it saw misses nothing stored later.
   *
   * @param tag the tag
   * @param afterOffset hand over changes whose offset is above this (0 for all)
   * @param max the most changes to hand over
   * @param onChange called with each change in order of offsets, on one thread at a time, before
   *     the stage completes
   * @return completes when the changes were handed over
   */
  default CompletionStage<Void> changesByTag(String tag, long afterOffset, long max,
      Consumer<DurableStateRecord> onChange) {
    return CompletableFuture.failedFuture(new UnsupportedOperationException(
        getClass().getName() + " keeps no offsets of its changes"));
  }

  /**
   * The offset of the latest change stored, for a current query: it ends there.
   *
   * @return completes with that offset, 0 if nothing was stored; the default fails with {@code
   *     UnsupportedOperationException}, as {@link #changesByTag} does
   */
  default CompletionStage<Long> highestOffset() {
    return CompletableFuture.failedFuture(new UnsupportedOperationException(
        getClass().getName() + " keeps no offsets of its changes"));
  }

  /**
   * Lists the ids that have anything stored (deleted ones included), in ascending order ({@link
   * String#compareTo}), for {@code currentPersistenceIds}. The default fails with {@code
   * UnsupportedOperationException}.
   *
   * @param afterId start after this id; empty for the first
   * @param max the most ids to hand over
   * @param onId called with each id in order, on one thread at a time, before the stage completes
   * @return completes once the ids were handed over
   */
  default CompletionStage<Void> persistenceIds(Optional<String> afterId, long max, Consumer<String> onId) {
    return CompletableFuture.failedFuture(new UnsupportedOperationException(
        getClass().getName() + " cannot list the persistence ids it stores"));
  }

  /** Releases the plugin's threads and files; called when its system terminates. */
  @Override
  default void close() {}
}
