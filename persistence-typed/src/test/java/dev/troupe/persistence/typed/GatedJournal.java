package dev.troupe.persistence.typed;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A test journal over the system's in-memory one: writes wait for a gate, and a test can make them
 * fail or be rejected, or make replay fail. Configured as {@code gated { class = "dev.troupe.persistence.typed.GatedJournal" }}.
 */
public final class GatedJournal implements Journal {
  /** What a test controls, per system name. */
  static final class Control {
    volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
    volatile boolean failWrites;
    volatile boolean rejectWrites;
    volatile boolean failReplay;
  }

  private static final Map<String, Control> CONTROLS = new ConcurrentHashMap<>();

  static Control control(String systemName) {
    return CONTROLS.computeIfAbsent(systemName, k -> new Control());
  }

  private final Control control;
  private final Journal store;

  /**
   * @param system the system
   * @param config the section
   */
  public GatedJournal(ActorSystem system, Config config) {
    this.control = control(system.name());
    this.store = Persistence.get(system).journalFor("troupe.persistence.journal.inmem");
  }

  @Override
  public CompletionStage<List<Optional<Exception>>> write(List<AtomicWrite> writes) {
    return control.gate.thenCompose(v -> {
      if (control.failWrites) {
        return CompletableFuture.failedFuture(new java.io.IOException("disk on fire"));
      }
      if (control.rejectWrites) {
        return CompletableFuture.completedFuture(writes.stream()
            .map(w -> Optional.<Exception>of(new IllegalArgumentException("not storable"))).toList());
      }
      return store.write(writes);
    });
  }

  @Override
  public CompletionStage<Void> replay(String id, long from, long to, long max, Consumer<PersistentRepr> onEvent) {
    return control.failReplay ? CompletableFuture.failedFuture(new java.io.IOException("unreadable"))
        : store.replay(id, from, to, max, onEvent);
  }

  @Override
  public CompletionStage<Long> highestSequenceNr(String id) {
    return store.highestSequenceNr(id);
  }

  @Override
  public CompletionStage<Void> deleteTo(String id, long to) {
    return store.deleteTo(id, to);
  }
}
