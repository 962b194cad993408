package dev.troupe.persistence.spi;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Where persistent actors keep their events: a journal plugin.
 *
 * <p>A plugin is named by a configuration section with a {@code class} key (e.g. {@code
 * troupe.persistence.journal.file}); the class has a public constructor taking the {@link
 * dev.troupe.actor.ActorSystem} and that section's {@link com.typesafe.config.Config}. One
 * instance serves the whole system, so every method may be called from many threads at once, and
 * none may block its caller (a persistent actor calls it from its dispatcher's thread): IO runs on
 * the plugin's own threads, and the returned stage completes there.
 *
 * <p>The runtime keeps one call of {@link #write} in flight per persistent actor and makes every
 * call for an actor from that actor. A journal applies the calls for one {@code persistenceId} in
 * the order they were made, also when they overlap: a restarted actor starts reading while its
 * previous incarnation's last write may still be in flight, and must see that write (a single IO
 * thread per journal, as the file journal has, does this by itself). A write whose sequence
 * numbers are not above the highest stored for its actor must fail: two writers of one id (e.g.
 * two members that both think they host it) are a bug that a journal is the last place to catch.
 *
 * <p>A journal stores an event's tags with it and replays them; one that implements {@link
 * #eventsByTag} keeps an index of them for the queries by tag.
 */
public interface Journal extends AutoCloseable {
  /**
   * Stores writes in order, each all or nothing.
   *
   * @param writes the writes, of one persistent actor in the runtime's calls
   * @return completes with one entry per write: empty if stored, or the cause if the write was
   *     rejected (e.g. an event could not be serialized), in which case nothing of it was stored and
   *     the others are not affected; completes exceptionally when the outcome is not known (an IO
   *     error, a conflicting sequence number), and then any of the writes may or may not be stored
   */
  CompletionStage<List<Optional<Exception>>> write(List<AtomicWrite> writes);

  /**
   * Reads stored events of one actor in order of their sequence numbers, skipping deleted ones.
   *
   * @param persistenceId the actor's id
   * @param fromSequenceNr the lowest sequence number to read (at least 1)
   * @param toSequenceNr the highest
   * @param max the most events to read
   * @param onEvent called with each event in order, on one thread at a time, before the stage
   *     completes
   * @return completes when the events were handed over
   */
  CompletionStage<Void> replay(
      String persistenceId, long fromSequenceNr, long toSequenceNr, long max, Consumer<PersistentRepr> onEvent);

  /**
   * The highest sequence number ever stored for an actor, deleted events included: the next event
   * is numbered one above it.
   *
   * @param persistenceId the actor's id
   * @return completes with that number, 0 if nothing was ever stored
   */
  CompletionStage<Long> highestSequenceNr(String persistenceId);

  /**
   * Deletes an actor's events up to a sequence number (all of them for {@code Long.MAX_VALUE}).
   * The highest sequence number stays as it was.
   *
   * @param persistenceId the actor's id
   * @param toSequenceNr the highest sequence number to delete, inclusive
   * @return completes once the deletion is durable
   */
  CompletionStage<Void> deleteTo(String persistenceId, long toSequenceNr);

  /**
   * Lists the persistence ids that have stored events (deleted ones included), for persistence
   * queries ({@code dev.troupe.persistence.query}). A journal that cannot list them keeps this
   * default, and the queries that need it fail with its exception; the others work on every
   * journal.
   *
   * @param onId called with each id once, in no particular order, on one thread at a time, before
   *     the stage completes
   * @return completes once every id was handed over
   */
  default CompletionStage<Void> currentPersistenceIds(Consumer<String> onId) {
    return java.util.concurrent.CompletableFuture.failedFuture(new UnsupportedOperationException(
        getClass().getName() + " cannot list the persistence ids it stores"));
  }

  /**
   * Reads the events written with a tag ({@link PersistentRepr#tags}), of every persistent actor,
   * for the queries by tag. Each event of a tag has an offset: 1 for the first the journal stored
   * with that tag, and higher for each one it stored after it, so that a reader resumes after the
   * last offset it saw and misses nothing stored later. An event deleted since ({@link #deleteTo})
   * is left out (its offset is skipped). A journal that keeps no tags keeps this default, and the
   * queries by tag fail with its exception.
   *
   * @param tag the tag
   * @param afterOffset hand over events whose offset is above this (0 for all)
   * @param max the most events to hand over
   * @param onEvent called with each event in order of offsets, on one thread at a time, before the
   *     stage completes
   * @return completes when the events were handed over
   */
  default CompletionStage<Void> eventsByTag(String tag, long afterOffset, long max, Consumer<TaggedRepr> onEvent) {
    return java.util.concurrent.CompletableFuture.failedFuture(new UnsupportedOperationException(
        getClass().getName() + " keeps no index of tags"));
  }

  /** Releases the plugin's threads and files; called when its system terminates. */
  @Override
  default void close() {}
}
