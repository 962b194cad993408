package dev.troupe.persistence.query;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.internal.InMemoryJournal;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * An in-memory journal that records the reads queries make, and that cannot list its ids (as a
 * plugin that keeps the SPI's default): one instance per system, found with {@link #of}.
 */
public final class CountingJournal implements Journal {
  private static final ConcurrentHashMap<ActorSystem, CountingJournal> BY_SYSTEM = new ConcurrentHashMap<>();

  private final InMemoryJournal events;
  /** The {@code max} of every replay, in order. */
  final List<Long> replayMax = new CopyOnWriteArrayList<>();

  /**
   * @param system the system
   * @param config its section
   */
  public CountingJournal(ActorSystem system, Config config) {
    this.events = new InMemoryJournal(system, config);
    BY_SYSTEM.put(system, this);
    system.getWhenTerminated().whenComplete((t, e) -> BY_SYSTEM.remove(system));
  }

  static CountingJournal of(ActorSystem system) {
    return BY_SYSTEM.get(system);
  }

  @Override
  public CompletionStage<List<Optional<Exception>>> write(List<AtomicWrite> writes) {
    return events.write(writes);
  }

  @Override
  public CompletionStage<Void> replay(String id, long from, long to, long max, Consumer<PersistentRepr> onEvent) {
    replayMax.add(max);
    return events.replay(id, from, to, max, onEvent);
  }

  @Override
  public CompletionStage<Long> highestSequenceNr(String id) {
    return events.highestSequenceNr(id);
  }

  @Override
  public CompletionStage<Void> deleteTo(String id, long to) {
    return events.deleteTo(id, to);
  }
}
