package dev.troupe.persistence.query.polling;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.internal.PluginContext;
import dev.troupe.persistence.internal.query.PollingSubscription;
import dev.troupe.persistence.internal.query.Offsets;
import dev.troupe.persistence.internal.query.Subscriptions;
import dev.troupe.persistence.journal.EventAdapters;
import dev.troupe.persistence.query.EventEnvelope;
import dev.troupe.persistence.query.Offset;
import dev.troupe.persistence.query.javadsl.CurrentEventsByPersistenceIdQuery;
import dev.troupe.persistence.query.javadsl.CurrentEventsByTagQuery;
import dev.troupe.persistence.query.javadsl.CurrentPersistenceIdsQuery;
import dev.troupe.persistence.query.javadsl.EventsByPersistenceIdQuery;
import dev.troupe.persistence.query.javadsl.EventsByTagQuery;
import dev.troupe.persistence.query.javadsl.PersistenceIdsQuery;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The queries of any journal plugin, read through the journal SPI: {@code
 * PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class,
 * PollingReadJournal.IDENTIFIER)}.
 *
 * <p>It reads the journal its section's {@code write-plugin} names (the system's default journal if
 * empty) in batches of at most {@code max-buffer-size}, the next batch once the subscriber has taken
 * the last, so a slow subscriber holds at most one batch and is never flooded. A live query that has
 * caught up asks the journal again every {@code refresh-interval}: an event reaches it that long
 * after it was stored, at most. {@link #persistenceIds()} and {@link #currentPersistenceIds()} need
 * a journal that can list its ids, and {@link #eventsByTag} and {@link #currentEventsByTag} one that
 * keeps an index of tags (the in-memory and file journals do both); a current query by tag completes
 * once a read finds less than a batch. Every call to the journal
 * is bounded by {@code troupe.persistence.call-timeout}, and a query whose call fails ends with
 * that error. When the system terminates, every query still running ends with an {@code
 * IllegalStateException}.
 *
 * <p>The events pass through the read side of the journal's event adapters ({@code
 * event-adapter-bindings} in its section), as recovery's do: a stored event an adapter splits is
 * handed over as several envelopes with its offset and sequence number, one it drops is not handed
 * over at all.
 *
 * <p>Thread-safe; each subscription reads on its own.
 */
public final class PollingReadJournal
    implements EventsByPersistenceIdQuery,
        CurrentEventsByPersistenceIdQuery,
        PersistenceIdsQuery,
        CurrentPersistenceIdsQuery,
        EventsByTagQuery,
        CurrentEventsByTagQuery {
  /** The path of its section in {@code reference.conf}: the id to ask {@code PersistenceQuery} for. */
  public static final String IDENTIFIER = "troupe.persistence.query.polling";

  private final Persistence persistence;
  private final Journal journal;
  private final EventAdapters adapters;
  private final Duration refreshInterval;
  private final int maxBufferSize;
  private final Subscriptions running;

  /**
   * Reads its section and finds its journal.
   *
   * @param system the system it serves
   * @param config its section: write-plugin, refresh-interval, max-buffer-size
   * @throws dev.troupe.actor.ConfigurationException if a value is missing or malformed, naming it,
   *     or the journal cannot be made
   */
  public PollingReadJournal(ActorSystem system, Config config) {
    PluginContext context = new PluginContext(system, config, IDENTIFIER, PollingReadJournal.class);
    this.refreshInterval = context.duration("refresh-interval");
    this.maxBufferSize = context.count("max-buffer-size");
    this.persistence = Persistence.get(system);
    String writePlugin = context.string("write-plugin");
    this.journal = persistence.journalFor(writePlugin);
    this.adapters = persistence.adaptersFor(writePlugin);
    this.running = new Subscriptions(system);
  }

  @Override
  public Flow.Publisher<EventEnvelope> eventsByPersistenceId(String persistenceId, long fromSequenceNr, long toSequenceNr) {
    check(persistenceId, fromSequenceNr, toSequenceNr);
    return subscriber -> start(new Events(subscriber, refreshInterval, persistenceId, fromSequenceNr, toSequenceNr, false));
  }

  @Override
  public Flow.Publisher<EventEnvelope> currentEventsByPersistenceId(
      String persistenceId, long fromSequenceNr, long toSequenceNr) {
    check(persistenceId, fromSequenceNr, toSequenceNr);
    return subscriber -> start(new Events(subscriber, null, persistenceId, fromSequenceNr, toSequenceNr, true));
  }

  @Override
  public Flow.Publisher<String> persistenceIds() {
    return subscriber -> start(new Ids(subscriber, refreshInterval, true));
  }

  @Override
  public Flow.Publisher<String> currentPersistenceIds() {
    return subscriber -> start(new Ids(subscriber, null, false));
  }

  @Override
  public Flow.Publisher<EventEnvelope> eventsByTag(String tag, Offset offset) {
    long after = Offsets.after(tag, offset);
    return subscriber -> start(new ByTag(subscriber, refreshInterval, tag, after));
  }

  @Override
  public Flow.Publisher<EventEnvelope> currentEventsByTag(String tag, Offset offset) {
    long after = Offsets.after(tag, offset);
    return subscriber -> start(new ByTag(subscriber, null, tag, after));
  }

  private static void check(String persistenceId, long from, long to) {
    Objects.requireNonNull(persistenceId, "persistenceId");
    if (from < 0 || to < 0) {
      throw new IllegalArgumentException("sequence numbers cannot be negative: from " + from + " to " + to);
    }
  }

  /** Starts a new subscription: known until it ends, then its first signal. */
  private void start(PollingSubscription<?> s) {
    running.start(s);
  }

  private <T> CompletionStage<T> bounded(CompletionStage<T> call, String what) {
    return persistence.bounded(call, what);
  }

  /** Adds a stored event's envelopes: itself, or what the read adapters make of it (none, one, several). */
  private void envelopes(Offset offset, PersistentRepr r, List<EventEnvelope> into) {
    if (adapters.isEmpty()) {
      into.add(new EventEnvelope(offset, r.persistenceId(), r.sequenceNr(), r.payload(), r.timestamp()));
      return;
    }
    for (Object event : adapters.fromJournal(r.payload(), "").events()) {
      into.add(new EventEnvelope(offset, r.persistenceId(), r.sequenceNr(), event, r.timestamp()));
    }
  }

  /** A subscription to one actor's events. */
  private final class Events extends PollingSubscription<EventEnvelope> {
    private final String persistenceId;
    private final boolean current;
    private long next;
    private long to;
    private boolean highestKnown;

    Events(Flow.Subscriber<? super EventEnvelope> on, Duration refresh, String persistenceId, long from, long to,
        boolean current) {
      super(on, running, refresh, maxBufferSize); // a null subscriber: reactive-streams rule 1.9
      this.persistenceId = persistenceId;
      this.next = Math.max(1, from);
      this.to = to;
      this.current = current;
    }

    @Override
    protected CompletionStage<Batch<EventEnvelope>> read() {
      if (current && !highestKnown) { // a current query ends at the highest number stored when it started
        return bounded(journal.highestSequenceNr(persistenceId), "the highest sequence number of [" + persistenceId + "]")
            .thenCompose(highest -> {
              to = Math.min(to, highest);
              highestKnown = true;
              return readEvents();
            });
      }
      return readEvents();
    }

    private CompletionStage<Batch<EventEnvelope>> readEvents() {
      if (next > to) {
        return java.util.concurrent.CompletableFuture.completedFuture(new Batch<>(List.of(), Next.LAST));
      }
      if (!current && to != Long.MAX_VALUE) {
        // A live query with an end: once every number up to it is stored, a read that comes back
        // short has seen all there is (the rest were deleted), so it completes instead of polling
        // for ever. The highest number is read before the events, so that none stored between the
        // two reads is missed.
        return bounded(journal.highestSequenceNr(persistenceId), "the highest sequence number of [" + persistenceId + "]")
            .thenCompose(highest -> replay(highest >= to));
      }
      return replay(current);
    }

    /** @param complete whether a read that comes back short ends the query */
    private CompletionStage<Batch<EventEnvelope>> replay(boolean complete) {
      List<PersistentRepr> stored = new ArrayList<>();
      return bounded(journal.replay(persistenceId, next, to, batchSize, stored::add),
          "a query of the events of [" + persistenceId + "] from " + next)
          .thenApply(done -> {
            List<EventEnvelope> found = new ArrayList<>(stored.size());
            for (PersistentRepr r : stored) {
              envelopes(Offset.sequence(r.sequenceNr()), r, found);
            }
            if (!stored.isEmpty()) {
              next = stored.get(stored.size() - 1).sequenceNr() + 1;
            }
            Next then = next > to ? Next.LAST : stored.size() >= batchSize ? Next.NOW : complete ? Next.LAST : Next.LATER;
            return new Batch<>(found, then);
          });
    }
  }

  /** A subscription to the events of a tag. */
  private final class ByTag extends PollingSubscription<EventEnvelope> {
    private final String tag;
    private final boolean current;
    private long after;

    ByTag(Flow.Subscriber<? super EventEnvelope> on, Duration refresh, String tag, long after) {
      super(on, running, refresh, maxBufferSize);
      this.tag = tag;
      this.after = after;
      this.current = refresh == null;
    }

    @Override
    protected CompletionStage<Batch<EventEnvelope>> read() {
      List<TaggedRepr> stored = new ArrayList<>();
      return bounded(journal.eventsByTag(tag, after, batchSize, stored::add),
          "a query of the events tagged [" + tag + "] after offset " + after)
          .thenApply(done -> {
            List<EventEnvelope> found = new ArrayList<>(stored.size());
            for (TaggedRepr t : stored) {
              envelopes(Offset.sequence(t.offset()), t.event(), found);
            }
            if (!stored.isEmpty()) {
              after = stored.get(stored.size() - 1).offset();
            }
            return new Batch<>(found, stored.size() >= batchSize ? Next.NOW : current ? Next.LAST : Next.LATER);
          });
    }
  }

  /** A subscription to the ids. */
  private final class Ids extends PollingSubscription<String> {
    private final boolean live;
    private final Set<String> seen = new HashSet<>();
    /** Listed, not yet handed over: a listing is handed over a batch at a time. */
    private final java.util.ArrayDeque<String> listed = new java.util.ArrayDeque<>();
    private boolean listedAll; // a current query listed once

    Ids(Flow.Subscriber<? super String> on, Duration refresh, boolean live) {
      super(on, running, refresh, maxBufferSize);
      this.live = live;
    }

    @Override
    protected CompletionStage<Batch<String>> read() {
      if (!listed.isEmpty() || listedAll) {
        return java.util.concurrent.CompletableFuture.completedFuture(next());
      }
      return bounded(journal.currentPersistenceIds(id -> {
            if (!live || seen.add(id)) {
              listed.add(id);
            }
          }), "a query of the persistence ids")
          .thenApply(done -> {
            listedAll = !live;
            return next();
          });
    }

    /** @return at most a batch of the listed ids, and what follows them */
    private Batch<String> next() {
      List<String> batch = new ArrayList<>(Math.min(listed.size(), batchSize));
      while (batch.size() < batchSize && !listed.isEmpty()) {
        batch.add(listed.poll());
      }
      return new Batch<>(batch, !listed.isEmpty() ? Next.NOW : live ? Next.LATER : Next.LAST);
    }
  }
}
