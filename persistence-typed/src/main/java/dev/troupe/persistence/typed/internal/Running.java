package dev.troupe.persistence.typed.internal;

import dev.troupe.actor.NotInfluenceReceiveTimeout;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.PreRestart;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.Recovery;
import dev.troupe.persistence.SnapshotMetadata;
import dev.troupe.persistence.SnapshotSelectionCriteria;
import dev.troupe.persistence.Tagged;
import dev.troupe.persistence.journal.EventAdapters;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.SelectedSnapshot;
import dev.troupe.persistence.spi.SnapshotStore;
import dev.troupe.persistence.typed.EventRejectedException;
import dev.troupe.persistence.typed.JournalFailureException;
import dev.troupe.persistence.typed.RecoveryCompleted;
import dev.troupe.persistence.typed.RecoveryFailed;
import dev.troupe.persistence.typed.SnapshotCompleted;
import dev.troupe.persistence.typed.SnapshotFailed;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.Effect;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehavior;
import dev.troupe.persistence.typed.javadsl.RetentionCriteria;
import dev.troupe.persistence.typed.javadsl.SignalHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The behaviour an event-sourced actor runs: recovery, then commands, effects and stored events.
 * One instance per actor start; actor thread only, except the plugins' callbacks, which only send
 * the actor messages.
 *
 * <p>A plugin's answer comes back as a message (a {@link Reply}) sent to the actor's classic ref,
 * tagged with this instance, so that a restarted actor ignores its predecessor's answers. Commands
 * wait in {@link #kept} while the actor recovers or while an effect's events are stored, and are
 * handled in order, synchronously, once it is done: before any message that arrives later.
 *
 * @param <C> the commands
 * @param <E> the events
 * @param <S> the state
 */
public final class Running<C, E, S> extends ExtensibleBehavior<C> {
  /** For what plugins' callbacks report, off the actor's thread (the context's logger is the actor's). */
  private static final Logger LOG = LoggerFactory.getLogger(Running.class);

  private final EventSourcedBehavior<C, E, S> definition;
  private final ActorContext<C> ctx;
  private final dev.troupe.actor.ActorRef self;
  private final String persistenceId;
  private final Persistence persistence;
  private final Journal journal;
  private final EventAdapters adapters; // isEmpty(): the events pass as they are, unlooked at
  private final Recovery recovery;
  private final CommandHandler<C, E, S> commands;
  private final EventHandler<S, E> events;
  private final SignalHandler<S> signals;
  private final RetentionCriteria retention;

  private SnapshotStore snapshots;
  private S state;
  private boolean recovering = true;
  private long replayed;
  private long lastSequenceNr;
  private long nextSequenceNr;
  private EffectImpl<E, S> inFlight; // the effect whose events are being stored
  private boolean writingInline; // inside journal.write on the actor's thread
  private Reply answeredInline; // the journal's answer given inside journal.write
  private final Commands<C> kept; // waiting for recovery or a write, or stashed

  private Running(EventSourcedBehavior<C, E, S> definition, ActorContext<C> ctx) {
    this.definition = definition;
    this.ctx = ctx;
    this.self = Adapter.toClassic(ctx.getSelf());
    this.persistenceId = definition.persistenceId().id();
    dev.troupe.actor.ActorSystem classic = Adapter.toClassic(ctx.getSystem());
    this.persistence = Persistence.get(classic);
    this.journal = persistence.journalFor(definition.journalPluginId());
    this.adapters = persistence.adaptersFor(definition.journalPluginId());
    this.recovery = definition.recovery();
    this.commands = definition.commandHandler();
    this.events = definition.eventHandler();
    this.signals = definition.signalHandler();
    this.retention = definition.retentionCriteria();
    this.kept = new Commands<>(ctx, "event-sourced actor [" + persistenceId + "]");
    this.state = definition.emptyState();
  }


  /**
   * Makes the behaviour of a starting actor and starts its recovery.
   *
   * @param definition the user's behaviour
   * @param ctx the actor's context
   * @param <C> the commands
   * @param <E> the events
   * @param <S> the state
   * @return the behaviour
   */
  public static <C, E, S> Behavior<C> start(EventSourcedBehavior<C, E, S> definition, ActorContext<C> ctx) {
    Running<C, E, S> r = new Running<>(definition, ctx);
    r.startRecovery();
    return r;
  }

  // =============================================================== messages and signals

  @Override
  public Behavior<C> receive(ActorContext<C> ctx, C msg) {
    Object m = msg; // a plugin's answer arrives as a message of the actor's type only by erasure
    if (m instanceof Reply r) {
      return r.owner == this ? r.apply(this) : Behaviors.same();
    }
    if (recovering || inFlight != null) {
      kept.await(msg);
      return Behaviors.same();
    }
    return handleAndSettle(msg);
  }

  @Override
  public Behavior<C> receiveSignal(ActorContext<C> ctx, Signal signal) {
    if (signal instanceof PreRestart) {
      kept.handOver();
    } else if (signal instanceof PostStop) {
      kept.dropAll(); // commands this behaviour kept are not lost silently when the actor ends
    }
    return signals.apply(state, signal) ? Behaviors.same() : Behaviors.unhandled();
  }

  /**
   * Handles a command and, when the journal stored its events inside the call (the in-memory
   * one), their application and the effect's steps too: a loop, not a recursion, however many
   * commands wait behind it.
   */
  private Behavior<C> handleAndSettle(C command) {
    Behavior<C> b = handle(command);
    Reply done = answeredInline;
    if (done == null) {
      return b;
    }
    answeredInline = null;
    return done instanceof Written ? applyWritten(false) : done.apply(this); // a failure throws
  }

  private Behavior<C> handle(C command) {
    Effect<E, S> e = commands.apply(state, command);
    if (!(e instanceof EffectImpl<E, S> effect)) {
      throw new IllegalStateException("the command handler of [" + persistenceId + "] returned " + e
          + " for " + command + ": return an effect made by Effect()");
    }
    switch (effect.kind) {
      case PERSIST -> {
        write(effect);
        return Behaviors.same();
      }
      case STASH -> kept.stash(command);
      case UNHANDLED -> {
        Behavior<C> after = runSteps(effect);
        return after == Behaviors.<C>same() ? Behaviors.unhandled() : after;
      }
      case NONE -> {
        // nothing to store: the steps run now
      }
    }
    return runSteps(effect);
  }

  /**
   * The effect's steps, with the current state; then the actor stops if one asked (after all the
   * steps: a reply after a stop is sent), else the stashed commands are handled if one asked.
   */
  private Behavior<C> runSteps(EffectImpl<E, S> effect) {
    Steps.After after = effect.steps.run(state);
    if (after == Steps.After.STOP) {
      return Behaviors.stopped();
    }
    if (after == Steps.After.UNSTASH) {
      kept.unstashAll(); // the stashed ones first, oldest first, before those waiting for a write
      return drain();
    }
    return Behaviors.same();
  }

  /** Handles the commands waiting in the buffer, in order, until one stores events or stops the actor. */
  private Behavior<C> drain() {
    ArrayDeque<C> buffered = kept.waiting();
    int n = buffered.size(); // a command stashed again while draining waits for the next unstash
    while (n-- > 0 && inFlight == null && !buffered.isEmpty()) {
      Behavior<C> b = handleAndSettle(buffered.poll());
      if (b == Behaviors.<C>stopped()) {
        return b;
      }
    }
    return Behaviors.same();
  }

  // =============================================================== recovery

  private void startRecovery() {
    SnapshotSelectionCriteria criteria = recovery.fromSnapshot().limit(recovery.toSequenceNr());
    if (criteria.maxSequenceNr() == 0) {
      replayFrom(1);
    } else {
      answer(persistence.bounded(snapshots().load(persistenceId, criteria), "snapshot load of persistence id [" + persistenceId + "]"), SnapshotLoaded::new);
    }
  }

  @SuppressWarnings("unchecked")
  private Behavior<C> onSnapshot(Optional<SelectedSnapshot> loaded) {
    if (loaded.isPresent()) {
      state = (S) loaded.get().snapshot();
      lastSequenceNr = loaded.get().metadata().sequenceNr();
    }
    replayFrom(lastSequenceNr + 1);
    return Behaviors.same();
  }

  private void replayFrom(long from) {
    long left = recovery.replayMax() - replayed;
    if (from > recovery.toSequenceNr() || left <= 0) {
      answer(persistence.bounded(journal.highestSequenceNr(persistenceId), "highest sequence number of persistence id [" + persistenceId + "]"), Highest::new);
      return;
    }
    long max = Math.min(persistence.replayBatchSize(), left);
    List<PersistentRepr> chunk = new ArrayList<>();
    answer(persistence.bounded(journal.replay(persistenceId, from, recovery.toSequenceNr(), max, chunk::add),
        "replay of persistence id [" + persistenceId + "]"), (o, v) -> new Replayed(o, chunk, max));
  }

  @SuppressWarnings("unchecked")
  private Behavior<C> onReplayed(List<PersistentRepr> chunk, long max) {
    boolean adapt = !adapters.isEmpty();
    for (PersistentRepr e : chunk) {
      if (adapt) {
        List<Object> read;
        try {
          read = adapters.fromJournal(e.payload(), "").events();
        } catch (RuntimeException | Error t) {
          return recoveryFailed(new IllegalStateException("the event adapters of event " + e.sequenceNr() + " ("
              + e.payload().getClass().getName() + ") failed", t));
        }
        for (Object event : read) { // each with the stored event's sequence number; none skips it
          try {
            state = events.apply(state, (E) event);
          } catch (RuntimeException | Error t) {
            return recoveryFailed(new IllegalStateException("applying event " + e.sequenceNr() + " ("
                + event.getClass().getName() + ", adapted from " + e.payload().getClass().getName() + ") failed", t));
          }
        }
      } else {
        try {
          state = events.apply(state, (E) e.payload());
        } catch (RuntimeException | Error t) {
          return recoveryFailed(new IllegalStateException("applying event " + e.sequenceNr() + " ("
              + e.payload().getClass().getName() + ") failed", t));
        }
      }
      lastSequenceNr = e.sequenceNr();
      replayed++;
    }
    if (chunk.size() >= max) {
      replayFrom(lastSequenceNr + 1);
    } else {
      answer(persistence.bounded(journal.highestSequenceNr(persistenceId), "highest sequence number of persistence id [" + persistenceId + "]"), Highest::new);
    }
    return Behaviors.same();
  }

  private Behavior<C> onHighest(long highest) {
    nextSequenceNr = Math.max(lastSequenceNr, highest) + 1;
    recovering = false;
    signals.apply(state, RecoveryCompleted.instance());
    return drain();
  }

  private Behavior<C> recoveryFailed(Throwable cause) {
    signals.apply(state, new RecoveryFailed(cause));
    throw new JournalFailureException("recovery of persistence id [" + persistenceId + "] failed", cause);
  }

  // =============================================================== storing events

  private void write(EffectImpl<E, S> effect) {
    inFlight = effect;
    long now = System.currentTimeMillis();
    List<PersistentRepr> reprs = new ArrayList<>(effect.events.size());
    RuntimeException adaptFailed = null; // a write adapter threw: the write fails
    for (E e : effect.events) {
      java.util.Set<String> tags = java.util.Objects.requireNonNull(definition.tagsFor(e), "tagsFor returned null");
      long sequenceNr = nextSequenceNr++;
      if (adapters.isEmpty()) {
        reprs.add(new PersistentRepr(persistenceId, sequenceNr, e, now, tags));
        continue;
      }
      if (adaptFailed == null) {
        try {
          reprs.add(adapted(sequenceNr, e, now, tags));
        } catch (RuntimeException x) {
          adaptFailed = x;
        }
      }
    }
    CompletionStage<List<Optional<Exception>>> stage;
    try {
      if (adaptFailed != null) {
        throw adaptFailed;
      }
      stage = persistence.bounded(journal.write(List.of(new AtomicWrite(persistenceId, reprs))), "write of persistence id [" + persistenceId + "]");
    } catch (RuntimeException e) {
      stage = java.util.concurrent.CompletableFuture.failedFuture(e);
    }
    Thread actorThread = Thread.currentThread();
    writingInline = true;
    stage.whenComplete((results, thrown) -> {
      Throwable failure = unwrap(thrown);
      if (failure == null && (results == null || results.size() != 1)) {
        failure = new IllegalStateException("the journal answered " + results + " for one write");
      }
      Reply r = failure != null ? new WriteFailed(this, failure)
          : results.get(0).isPresent() ? new WriteRejected(this, results.get(0).get())
          : new Written(this);
      if (Thread.currentThread() == actorThread && writingInline) {
        answeredInline = r; // inside journal.write on this thread: handleAndSettle handles it
      } else {
        self.tell(r, dev.troupe.actor.ActorRef.noSender());
      }
    });
    writingInline = false;
  }

  /** The event through the write adapters: a Tagged they return adds its tags to those of tagsFor. */
  private PersistentRepr adapted(long sequenceNr, Object e, long now, java.util.Set<String> tags) {
    Object stored = adapters.toJournal(e);
    if (stored instanceof Tagged t) {
      stored = t.payload();
      if (tags.isEmpty()) {
        tags = t.tags();
      } else if (!t.tags().isEmpty()) {
        java.util.Set<String> all = new java.util.HashSet<>(tags);
        all.addAll(t.tags());
        tags = all;
      }
    }
    return new PersistentRepr(persistenceId, sequenceNr, stored, now, tags);
  }

  private Behavior<C> onWritten() {
    return applyWritten(true);
  }

  /** @param thenDrain whether to handle the waiting commands after (not when called from the drain's loop) */
  private Behavior<C> applyWritten(boolean thenDrain) {
    EffectImpl<E, S> effect = inFlight;
    inFlight = null;
    for (E e : effect.events) {
      state = events.apply(state, e);
      lastSequenceNr++;
      if (retention.snapshotEveryNEvents() > 0 && lastSequenceNr % retention.snapshotEveryNEvents() == 0
          || definition.shouldSnapshot(state, e, lastSequenceNr)) {
        saveSnapshot();
      }
    }
    Behavior<C> after = runSteps(effect);
    return after == Behaviors.<C>stopped() || !thenDrain ? after : drain();
  }

  private Behavior<C> onWriteFailed(Throwable cause, boolean rejected) {
    List<E> lost = inFlight.events;
    if (rejected) { // nothing was stored: the numbers are free again
      nextSequenceNr -= lost.size();
      throw new EventRejectedException("the journal rejected " + lost.size() + " event(s) of persistence id ["
          + persistenceId + "]: " + lost, cause);
    }
    throw new JournalFailureException("the journal failed to store " + lost.size() + " event(s) of persistence id ["
        + persistenceId + "]", cause);
  }

  // =============================================================== snapshots

  private SnapshotStore snapshots() {
    SnapshotStore s = snapshots;
    if (s == null) {
      s = persistence.snapshotStoreFor(definition.snapshotPluginId());
      snapshots = s;
    }
    return s;
  }

  private void saveSnapshot() {
    SnapshotMetadata m = new SnapshotMetadata(persistenceId, lastSequenceNr, System.currentTimeMillis());
    answer(persistence.bounded(snapshots().save(m, state), "snapshot of persistence id [" + persistenceId + "]"),
        (o, v) -> new SnapshotSaved(o, m, null), e -> new SnapshotSaved(this, m, e));
  }

  private Behavior<C> onSnapshotSaved(SnapshotMetadata m, Throwable failure) {
    if (failure != null) {
      ctx.getLog().warn("snapshot of persistence id [{}] at {} failed", persistenceId, m.sequenceNr(), failure);
      signals.apply(state, new SnapshotFailed(m, failure));
      return Behaviors.same();
    }
    signals.apply(state, new SnapshotCompleted(m));
    long every = retention.snapshotEveryNEvents();
    long oldestKept = m.sequenceNr() - every * (retention.keepNSnapshots() - 1);
    if (retention.deleteEventsOnSnapshot() && every > 0 && oldestKept > 0) {
      journal.deleteTo(persistenceId, oldestKept).whenComplete((v, e) -> {
        if (e != null) {
          LOG.warn("deleting events of persistence id [{}] up to {} failed", persistenceId, oldestKept, unwrap(e));
        }
      });
    }
    long keepFrom = m.sequenceNr() - every * retention.keepNSnapshots();
    if (every > 0 && keepFrom > 0) {
      snapshots().delete(persistenceId, SnapshotSelectionCriteria.create(keepFrom, Long.MAX_VALUE))
          .whenComplete((v, e) -> {
            if (e != null) {
              LOG.warn("deleting old snapshots of persistence id [{}] failed", persistenceId, unwrap(e));
            }
          });
    }
    return Behaviors.same();
  }

  // =============================================================== plugins' answers

  private <T> void answer(CompletionStage<T> stage, java.util.function.BiFunction<Running<?, ?, ?>, T, Reply> reply) {
    answer(stage, reply, e -> new RecoveryFailedReply(this, e));
  }

  private <T> void answer(CompletionStage<T> stage, java.util.function.BiFunction<Running<?, ?, ?>, T, Reply> reply,
      Function<Throwable, Reply> failure) {
    stage.whenComplete((v, e) -> self.tell(e == null ? reply.apply(this, v) : failure.apply(unwrap(e)),
        dev.troupe.actor.ActorRef.noSender()));
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  /** A plugin's answer to one actor start. */
  private abstract static class Reply implements NotInfluenceReceiveTimeout {
    final Running<?, ?, ?> owner;

    Reply(Running<?, ?, ?> owner) {
      this.owner = owner;
    }

    abstract <C> Behavior<C> apply(Running<C, ?, ?> r);
  }

  private static final class SnapshotLoaded extends Reply {
    final Optional<SelectedSnapshot> snapshot;

    SnapshotLoaded(Running<?, ?, ?> owner, Optional<SelectedSnapshot> snapshot) {
      super(owner);
      this.snapshot = snapshot;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.onSnapshot(snapshot);
    }
  }

  private static final class Replayed extends Reply {
    final List<PersistentRepr> chunk;
    final long max;

    Replayed(Running<?, ?, ?> owner, List<PersistentRepr> chunk, long max) {
      super(owner);
      this.chunk = chunk;
      this.max = max;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.onReplayed(chunk, max);
    }
  }

  private static final class Highest extends Reply {
    final long highest;

    Highest(Running<?, ?, ?> owner, Long highest) {
      super(owner);
      this.highest = highest;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.onHighest(highest);
    }
  }

  private static final class RecoveryFailedReply extends Reply {
    final Throwable cause;

    RecoveryFailedReply(Running<?, ?, ?> owner, Throwable cause) {
      super(owner);
      this.cause = cause;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.recoveryFailed(cause);
    }
  }

  private static final class Written extends Reply {
    Written(Running<?, ?, ?> owner) {
      super(owner);
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.onWritten();
    }
  }

  private static final class WriteRejected extends Reply {
    final Throwable cause;

    WriteRejected(Running<?, ?, ?> owner, Throwable cause) {
      super(owner);
      this.cause = cause;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.onWriteFailed(cause, true);
    }
  }

  private static final class WriteFailed extends Reply {
    final Throwable cause;

    WriteFailed(Running<?, ?, ?> owner, Throwable cause) {
      super(owner);
      this.cause = cause;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.onWriteFailed(cause, false);
    }
  }

  private static final class SnapshotSaved extends Reply {
    final SnapshotMetadata metadata;
    final Throwable failure;

    SnapshotSaved(Running<?, ?, ?> owner, SnapshotMetadata metadata, Throwable failure) {
      super(owner);
      this.metadata = metadata;
      this.failure = failure;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?, ?> r) {
      return r.onSnapshotSaved(metadata, failure);
    }
  }
}
