package dev.troupe.persistence.internal.query;

import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.query.DeletedDurableState;
import dev.troupe.persistence.query.DurableStateChange;
import dev.troupe.persistence.query.Offset;
import dev.troupe.persistence.query.UpdatedDurableState;
import dev.troupe.persistence.query.javadsl.DurableStateStorePagedPersistenceIdsQuery;
import dev.troupe.persistence.query.javadsl.DurableStateStoreQuery;
import dev.troupe.persistence.state.DurableStateRecord;
import dev.troupe.persistence.state.DurableStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The durable state queries of any store, read through the store SPI ({@link
 * DurableStateStore#changesByTag}, {@link DurableStateStore#highestOffset}, {@link
 * DurableStateStore#persistenceIds}) a batch at a time, on {@link PollingSubscription}: what {@code
 * DurableStateStoreRegistry} hands out for a store that does not answer the queries itself.
 *
 * @param <A> the type of the state
 */
public final class PollingDurableStateQuery<A>
    implements DurableStateStoreQuery<A>, DurableStateStorePagedPersistenceIdsQuery<A> {
  private final Persistence persistence;
  private final DurableStateStore store;
  private final String pluginId;
  private final Duration refreshInterval;
  private final int maxBufferSize;
  private final Subscriptions running;

  /**
   * @param persistence the system's persistence, whose call-timeout bounds every call of the store
   * @param store the store it reads
   * @param pluginId the store's section, for messages
   * @param refreshInterval how long a live query that has caught up waits before it reads again
   * @param maxBufferSize the most changes (or ids) one read asks for
   * @param running the subscriptions, ended with the system
   */
  public PollingDurableStateQuery(Persistence persistence, DurableStateStore store, String pluginId,
      Duration refreshInterval, int maxBufferSize, Subscriptions running) {
    this.persistence = persistence;
    this.store = store;
    this.pluginId = pluginId;
    this.refreshInterval = refreshInterval;
    this.maxBufferSize = maxBufferSize;
    this.running = running;
  }

  @Override
  public Flow.Publisher<DurableStateChange<A>> currentChanges(String tag, Offset offset) {
    long after = Offsets.after(tag, offset);
    return subscriber -> running.start(new Changes(subscriber, null, tag, after));
  }

  @Override
  public Flow.Publisher<DurableStateChange<A>> changes(String tag, Offset offset) {
    long after = Offsets.after(tag, offset);
    return subscriber -> running.start(new Changes(subscriber, refreshInterval, tag, after));
  }

  @Override
  public Flow.Publisher<String> currentPersistenceIds(Optional<String> afterId, long limit) {
    Objects.requireNonNull(afterId, "afterId");
    if (limit < 0) {
      throw new IllegalArgumentException("limit cannot be negative: " + limit);
    }
    return subscriber -> running.start(new Ids(subscriber, afterId, limit));
  }

  /** A subscription to the changes of a tag. */
  private final class Changes extends PollingSubscription<DurableStateChange<A>> {
    private final String tag;
    private final boolean current;
    private long after;
    private long end = -1; // a current query's: the highest offset when it first read

    Changes(Flow.Subscriber<? super DurableStateChange<A>> on, Duration refresh, String tag, long after) {
      super(on, running, refresh, maxBufferSize);
      this.tag = tag;
      this.after = after;
      this.current = refresh == null;
    }

    @Override
    protected CompletionStage<Batch<DurableStateChange<A>>> read() {
      if (current && end < 0) {
        return persistence.bounded(store.highestOffset(), "the highest offset of durable state store [" + pluginId + "]")
            .thenCompose(highest -> {
              end = highest;
              return readChanges();
            });
      }
      return readChanges();
    }

    private CompletionStage<Batch<DurableStateChange<A>>> readChanges() {
      if (current && after >= end) {
        return CompletableFuture.completedFuture(new Batch<>(List.of(), Next.LAST));
      }
      List<DurableStateRecord> stored = new ArrayList<>();
      return persistence.bounded(store.changesByTag(tag, after, batchSize, stored::add),
          "a query of the durable state changes tagged [" + tag + "] after offset " + after + " of store [" + pluginId + "]")
          .thenApply(done -> {
            List<DurableStateChange<A>> found = new ArrayList<>(stored.size());
            boolean past = false;
            for (DurableStateRecord r : stored) {
              if (r.offset() <= after) {
                throw new IllegalStateException("durable state store [" + pluginId + "] handed over offset " + r.offset()
                    + " of [" + r.persistenceId() + "] after offset " + after + ": its offsets must go up");
              }
              if (current && r.offset() > end) {
                past = true;
                break;
              }
              found.add(change(r));
              after = r.offset();
            }
            Next then = past || current && (after >= end || stored.size() < batchSize) ? Next.LAST
                : stored.size() >= batchSize ? Next.NOW : Next.LATER;
            return new Batch<>(found, then);
          });
    }
  }

  @SuppressWarnings("unchecked") // the store keeps objects: A is the caller's word for them
  private DurableStateChange<A> change(DurableStateRecord r) {
    Offset offset = Offset.sequence(r.offset());
    return r.value().isPresent()
        ? new UpdatedDurableState<>(r.persistenceId(), r.revision(), (A) r.value().get(), offset, r.timestamp())
        : new DeletedDurableState<>(r.persistenceId(), r.revision(), offset, r.timestamp());
  }

  /** A subscription to the ids, a page at a time. */
  private final class Ids extends PollingSubscription<String> {
    private Optional<String> after;
    private long left;

    Ids(Flow.Subscriber<? super String> on, Optional<String> after, long limit) {
      super(on, running, null, maxBufferSize);
      this.after = after;
      this.left = limit;
    }

    @Override
    protected CompletionStage<Batch<String>> read() {
      if (left == 0) {
        return CompletableFuture.completedFuture(new Batch<>(List.of(), Next.LAST));
      }
      long max = Math.min(left, batchSize);
      List<String> ids = new ArrayList<>();
      return persistence.bounded(store.persistenceIds(after, max, ids::add),
          "a query of the persistence ids of durable state store [" + pluginId + "]")
          .thenApply(done -> {
            if (!ids.isEmpty()) {
              after = Optional.of(ids.get(ids.size() - 1));
            }
            left -= ids.size();
            return new Batch<>(ids, left > 0 && ids.size() >= max ? Next.NOW : Next.LAST);
          });
    }
  }
}
