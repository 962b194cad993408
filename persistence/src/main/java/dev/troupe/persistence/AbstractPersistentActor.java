package dev.troupe.persistence;

import dev.troupe.actor.AbstractActorWithStash;
import dev.troupe.actor.Procedure;
import dev.troupe.actor.spi.ReceiveInterception;
import java.util.Objects;
import java.util.Optional;

/**
 * An actor whose state is the sum of the events it stored: it persists an event for each change
 * and, when it starts (again), recovers its state by replaying them, from the newest snapshot on.
 *
 * <pre>{@code
 * public final class Counter extends AbstractPersistentActor {
 *   private int total;
 *   private final String id;
 *   public Counter(String id) { this.id = id; }
 *
 *   @Override public String persistenceId() { return "counter-" + id; }
 *
 *   @Override public Receive createReceiveRecover() {          // events (and a snapshot) on start
 *     return receiveBuilder().match(Added.class, e -> total += e.n()).build();
 *   }
 *
 *   @Override public Receive createReceive() {                 // commands once recovered
 *     return receiveBuilder()
 *         .match(Add.class, c -> persist(new Added(c.n()), e -> {
 *           total += e.n();                                   // runs once the event is stored
 *           getSender().tell(total, getSelf());
 *         }))
 *         .build();
 *   }
 * }
 * }</pre>
 *
 * <p><b>Recovery.</b> Before its first command the actor gets the newest snapshot {@link
 * #recovery()} selects (a {@link SnapshotOffer}), then every later event, then {@link
 * RecoveryCompleted}, all in the behaviour {@link #createReceiveRecover()} returns. Commands that
 * arrive meanwhile wait in the stash. Events are read in chunks ({@code
 * troupe.persistence.replay-batch-size}), the next one once the actor applied the last. An
 * exception while recovering, or a journal that fails to replay, calls {@link
 * #onRecoveryFailure} and stops the actor.
 *
 * <p><b>Persisting.</b> {@link #persist} hands an event to the journal and runs its handler once
 * the event is stored, on the actor's thread, with the sender of the command that persisted it;
 * commands that arrive in between are stashed, so the handlers of one command run before the next
 * command. The events a command persists are written together after its handler returns; while a
 * write is in flight the next commands' events queue and go in one write (group commit). {@link
 * #persistAsync} does not stash. A write the journal fails calls {@link #onPersistFailure} and
 * stops the actor (whether the event was stored is unknown: a restart recovers what was); a write
 * it rejects (e.g. an event that does not serialize) calls {@link #onPersistRejected} and the
 * actor goes on.
 *
 * <p>{@code become} and the stash work as in any actor; the stash is shared with the one that holds
 * commands while recovering or persisting, and unstashing after a write also gives back what the
 * actor stashed itself (a behaviour that waits for something stashes it again). One actor per
 * {@code persistenceId} may run at a time; the journal refuses a second writer's events, and the
 * actor that wrote them stops.
 */
public abstract class AbstractPersistentActor extends AbstractActorWithStash implements ReceiveInterception {
  private Eventsourced eventsourced; // this incarnation's, made when the cell installs the first behaviour

  /** Binds the instance to its cell. */
  protected AbstractPersistentActor() {}

  /**
   * The id of this actor's history in the journal: the same for every incarnation, unique in the
   * journal (e.g. the entity type and id).
   *
   * @return the id
   */
  public abstract String persistenceId();

  /**
   * The behaviour that applies the snapshot and the events while the actor recovers.
   *
   * @return the behaviour; called once per incarnation
   */
  public abstract Receive createReceiveRecover();

  /**
   * How this actor recovers; override for another snapshot, for fewer events, or for none.
   *
   * @return {@link Recovery#create()}
   */
  public Recovery recovery() {
    return Recovery.create();
  }

  /**
   * The journal plugin's configuration path; empty for {@code troupe.persistence.journal.plugin}.
   *
   * @return the path
   */
  public String journalPluginId() {
    return "";
  }

  /**
   * The snapshot store plugin's configuration path; empty for {@code
   * troupe.persistence.snapshot-store.plugin}.
   *
   * @return the path
   */
  public String snapshotPluginId() {
    return "";
  }

  /**
   * Stores an event and then runs {@code handler} with it; commands wait in the stash until it ran.
   *
   * @param event the event
   * @param handler what to do once it is stored (update the state, reply)
   * @param <A> the event's type
   * @throws IllegalStateException while the actor recovers
   */
  public final <A> void persist(A event, Procedure<A> handler) {
    machine().persist(java.util.List.of(Objects.requireNonNull(event, "event")), handler, true);
  }

  /**
   * Stores events all together or none, then runs {@code handler} with each in order; commands
   * wait in the stash until they ran. Nothing happens for no events.
   *
   * @param events the events
   * @param handler what to do with each once they are stored
   * @param <A> the events' type
   * @throws IllegalStateException while the actor recovers
   */
  public final <A> void persistAll(Iterable<A> events, Procedure<A> handler) {
    machine().persist(Eventsourced.listOf(events), handler, true);
  }

  /**
   * As {@link #persist}, without stashing: commands go on being handled while the event is written.
   *
   * @param event the event
   * @param handler what to do once it is stored
   * @param <A> the event's type
   * @throws IllegalStateException while the actor recovers
   */
  public final <A> void persistAsync(A event, Procedure<A> handler) {
    machine().persist(java.util.List.of(Objects.requireNonNull(event, "event")), handler, false);
  }

  /**
   * As {@link #persistAll}, without stashing.
   *
   * @param events the events
   * @param handler what to do with each once they are stored
   * @param <A> the events' type
   * @throws IllegalStateException while the actor recovers
   */
  public final <A> void persistAllAsync(Iterable<A> events, Procedure<A> handler) {
    machine().persist(Eventsourced.listOf(events), handler, false);
  }

  /**
   * Runs {@code handler} with {@code value} (which is not stored) after the handlers of every event
   * persisted before; commands wait in the stash until it ran.
   *
   * @param value what the handler gets
   * @param handler what to do
   * @param <A> the value's type
   * @throws IllegalStateException while the actor recovers
   */
  public final <A> void defer(A value, Procedure<A> handler) {
    machine().defer(value, handler, true);
  }

  /**
   * As {@link #defer}, without stashing.
   *
   * @param value what the handler gets
   * @param handler what to do
   * @param <A> the value's type
   * @throws IllegalStateException while the actor recovers
   */
  public final <A> void deferAsync(A value, Procedure<A> handler) {
    machine().defer(value, handler, false);
  }

  /** @return the sequence number of the last event applied (replayed, or stored and handled) */
  public final long lastSequenceNr() {
    return machine().lastSequenceNr();
  }

  /** @return the sequence number of the snapshot recovery started from, or of the last one saved; 0 if none */
  public final long snapshotSequenceNr() {
    return machine().snapshotSequenceNr();
  }

  /** @return whether the actor is still recovering */
  public final boolean recoveryRunning() {
    return machine().recovering();
  }

  /** @return whether recovery has completed */
  public final boolean recoveryFinished() {
    return !machine().recovering();
  }

  /**
   * Saves a snapshot of the state at {@link #lastSequenceNr()}; the actor gets a {@link
   * SaveSnapshotSuccess} or {@link SaveSnapshotFailure}.
   *
   * @param snapshot the state
   */
  public final void saveSnapshot(Object snapshot) {
    machine().saveSnapshot(Objects.requireNonNull(snapshot, "snapshot"));
  }

  /**
   * Deletes the snapshot at a sequence number; the actor gets a {@link DeleteSnapshotSuccess} or
   * {@link DeleteSnapshotFailure}.
   *
   * @param sequenceNr the snapshot's sequence number
   */
  public final void deleteSnapshot(long sequenceNr) {
    machine().deleteSnapshot(sequenceNr);
  }

  /**
   * Deletes the snapshots the criteria select; the actor gets a {@link DeleteSnapshotsSuccess} or
   * {@link DeleteSnapshotsFailure}.
   *
   * @param criteria which
   */
  public final void deleteSnapshots(SnapshotSelectionCriteria criteria) {
    machine().deleteSnapshots(Objects.requireNonNull(criteria, "criteria"));
  }

  /**
   * Deletes the stored events up to a sequence number (at most {@link #lastSequenceNr()}); the
   * actor gets a {@link DeleteMessagesSuccess} or {@link DeleteMessagesFailure}. Later events keep
   * their numbers.
   *
   * @param toSequenceNr the highest to delete, inclusive
   */
  public final void deleteMessages(long toSequenceNr) {
    machine().deleteMessages(toSequenceNr);
  }

  /**
   * Called when the journal failed to store an event; the actor stops after it. Logs the failure
   * at ERROR.
   *
   * @param cause why
   * @param event the event
   * @param sequenceNr the number it would have had
   */
  protected void onPersistFailure(Throwable cause, Object event, long sequenceNr) {
    log().error(cause, "failed to persist event {} (sequence number {}) of persistence id [{}]; the actor stops",
        event.getClass().getName(), sequenceNr, persistenceId());
  }

  /**
   * Called when the journal rejected an event without storing it; the actor goes on. Logs it at
   * WARN.
   *
   * @param cause why
   * @param event the event
   * @param sequenceNr the number it would have had
   */
  protected void onPersistRejected(Throwable cause, Object event, long sequenceNr) {
    log().warning("event {} (sequence number {}) of persistence id [{}] was rejected by the journal: {}",
        event.getClass().getName(), sequenceNr, persistenceId(), cause.toString());
  }

  /**
   * Called when recovery failed; the actor stops after it. Logs the failure at ERROR.
   *
   * @param cause why
   * @param event the event (or snapshot offer) being applied, if the failure came from applying one
   */
  protected void onRecoveryFailure(Throwable cause, Optional<Object> event) {
    log().error(cause, "recovery of persistence id [{}] failed{}; the actor stops", persistenceId(),
        event.map(e -> " applying " + e.getClass().getName()).orElse(""));
  }

  /**
   * Runtime SPI ({@link ReceiveInterception}): the cell runs each behaviour through this actor's
   * recovery and persistence protocol. Not for application code.
   *
   * @param behavior the behaviour the actor installs
   * @return the behaviour the cell runs
   */
  @Override
  public final Receive intercept(Receive behavior) {
    Eventsourced e = eventsourced;
    if (e == null) { // the first behaviour of this incarnation: recovery starts
      e = new Eventsourced(this);
      eventsourced = e;
      e.startRecovery();
    }
    return e.around(behavior);
  }

  /**
   * For subclasses in this package: handles a message of their own machinery ahead of the stash
   * and of the actor's behaviours, also while a write is in flight.
   *
   * @param message the message the cell delivers
   * @return whether it was such a message (and is handled)
   * @throws Exception what handling it threw (the actor fails)
   */
  boolean receiveInternal(Object message) throws Exception {
    return false;
  }

  /**
   * For subclasses in this package: called once every event is replayed and the actor no longer
   * recovers, before the recovery behaviour gets {@link RecoveryCompleted}. What it throws fails the
   * recovery.
   *
   * @throws Exception why recovery fails
   */
  void onReplaySuccess() throws Exception {}

  private Eventsourced machine() {
    Eventsourced e = eventsourced;
    if (e == null) {
      throw new IllegalStateException("persistence is not available in the constructor of " + getClass().getName());
    }
    return e;
  }
}
