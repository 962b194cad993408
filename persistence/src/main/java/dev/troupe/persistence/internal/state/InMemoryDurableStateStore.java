package dev.troupe.persistence.internal.state;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.state.DurableStateRecord;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durable state in this JVM's memory ({@code troupe.persistence.state.inmem}), for tests and for
 * state that may end with the process: values are kept as the objects they are (not serialized) and
 * every call completes before it returns. Thread-safe: writes and deletes take one lock, which
 * numbers each change with the next offset and files it under its tag in the same step (so a query
 * never sees a change before one with a lower offset); reads of one id take none.
 */
public final class InMemoryDurableStateStore implements DurableStateStore {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryDurableStateStore.class);

  /** An id's value (null once deleted), revision, tag, offset and time. */
  private record Entry(Object value, long revision, String tag, long offset, long timestamp) {}

  private final ConcurrentNavigableMap<String, Entry> entries = new ConcurrentSkipListMap<>();

  // under the lock (this)
  private final TagIndex byTag = new TagIndex();
  private long lastOffset;

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
      store(persistenceId, revision, value, tag);
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletionStage<Void> deleteObject(String persistenceId, long revision) {
    try {
      store(persistenceId, revision, null, null);
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** @param tag null for a delete: it keeps the stored tag */
  private synchronized void store(String persistenceId, long revision, Object value, String tag) {
    Objects.requireNonNull(persistenceId, "persistenceId");
    Entry stored = entries.get(persistenceId);
    long current = stored == null ? 0 : stored.revision();
    if (revision != current + 1) {
      throw RevisionConflict.of(persistenceId, revision, current);
    }
    String t = tag != null ? tag : stored == null ? "" : stored.tag();
    Entry next = new Entry(value, revision, t, ++lastOffset, System.currentTimeMillis());
    byTag.changed(persistenceId, t, next.offset(), stored == null ? null : stored.tag(),
        stored == null ? 0 : stored.offset());
    entries.put(persistenceId, next);
  }

  @Override
  public CompletionStage<Void> changesByTag(String tag, long afterOffset, long max, Consumer<DurableStateRecord> onChange) {
    try {
      Objects.requireNonNull(tag, "tag");
      Objects.requireNonNull(onChange, "onChange");
      java.util.List<DurableStateRecord> found = new java.util.ArrayList<>();
      synchronized (this) {
        for (String id : byTag.after(tag, afterOffset).values()) {
          if (found.size() >= max) {
            break;
          }
          Entry e = entries.get(id);
          found.add(new DurableStateRecord(e.offset(), id, e.revision(), Optional.ofNullable(e.value()), e.timestamp()));
        }
      }
      found.forEach(onChange); // outside the lock: the caller's code
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public synchronized CompletionStage<Long> highestOffset() {
    return CompletableFuture.completedFuture(lastOffset);
  }

  @Override
  public CompletionStage<Void> persistenceIds(Optional<String> afterId, long max, Consumer<String> onId) {
    try {
      Objects.requireNonNull(onId, "onId");
      long n = 0;
      for (String id : (afterId.isPresent() ? entries.tailMap(afterId.get(), false) : entries).keySet()) {
        if (n++ >= max) {
          break;
        }
        onId.accept(id);
      }
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
