package dev.troupe.persistence.typed.state;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test store over the system's in-memory one: writes and deletes wait for a gate, and a test can
 * make the next writes or the reads fail. Configured as {@code gated { class =
 * "dev.troupe.persistence.typed.state.GatedDurableStateStore" }}.
 */
public final class GatedDurableStateStore implements DurableStateStore {
  /** What a test controls, per system name. */
  static final class Control {
    volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
    /** How many of the next writes fail (after the gate). */
    final AtomicInteger failWrites = new AtomicInteger();
    volatile boolean failReads;
  }

  private static final Map<String, Control> CONTROLS = new ConcurrentHashMap<>();

  static Control control(String systemName) {
    return CONTROLS.computeIfAbsent(systemName, k -> new Control());
  }

  private final Control control;
  private final DurableStateStore store;

  /**
   * @param system the system
   * @param config the section
   */
  public GatedDurableStateStore(ActorSystem system, Config config) {
    this.control = control(system.name());
    this.store = Persistence.get(system).durableStateStoreFor("troupe.persistence.state.inmem");
  }

  @Override
  public CompletionStage<GetObjectResult> getObject(String persistenceId) {
    return control.failReads ? CompletableFuture.failedFuture(new java.io.IOException("unreadable"))
        : store.getObject(persistenceId);
  }

  @Override
  public CompletionStage<Void> upsertObject(String persistenceId, long revision, Object value, String tag) {
    return control.gate.thenCompose(v -> failNext() ? failed() : store.upsertObject(persistenceId, revision, value, tag));
  }

  @Override
  public CompletionStage<Void> deleteObject(String persistenceId, long revision) {
    return control.gate.thenCompose(v -> failNext() ? failed() : store.deleteObject(persistenceId, revision));
  }

  private boolean failNext() {
    return control.failWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
  }

  private static CompletionStage<Void> failed() {
    return CompletableFuture.failedFuture(new java.io.IOException("disk on fire"));
  }
}
