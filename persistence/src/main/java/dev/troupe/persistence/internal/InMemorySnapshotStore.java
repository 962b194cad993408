package dev.troupe.persistence.internal;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.SnapshotMetadata;
import dev.troupe.persistence.SnapshotSelectionCriteria;
import dev.troupe.persistence.spi.SelectedSnapshot;
import dev.troupe.persistence.spi.SnapshotStore;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Snapshots in this JVM's memory, kept as the objects they are; every call completes before it
 * returns. Thread-safe: one lock per persistent actor.
 */
public final class InMemorySnapshotStore implements SnapshotStore {
  /** Per actor, its snapshots by sequence number. */
  private final ConcurrentHashMap<String, TreeMap<Long, SelectedSnapshot>> byId = new ConcurrentHashMap<>();

  /**
   * @param system the system it serves
   * @param config its section (nothing is read from it)
   */
  public InMemorySnapshotStore(ActorSystem system, Config config) {}

  @Override
  public CompletionStage<Optional<SelectedSnapshot>> load(String persistenceId, SnapshotSelectionCriteria criteria) {
    TreeMap<Long, SelectedSnapshot> all = byId.get(persistenceId);
    if (all == null) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    synchronized (all) {
      for (SelectedSnapshot s : all.descendingMap().values()) {
        if (criteria.matches(s.metadata())) {
          return CompletableFuture.completedFuture(Optional.of(s));
        }
      }
    }
    return CompletableFuture.completedFuture(Optional.empty());
  }

  @Override
  public CompletionStage<Void> save(SnapshotMetadata metadata, Object snapshot) {
    TreeMap<Long, SelectedSnapshot> all = byId.computeIfAbsent(metadata.persistenceId(), k -> new TreeMap<>());
    synchronized (all) {
      all.put(metadata.sequenceNr(), new SelectedSnapshot(metadata, snapshot));
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletionStage<Void> delete(SnapshotMetadata metadata) {
    TreeMap<Long, SelectedSnapshot> all = byId.get(metadata.persistenceId());
    if (all != null) {
      synchronized (all) {
        SelectedSnapshot s = all.get(metadata.sequenceNr());
        if (s != null && (metadata.timestamp() == 0 || metadata.timestamp() == s.metadata().timestamp())) {
          all.remove(metadata.sequenceNr());
        }
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletionStage<Void> delete(String persistenceId, SnapshotSelectionCriteria criteria) {
    TreeMap<Long, SelectedSnapshot> all = byId.get(persistenceId);
    if (all != null) {
      synchronized (all) {
        all.values().removeIf(s -> criteria.matches(s.metadata()));
      }
    }
    return CompletableFuture.completedFuture(null);
  }
}
