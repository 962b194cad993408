package dev.troupe.persistence;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.internal.InMemoryJournal;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A test journal plugin: the in-memory journal, with failures a test turns on (per system) and a
 * record of the calls. Configured as {@code controlled { class = "dev.troupe.persistence.ControlledJournal" }}.
 */
public final class ControlledJournal implements Journal {
  /** What a test controls, per system name. */
  static final class Control {
    /** Events of this class are rejected (never stored). */
    volatile Class<?> reject;
    /** Every write fails (outcome unknown) while set. */
    volatile boolean failWrites;
    /** Replay fails while set. */
    volatile boolean failReplay;
    /** Replays are held until a test completes this. */
    volatile CompletableFuture<Void> replayGate = CompletableFuture.completedFuture(null);
    /** Writes are held until a test completes this. */
    volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
    final AtomicInteger replayCalls = new AtomicInteger();
    final List<Integer> writeSizes = new CopyOnWriteArrayList<>();
  }

  private static final Map<String, Control> CONTROLS = new ConcurrentHashMap<>();

  static Control control(ActorSystem system) {
    return CONTROLS.computeIfAbsent(system.name(), k -> new Control());
  }

  private final Control control;
  private final InMemoryJournal store;

  /**
   * @param system the system
   * @param config the section
   */
  public ControlledJournal(ActorSystem system, Config config) {
    this.control = control(system);
    this.store = new InMemoryJournal(system, config);
  }

  @Override
  public CompletionStage<List<Optional<Exception>>> write(List<AtomicWrite> writes) {
    int events = 0;
    for (AtomicWrite w : writes) {
      events += w.events().size();
    }
    control.writeSizes.add(events);
    return control.gate.thenCompose(v -> {
      if (control.failWrites) {
        return CompletableFuture.failedFuture(new java.io.IOException("disk on fire"));
      }
      List<AtomicWrite> accepted = new ArrayList<>();
      List<Optional<Exception>> results = new ArrayList<>();
      for (AtomicWrite w : writes) {
        Class<?> r = control.reject;
        boolean rejected = r != null && w.events().stream().anyMatch(e -> r.isInstance(e.payload()));
        results.add(rejected ? Optional.of(new IllegalArgumentException("cannot store " + r.getSimpleName())) : Optional.empty());
        if (!rejected) {
          accepted.add(w);
        }
      }
      return store.write(accepted).thenApply(stored -> results);
    });
  }

  @Override
  public CompletionStage<Void> replay(String id, long from, long to, long max, Consumer<PersistentRepr> onEvent) {
    control.replayCalls.incrementAndGet();
    if (control.failReplay) {
      return CompletableFuture.failedFuture(new java.io.IOException("unreadable"));
    }
    return control.replayGate.thenCompose(v -> store.replay(id, from, to, max, onEvent));
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
