package dev.troupe.persistence.internal;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A journal in this JVM's memory, for tests and for actors whose history may end with the process:
 * events are kept as the objects they are (not serialized) and every call completes before it
 * returns. Thread-safe: one lock per persistent actor.
 */
public final class InMemoryJournal implements Journal {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryJournal.class);

  private final ConcurrentHashMap<String, Log> logs = new ConcurrentHashMap<>();
  /** Per tag, its events in the order they were stored: an event's offset is its index + 1. */
  private final ConcurrentHashMap<String, ArrayList<PersistentRepr>> tagged = new ConcurrentHashMap<>();

  /**
   * @param system the system it serves
   * @param config its section (nothing is read from it)
   */
  public InMemoryJournal(ActorSystem system, Config config) {
    LOG.info("system [{}] keeps persistent actors' events in memory: they end with this JVM"
        + " (troupe.persistence.journal.plugin chooses a journal that keeps them)", system.name());
  }

  /** One actor's events, in order; deleted ones are dropped from the front. */
  private static final class Log {
    final ArrayList<PersistentRepr> events = new ArrayList<>();
    long highest;
    long deletedTo;
  }

  @Override
  public CompletionStage<List<Optional<Exception>>> write(List<AtomicWrite> writes) {
    List<Optional<Exception>> results = new ArrayList<>(writes.size());
    for (AtomicWrite w : writes) {
      Log log = logs.computeIfAbsent(w.persistenceId(), k -> new Log());
      synchronized (log) {
        if (w.lowestSequenceNr() <= log.highest) {
          return CompletableFuture.failedFuture(new IllegalStateException("persistence id [" + w.persistenceId()
              + "]: sequence number " + w.lowestSequenceNr() + " is already stored (highest " + log.highest
              + "): two writers of one id"));
        }
        log.events.addAll(w.events());
        log.highest = w.highestSequenceNr();
        for (PersistentRepr e : w.events()) { // under the actor's lock: a tag's order is its actor's order
          if (e.tags().isEmpty()) {
            continue;
          }
          for (String tag : e.tags()) {
            ArrayList<PersistentRepr> index = tagged.computeIfAbsent(tag, t -> new ArrayList<>());
            synchronized (index) {
              index.add(e);
            }
          }
        }
      }
      results.add(Optional.empty());
    }
    return CompletableFuture.completedFuture(results);
  }

  @Override
  public CompletionStage<Void> replay(
      String persistenceId, long fromSequenceNr, long toSequenceNr, long max, Consumer<PersistentRepr> onEvent) {
    Log log = logs.get(persistenceId);
    if (log == null || max <= 0) {
      return CompletableFuture.completedFuture(null);
    }
    List<PersistentRepr> selected = new ArrayList<>();
    synchronized (log) {
      ArrayList<PersistentRepr> events = log.events;
      for (int i = firstAtOrAbove(events, fromSequenceNr); i < events.size() && selected.size() < max; i++) {
        PersistentRepr e = events.get(i);
        if (e.sequenceNr() > toSequenceNr) {
          break;
        }
        selected.add(e);
      }
    }
    try {
      selected.forEach(onEvent); // outside the lock: the callback is the caller's code
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return CompletableFuture.completedFuture(null);
  }

  /** Where the first event numbered {@code seqNr} or more is: a query polls from the end of a long history. */
  private static int firstAtOrAbove(ArrayList<PersistentRepr> events, long seqNr) {
    int lo = 0;
    int hi = events.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (events.get(mid).sequenceNr() < seqNr) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public CompletionStage<Long> highestSequenceNr(String persistenceId) {
    Log log = logs.get(persistenceId);
    if (log == null) {
      return CompletableFuture.completedFuture(0L);
    }
    synchronized (log) {
      return CompletableFuture.completedFuture(log.highest);
    }
  }

  @Override
  public CompletionStage<Void> deleteTo(String persistenceId, long toSequenceNr) {
    Log log = logs.get(persistenceId);
    if (log != null) {
      synchronized (log) {
        log.events.removeIf(e -> e.sequenceNr() <= toSequenceNr);
        log.deletedTo = Math.max(log.deletedTo, Math.min(toSequenceNr, log.highest));
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletionStage<Void> eventsByTag(String tag, long afterOffset, long max, Consumer<TaggedRepr> onEvent) {
    ArrayList<PersistentRepr> index = tagged.get(tag);
    List<TaggedRepr> selected = new ArrayList<>();
    long i = Math.max(afterOffset, 0); // the next one's index: its offset is i + 1 (no overflow at Long.MAX_VALUE)
    while (index != null && selected.size() < max) {
      List<TaggedRepr> candidates = new ArrayList<>();
      synchronized (index) { // copied, then checked outside: an actor's lock is never taken inside a tag's
        long want = max - selected.size();
        for (; i < index.size() && candidates.size() < want; i++) {
          candidates.add(new TaggedRepr(i + 1, index.get((int) i)));
        }
      }
      if (candidates.isEmpty()) {
        break;
      }
      for (TaggedRepr c : candidates) {
        if (!deleted(c.event())) {
          selected.add(c);
        }
      }
    }
    try {
      selected.forEach(onEvent);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return CompletableFuture.completedFuture(null);
  }

  /** Whether an event was deleted since it was stored. */
  private boolean deleted(PersistentRepr e) {
    Log log = logs.get(e.persistenceId());
    synchronized (log) {
      return e.sequenceNr() <= log.deletedTo;
    }
  }

  @Override
  public CompletionStage<Void> currentPersistenceIds(Consumer<String> onId) {
    List<String> ids = new ArrayList<>();
    logs.forEach((id, log) -> {
      synchronized (log) {
        if (log.highest > 0) { // a refused first write leaves an empty log behind
          ids.add(id);
        }
      }
    });
    try {
      ids.forEach(onId);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return CompletableFuture.completedFuture(null);
  }
}
