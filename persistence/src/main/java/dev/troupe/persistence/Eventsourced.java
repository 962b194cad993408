package dev.troupe.persistence;

import dev.troupe.actor.AbstractActor.Receive;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.NotInfluenceReceiveTimeout;
import dev.troupe.actor.Procedure;
import dev.troupe.actor.spi.CellSpi;
import dev.troupe.persistence.journal.EventAdapters;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.SelectedSnapshot;
import dev.troupe.persistence.spi.SnapshotStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The recovery and persistence protocol of one incarnation of an {@link AbstractPersistentActor}:
 * what stands between the cell and the actor's behaviours. Actor thread only, except the journal's
 * callbacks, which only send the actor messages.
 *
 * <p>Every reply of a plugin comes back as a message to the actor tagged with this incarnation, so
 * that handlers run on the actor's thread and a restarted actor ignores its predecessor's replies.
 * The sender of a write's reply is the command's sender, which the event handlers then see.
 */
final class Eventsourced {
  private final AbstractPersistentActor actor;
  private final ActorRef self;
  private final String persistenceId;
  private final Recovery recovery;
  private final Persistence persistence;
  private final Journal journal;
  private final EventAdapters adapters; // isEmpty(): the events pass as they are, unlooked at
  private final int batchSize;

  private SnapshotStore snapshots; // made on first use
  private Receive recover; // the recovery behaviour; null once recovered
  private boolean recovering = true;
  private boolean stopping; // a failure that stops the actor: nothing more is handled
  private long replayed; // events applied while recovering
  private long lastSequenceNr;
  private long snapshotSequenceNr;
  private long nextSequenceNr; // the number the next persisted event gets; set when recovered

  private final ArrayList<Invocation> current = new ArrayList<>(); // persisted by the message being handled
  private final ArrayDeque<Invocation> queued = new ArrayDeque<>(); // waiting for the write in flight
  private boolean writing; // a journal write is in flight
  private int stashing; // invocations that hold commands in the stash until their handlers ran
  private boolean releasing; // releaseStashed is running (further down this thread's stack)

  Eventsourced(AbstractPersistentActor actor) {
    this.actor = actor;
    this.self = actor.getSelf();
    this.persistenceId = requireId(actor.persistenceId(), actor);
    this.recovery = java.util.Objects.requireNonNull(actor.recovery(), "recovery()");
    this.persistence = Persistence.get(actor.getContext().getSystem());
    String journalPluginId = java.util.Objects.requireNonNull(actor.journalPluginId(), "journalPluginId()");
    this.journal = persistence.journalFor(journalPluginId);
    this.adapters = persistence.adaptersFor(journalPluginId);
    this.batchSize = persistence.replayBatchSize();
  }

  private static String requireId(String id, AbstractPersistentActor actor) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException(actor.getClass().getName() + ".persistenceId() must not be null or empty");
    }
    return id;
  }

  static <A> List<Object> listOf(Iterable<A> events) {
    ArrayList<Object> list = new ArrayList<>();
    for (A e : events) {
      list.add(java.util.Objects.requireNonNull(e, "an event of persistAll"));
    }
    return list;
  }

  // =============================================================== the cell's side

  /** The behaviour the cell runs for one of the actor's behaviours. */
  Receive around(Receive behavior) {
    return Receive.of(m -> receive(behavior, m));
  }

  private void receive(Receive behavior, Object m) throws Exception {
    if (m instanceof Reply r) {
      if (r.owner == this && !stopping) {
        r.apply(this, behavior);
        flush();
      }
      return; // an earlier incarnation's reply, or one after a failure that stops the actor
    }
    if (!stopping && actor.receiveInternal(m)) {
      return; // the actor's own machinery (a redelivery tick): never stashed, never a command
    }
    if (recovering || stashing > 0 || stopping) {
      actor.stash();
      return;
    }
    try {
      if (!behavior.receive(m)) {
        actor.unhandled(m);
      }
    } catch (Exception | Error e) {
      current.clear(); // the actor fails: what it persisted in this handler is not written
      throw e;
    }
    flush();
  }

  // =============================================================== recovery

  void startRecovery() {
    recover = actor.createReceiveRecover();
    if (recover == null) {
      throw new IllegalStateException(actor.getClass().getName() + ".createReceiveRecover() returned null");
    }
    SnapshotSelectionCriteria criteria = recovery.fromSnapshot().limit(recovery.toSequenceNr());
    if (criteria.maxSequenceNr() == 0) { // no snapshot can be selected (Recovery.none(), or to 0)
      replayFrom(1);
      return;
    }
    ask(persistence.bounded(snapshots().load(persistenceId, criteria), "snapshot load of persistence id [" + persistenceId + "]"), SnapshotLoaded::new);
  }

  private void onSnapshot(Optional<SelectedSnapshot> loaded) {
    if (loaded.isPresent()) {
      SelectedSnapshot s = loaded.get();
      SnapshotOffer offer = new SnapshotOffer(s.metadata(), s.snapshot());
      lastSequenceNr = snapshotSequenceNr = s.metadata().sequenceNr();
      if (!applyRecovered(offer)) {
        return;
      }
    }
    replayFrom(lastSequenceNr + 1);
  }

  private void replayFrom(long from) {
    long left = recovery.replayMax() - replayed;
    if (from > recovery.toSequenceNr() || left <= 0) {
      ask(persistence.bounded(journal.highestSequenceNr(persistenceId), "highest sequence number of persistence id [" + persistenceId + "]"), Highest::new);
      return;
    }
    long max = Math.min(batchSize, left);
    List<PersistentRepr> chunk = new ArrayList<>();
    ask(persistence.bounded(journal.replay(persistenceId, from, recovery.toSequenceNr(), max, chunk::add),
        "replay of persistence id [" + persistenceId + "]"), v -> new Replayed(this, chunk, max));
  }

  private void onReplayed(List<PersistentRepr> chunk, long max) {
    boolean adapt = !adapters.isEmpty();
    for (PersistentRepr e : chunk) {
      lastSequenceNr = e.sequenceNr();
      replayed++;
      if (!(adapt ? applyAdapted(e.payload()) : applyRecovered(e.payload()))) {
        return;
      }
    }
    if (chunk.size() >= max) {
      replayFrom(lastSequenceNr + 1);
    } else {
      ask(persistence.bounded(journal.highestSequenceNr(persistenceId), "highest sequence number of persistence id [" + persistenceId + "]"), Highest::new);
    }
  }

  private void onHighest(long highest) throws Exception {
    nextSequenceNr = Math.max(lastSequenceNr, highest) + 1;
    recovering = false;
    Receive r = recover;
    recover = null;
    try {
      actor.onReplaySuccess();
      if (!r.receive(RecoveryCompleted.getInstance())) {
        actor.unhandled(RecoveryCompleted.getInstance());
      }
    } catch (Exception | Error e) {
      recoveryFailed(e, Optional.of(RecoveryCompleted.getInstance()));
      return;
    }
    releaseStashed();
  }

  /**
   * A stored event through the journal's read adapters: each event they make, in order, with the
   * stored event's sequence number; none skips it.
   *
   * @return false if adapting or applying failed (the actor is stopping)
   */
  private boolean applyAdapted(Object stored) {
    List<Object> events;
    try {
      events = adapters.fromJournal(stored, "").events();
    } catch (RuntimeException | Error e) {
      recoveryFailed(e, Optional.of(stored));
      return false;
    }
    for (Object event : events) {
      if (!applyRecovered(event)) {
        return false;
      }
    }
    return true;
  }

  /** @return false if applying it failed (the actor is stopping) */
  private boolean applyRecovered(Object event) {
    try {
      if (!recover.receive(event)) {
        actor.unhandled(event);
      }
      return true;
    } catch (Exception | Error e) {
      recoveryFailed(e, Optional.of(event));
      return false;
    }
  }

  private void recoveryFailed(Throwable cause, Optional<Object> event) {
    stopping = true;
    try {
      actor.onRecoveryFailure(cause, event);
    } finally {
      actor.getContext().stop(self);
    }
  }

  boolean recovering() {
    return recovering;
  }

  long lastSequenceNr() {
    return lastSequenceNr;
  }

  long snapshotSequenceNr() {
    return snapshotSequenceNr;
  }

  // =============================================================== persisting

  @SuppressWarnings("unchecked")
  <A> void persist(List<Object> events, Procedure<A> handler, boolean stash) {
    java.util.Objects.requireNonNull(handler, "handler");
    if (recovering) {
      throw new IllegalStateException("persistence id [" + persistenceId + "] cannot persist while it recovers");
    }
    if (events.isEmpty()) {
      return;
    }
    Invocation i = new Invocation(events, (Procedure<Object>) handler, stash, actor.getSender(), nextSequenceNr);
    nextSequenceNr += events.size();
    add(i);
  }

  @SuppressWarnings("unchecked")
  <A> void defer(A value, Procedure<A> handler, boolean stash) {
    java.util.Objects.requireNonNull(handler, "handler");
    if (recovering) {
      throw new IllegalStateException("persistence id [" + persistenceId + "] cannot defer while it recovers");
    }
    add(new Invocation(java.util.Collections.singletonList(value), (Procedure<Object>) handler, stash, actor.getSender(), 0));
  }

  private void add(Invocation i) {
    current.add(i);
    if (i.stash) {
      stashing++;
    }
  }

  /**
   * Queues what the message just handled persisted, and writes it unless a write is in flight;
   * again while a write completed at once and its handlers persisted more.
   */
  private void flush() throws Exception {
    while (!current.isEmpty()) {
      queued.addAll(current);
      current.clear();
      if (writing) {
        return;
      }
      writeQueued();
    }
  }

  /**
   * Writes what is queued. The journal's answer comes back as messages to the actor, with each
   * invocation's sender; but when the journal answers at once (the in-memory one) and every
   * invocation of the write came from the message being handled, the answer is handled at once, as
   * those messages would be: the next command then never waits behind the commands that queued
   * meanwhile (with a deep mailbox, each of them would be stashed and unstashed once per write).
   */
  private void writeQueued() throws Exception {
    List<Invocation> batch = new ArrayList<>(queued);
    queued.clear();
    List<AtomicWrite> writes = new ArrayList<>();
    long now = System.currentTimeMillis();
    boolean oneSender = true;
    ActorRef sender = actor.getSender();
    int toWrite = 0;
    RuntimeException adaptFailed = null; // a write adapter threw: the batch fails as a write would
    for (Invocation i : batch) {
      if (i.firstSequenceNr > 0) {
        toWrite++;
        if (adaptFailed == null) {
          try {
            writes.add(i.toWrite(persistenceId, now, adapters));
          } catch (RuntimeException e) {
            adaptFailed = e;
          }
        }
      }
      oneSender &= java.util.Objects.equals(i.sender, sender);
    }
    if (toWrite == 0) { // only deferred handlers: nothing to write, they run in order after what is queued
      for (Invocation i : batch) {
        self.tell(new Written(this, i), i.sender);
      }
      return;
    }
    writing = true;
    CompletionStage<List<Optional<Exception>>> stage;
    try {
      if (adaptFailed != null) {
        throw adaptFailed;
      }
      stage = persistence.bounded(journal.write(writes), "write of persistence id [" + persistenceId + "]");
    } catch (RuntimeException e) {
      stage = java.util.concurrent.CompletableFuture.failedFuture(e);
    }
    int written = toWrite;
    Thread actorThread = oneSender ? Thread.currentThread() : null;
    List<List<Reply>> answeredHere = new ArrayList<>(1);
    stage.whenComplete((results, thrown) -> {
      List<Reply> replies = replies(batch, written, results, unwrap(thrown));
      if (Thread.currentThread() == actorThread) {
        answeredHere.add(replies); // the journal answered inside write(): handled below, on this thread
      } else {
        for (Reply r : replies) {
          self.tell(r, r instanceof Written w ? w.invocation.sender : r instanceof Rejected j ? j.invocation.sender : ActorRef.noSender());
        }
      }
    });
    if (!answeredHere.isEmpty()) {
      for (Reply r : answeredHere.get(0)) {
        r.apply(this, null);
      }
    }
  }

  /** The messages that answer a write: one per invocation then the end of the batch, or the failure. */
  private List<Reply> replies(List<Invocation> batch, int writes, List<Optional<Exception>> results, Throwable failure) {
    if (failure == null && (results == null || results.size() != writes)) {
      failure = new IllegalStateException("the journal answered " + (results == null ? "null" : results.size() + " results")
          + " for " + writes + " writes");
    }
    if (failure != null) {
      return List.of(new WriteFailed(this, batch, failure));
    }
    List<Reply> replies = new ArrayList<>(batch.size() + 1);
    int w = 0;
    for (Invocation i : batch) {
      Optional<Exception> rejected = i.firstSequenceNr > 0 ? results.get(w++) : Optional.empty();
      replies.add(rejected.isPresent() ? new Rejected(this, i, rejected.get()) : new Written(this, i));
    }
    replies.add(new BatchDone(this));
    return replies;
  }

  private void onWritten(Invocation i) throws Exception {
    List<Object> events = i.events;
    for (int k = 0; k < events.size(); k++) {
      if (i.firstSequenceNr > 0) {
        lastSequenceNr = i.firstSequenceNr + k;
      }
      i.handler.apply(events.get(k));
    }
    handled(i);
  }

  private void onRejected(Invocation i, Exception cause) throws Exception {
    for (int k = 0; k < i.events.size(); k++) {
      actor.onPersistRejected(cause, i.events.get(k), i.firstSequenceNr + k);
    }
    handled(i);
  }

  private void handled(Invocation i) throws Exception {
    if (i.stash && --stashing == 0) {
      releaseStashed();
    }
  }

  /**
   * Hands the stashed messages to the actor one at a time, here and now, oldest first, until one
   * persists again (the rest stay in the stash, in order) or the stash is empty. Unlike {@code
   * unstashAll}, a message that waits through many writes is not moved through the mailbox again
   * after each: with many commands queued, each event costs the same. A loop at the outermost
   * call: a message released here whose events are stored at once (the in-memory journal) ends its
   * handlers inside the loop, which then goes on, instead of recursing. Messages the actor stashed
   * itself come out too (as with unstashAll); one it stashes again goes to the end, and each is
   * released at most once per call.
   */
  private void releaseStashed() throws Exception {
    if (releasing) {
      return; // inside a release: the outer loop goes on
    }
    releasing = true;
    try {
      CellSpi cell = (CellSpi) actor.getContext();
      for (int n = cell.stashSize(); n > 0 && stashing == 0 && !recovering && !stopping; n--) {
        if (!cell.deliverStashed()) {
          break;
        }
      }
    } finally {
      releasing = false;
    }
  }

  private void onBatchDone() throws Exception {
    writing = false;
    if (!queued.isEmpty()) {
      writeQueued();
    }
  }

  private void onWriteFailed(List<Invocation> batch, Throwable cause) {
    stopping = true;
    try {
      for (Invocation i : batch) {
        for (int k = 0; k < i.events.size() && i.firstSequenceNr > 0; k++) {
          actor.onPersistFailure(cause, i.events.get(k), i.firstSequenceNr + k);
        }
      }
    } finally {
      actor.getContext().stop(self);
    }
  }

  // =============================================================== snapshots and deletion

  private SnapshotStore snapshots() {
    SnapshotStore s = snapshots;
    if (s == null) {
      s = persistence.snapshotStoreFor(java.util.Objects.requireNonNull(actor.snapshotPluginId(), "snapshotPluginId()"));
      snapshots = s;
    }
    return s;
  }

  void saveSnapshot(Object snapshot) {
    SnapshotMetadata m = new SnapshotMetadata(persistenceId, lastSequenceNr, System.currentTimeMillis());
    tellWhenDone(snapshots().save(m, snapshot), v -> new SaveSnapshotSuccess(m), e -> new SaveSnapshotFailure(m, e));
    snapshotSequenceNr = lastSequenceNr;
  }

  void deleteSnapshot(long sequenceNr) {
    SnapshotMetadata m = new SnapshotMetadata(persistenceId, sequenceNr, 0);
    tellWhenDone(snapshots().delete(m), v -> new DeleteSnapshotSuccess(m), e -> new DeleteSnapshotFailure(m, e));
  }

  void deleteSnapshots(SnapshotSelectionCriteria criteria) {
    tellWhenDone(snapshots().delete(persistenceId, criteria),
        v -> new DeleteSnapshotsSuccess(criteria), e -> new DeleteSnapshotsFailure(criteria, e));
  }

  void deleteMessages(long toSequenceNr) {
    if (toSequenceNr > lastSequenceNr && toSequenceNr != Long.MAX_VALUE) {
      self.tell(new DeleteMessagesFailure(new IllegalArgumentException("cannot delete up to " + toSequenceNr
          + ": the last event is " + lastSequenceNr), toSequenceNr), ActorRef.noSender());
      return;
    }
    long to = Math.min(toSequenceNr, lastSequenceNr);
    tellWhenDone(journal.deleteTo(persistenceId, to),
        v -> new DeleteMessagesSuccess(toSequenceNr), e -> new DeleteMessagesFailure(e, toSequenceNr));
  }

  /** A plugin's answer as an ordinary message to the actor (its command behaviour handles it). */
  private <T> void tellWhenDone(CompletionStage<T> stage, Function<T, Object> success, Function<Throwable, Object> failure) {
    persistence.bounded(stage, "a call for persistence id [" + persistenceId + "]")
        .whenComplete((v, e) -> self.tell(e == null ? success.apply(v) : failure.apply(unwrap(e)), ActorRef.noSender()));
  }

  /** A plugin's answer as a reply of this incarnation; a failure fails the recovery. */
  private <T> void ask(CompletionStage<T> stage, java.util.function.BiFunction<Eventsourced, T, Reply> reply) {
    stage.whenComplete((v, e) ->
        self.tell(e == null ? reply.apply(this, v) : new RecoveryFailed(this, unwrap(e)), ActorRef.noSender()));
  }

  private void ask(CompletionStage<Void> stage, Function<Void, Reply> reply) {
    stage.whenComplete((v, e) -> self.tell(e == null ? reply.apply(v) : new RecoveryFailed(this, unwrap(e)), ActorRef.noSender()));
  }

  /** A dependent stage's failure comes wrapped; the actor's hooks get the cause itself. */
  private static Throwable unwrap(Throwable t) {
    return t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  // =============================================================== what is in flight, and the replies

  /** One persist, persistAll or defer call: its events (or deferred value), handler and sender. */
  private static final class Invocation {
    final List<Object> events;
    final Procedure<Object> handler;
    final boolean stash;
    final ActorRef sender;
    final long firstSequenceNr; // 0 for defer: nothing is written

    Invocation(List<Object> events, Procedure<Object> handler, boolean stash, ActorRef sender, long firstSequenceNr) {
      this.events = events;
      this.handler = handler;
      this.stash = stash;
      this.sender = sender;
      this.firstSequenceNr = firstSequenceNr;
    }

    /** The events as the journal stores them: a Tagged one's tags apart, through the write adapters if any. */
    AtomicWrite toWrite(String persistenceId, long timestamp, EventAdapters adapters) {
      List<PersistentRepr> reprs = new ArrayList<>(events.size());
      boolean adapt = !adapters.isEmpty();
      for (int k = 0; k < events.size(); k++) {
        Object e = events.get(k);
        if (adapt) {
          reprs.add(adapted(persistenceId, firstSequenceNr + k, e, timestamp, adapters));
          continue;
        }
        reprs.add(e instanceof Tagged t
            ? new PersistentRepr(persistenceId, firstSequenceNr + k, t.payload(), timestamp, t.tags())
            : new PersistentRepr(persistenceId, firstSequenceNr + k, e, timestamp));
      }
      return new AtomicWrite(persistenceId, reprs);
    }

    /** The adapter sees the event without its Tagged wrapper; a Tagged it returns adds its tags. */
    private static PersistentRepr adapted(String persistenceId, long sequenceNr, Object e, long timestamp,
        EventAdapters adapters) {
      java.util.Set<String> tags = java.util.Set.of();
      Object payload = e;
      if (e instanceof Tagged t) {
        payload = t.payload();
        tags = t.tags();
      }
      Object stored = adapters.toJournal(payload);
      if (stored instanceof Tagged t) {
        stored = t.payload();
        tags = union(tags, t.tags());
      }
      return new PersistentRepr(persistenceId, sequenceNr, stored, timestamp, tags);
    }

    private static java.util.Set<String> union(java.util.Set<String> a, java.util.Set<String> b) {
      if (a.isEmpty()) {
        return b;
      }
      if (b.isEmpty()) {
        return a;
      }
      java.util.Set<String> all = new java.util.HashSet<>(a);
      all.addAll(b);
      return all;
    }
  }

  /** A plugin's reply to one incarnation. */
  private abstract static class Reply implements NotInfluenceReceiveTimeout {
    final Eventsourced owner;

    Reply(Eventsourced owner) {
      this.owner = owner;
    }

    abstract void apply(Eventsourced e, Receive behavior) throws Exception;
  }

  private static final class SnapshotLoaded extends Reply {
    final Optional<SelectedSnapshot> snapshot;

    SnapshotLoaded(Eventsourced owner, Optional<SelectedSnapshot> snapshot) {
      super(owner);
      this.snapshot = snapshot;
    }

    @Override
    void apply(Eventsourced e, Receive behavior) {
      e.onSnapshot(snapshot);
    }
  }

  private static final class Replayed extends Reply {
    final List<PersistentRepr> chunk;
    final long max;

    Replayed(Eventsourced owner, List<PersistentRepr> chunk, long max) {
      super(owner);
      this.chunk = chunk;
      this.max = max;
    }

    @Override
    void apply(Eventsourced e, Receive behavior) {
      e.onReplayed(chunk, max);
    }
  }

  private static final class Highest extends Reply {
    final long highest;

    Highest(Eventsourced owner, Long highest) {
      super(owner);
      this.highest = highest;
    }

    @Override
    void apply(Eventsourced e, Receive behavior) throws Exception {
      e.onHighest(highest);
    }
  }

  private static final class RecoveryFailed extends Reply {
    final Throwable cause;

    RecoveryFailed(Eventsourced owner, Throwable cause) {
      super(owner);
      this.cause = cause;
    }

    @Override
    void apply(Eventsourced e, Receive behavior) {
      e.recoveryFailed(cause, Optional.empty());
    }
  }

  private static final class Written extends Reply {
    final Invocation invocation;

    Written(Eventsourced owner, Invocation invocation) {
      super(owner);
      this.invocation = invocation;
    }

    @Override
    void apply(Eventsourced e, Receive behavior) throws Exception {
      e.onWritten(invocation);
    }
  }

  private static final class Rejected extends Reply {
    final Invocation invocation;
    final Exception cause;

    Rejected(Eventsourced owner, Invocation invocation, Exception cause) {
      super(owner);
      this.invocation = invocation;
      this.cause = cause;
    }

    @Override
    void apply(Eventsourced e, Receive behavior) throws Exception {
      e.onRejected(invocation, cause);
    }
  }

  private static final class BatchDone extends Reply {
    BatchDone(Eventsourced owner) {
      super(owner);
    }

    @Override
    void apply(Eventsourced e, Receive behavior) throws Exception {
      e.onBatchDone();
    }
  }

  private static final class WriteFailed extends Reply {
    final List<Invocation> batch;
    final Throwable cause;

    WriteFailed(Eventsourced owner, List<Invocation> batch, Throwable cause) {
      super(owner);
      this.batch = batch;
      this.cause = cause;
    }

    @Override
    void apply(Eventsourced e, Receive behavior) {
      e.onWriteFailed(batch, cause);
    }
  }
}
