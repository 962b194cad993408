package dev.troupe.persistence.spi;

import dev.troupe.persistence.SnapshotMetadata;
import dev.troupe.persistence.SnapshotSelectionCriteria;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Where persistent actors keep snapshots of their state, so that recovery replays only the events
 * after the newest one: a snapshot store plugin.
 *
 * <p>Configured and constructed as a {@link Journal} is (a section with a {@code class} key; a
 * public constructor taking the system and that section), thread-safe, and never blocking its
 * caller.
 */
public interface SnapshotStore extends AutoCloseable {
  /**
   * The newest snapshot of an actor that the criteria select. A snapshot that cannot be read (e.g.
   * it no longer deserializes) is skipped for the next older one.
   *
   * @param persistenceId the actor's id
   * @param criteria which snapshots may be chosen
   * @return completes with the snapshot, or empty if none is selected
   */
  CompletionStage<Optional<SelectedSnapshot>> load(String persistenceId, SnapshotSelectionCriteria criteria);

  /**
   * Stores a snapshot; one with the same actor and sequence number is replaced.
   *
   * @param metadata whose snapshot, at which sequence number, from when
   * @param snapshot the state
   * @return completes once it is durable
   */
  CompletionStage<Void> save(SnapshotMetadata metadata, Object snapshot);

  /**
   * Deletes the snapshot of an actor at one sequence number (a timestamp of 0 in {@code metadata}
   * matches any).
   *
   * @param metadata the actor and sequence number
   * @return completes once deleted (also if there was none)
   */
  CompletionStage<Void> delete(SnapshotMetadata metadata);

  /**
   * Deletes every snapshot of an actor that the criteria select.
   *
   * @param persistenceId the actor's id
   * @param criteria which
   * @return completes once deleted
   */
  CompletionStage<Void> delete(String persistenceId, SnapshotSelectionCriteria criteria);

  /** Releases the plugin's threads and files; called when its system terminates. */
  @Override
  default void close() {}
}
