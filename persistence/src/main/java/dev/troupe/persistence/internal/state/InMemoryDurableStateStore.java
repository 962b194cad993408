package dev.troupe.persistence.internal.state;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durable state in this JVM's memory ({@code troupe.persistence.state.inmem}), for tests and for
 * state that may end with the process: values are kept as the objects they are (not serialized) and
 * every call completes before it returns. Thread-safe: each id's entry changes atomically.
 */
public final class InMemoryDurableStateStore implements DurableStateStore {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryDurableStateStore.class);

  /** An id's value (null once deleted), revision and tag. */
  private record Entry(Object value, long revision, String tag) {}

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  /**
   * @param system the system it serves
   * @param config its section (nothing is read from it)
   */
  public InMemoryDurableStateStore(ActorSystem system, Config config) {
    LOG.info("system [{}] keeps durable state in memory: it ends with this JVM"
        + " (troupe.persistence.state.plugin chooses a store that keeps it)", system.name());
  }

  @Override
  public CompletionStage<GetObjectResult> getObject(String persistenceId) {
    Entry e = entries.get(persistenceId);
    return CompletableFuture.completedFuture(
        e == null ? GetObjectResult.empty() : new GetObjectResult(Optional.ofNullable(e.value()), e.revision()));
  }

  @Override
  public CompletionStage<Void> upsertObject(String persistenceId, long revision, Object value, String tag) {
    try {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(tag, "tag");
      store(persistenceId, new Entry(value, revision, tag));
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletionStage<Void> deleteObject(String persistenceId, long revision) {
    try {
      store(persistenceId, new Entry(null, revision, ""));
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private void store(String persistenceId, Entry next) {
    Objects.requireNonNull(persistenceId, "persistenceId");
    entries.compute(persistenceId, (id, stored) -> {
      long current = stored == null ? 0 : stored.revision();
      if (next.revision() != current + 1) {
        throw RevisionConflict.of(id, next.revision(), current);
      }
      return next;
    });
  }
}
