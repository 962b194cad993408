package dev.troupe.persistence.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.DeferredBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.persistence.Recovery;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.internal.Running;
import java.util.Objects;
import java.util.Set;

/**
 * A typed actor whose state is the fold of the events it stored: a command handler answers each
 * command with an {@link Effect} (events to persist, then replies and other steps), and an event
 * handler applies each stored event to the state. When the actor starts (again) it recovers the
 * state from its newest snapshot and the events after it, through the same event handler.
 *
 * <pre>{@code
 * public final class Counter extends EventSourcedBehavior<Counter.Command, Counter.Added, Integer> {
 *   public sealed interface Command {}
 *   public record Add(int n, ActorRef<Integer> replyTo) implements Command {}
 *   public record Added(int n) {}
 *
 *   public Counter(String id) { super(PersistenceId.of("Counter", id)); }
 *
 *   @Override public Integer emptyState() { return 0; }
 *
 *   @Override public CommandHandler<Command, Added, Integer> commandHandler() {
 *     return newCommandHandlerBuilder().forAnyState()
 *         .onCommand(Add.class, (total, c) -> Effect().persist(new Added(c.n())).thenReply(c.replyTo(), t -> t))
 *         .build();
 *   }
 *
 *   @Override public EventHandler<Integer, Added> eventHandler() {
 *     return newEventHandlerBuilder().forAnyState().onEvent(Added.class, (total, e) -> total + e.n()).build();
 *   }
 * }
 * }</pre>
 *
 * <p>Commands that arrive while the actor recovers, or while an effect's events are being stored,
 * wait in a buffer and are handled in order after it ({@code
 * troupe.persistence.typed.stash-capacity} of them at most; more go to dead letters with a WARN).
 * The steps of an effect run once its events are stored and applied, with the new state. The
 * journal failing a write or the recovery fails the actor with a {@link
 * dev.troupe.persistence.typed.JournalFailureException} (supervise it to restart with back-off); a
 * rejected write with an {@link dev.troupe.persistence.typed.EventRejectedException}. The instance
 * is a behaviour value: one may start any number of actors, each with its own state.
 *
 * <p>{@link EventSourcedBehaviorWithEnforcedReplies} is the same with a command handler whose every
 * case must answer with a {@link ReplyEffect}, so that the compiler checks that each command gets a
 * reply.
 *
 * @param <C> the commands
 * @param <E> the events
 * @param <S> the state
 */
public abstract class EventSourcedBehavior<C, E, S> extends DeferredBehavior<C> {
  private final PersistenceId persistenceId;

  /** @param persistenceId the id of the actor's history in the journal */
  protected EventSourcedBehavior(PersistenceId persistenceId) {
    this.persistenceId = Objects.requireNonNull(persistenceId, "persistenceId");
  }

  /** @return the id of the actor's history */
  public final PersistenceId persistenceId() {
    return persistenceId;
  }

  /** @return the state before any event (also after a recovery that found none) */
  public abstract S emptyState();

  /** @return what the actor does with each command; called once per actor start */
  public abstract CommandHandler<C, E, S> commandHandler();

  /** @return how each event changes the state; called once per actor start */
  public abstract EventHandler<S, E> eventHandler();

  /** @return what the actor does on signals; none by default */
  public SignalHandler<S> signalHandler() {
    return SignalHandler.empty();
  }

  /** @return when to save snapshots by itself; never by default */
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.disabled();
  }

  /**
   * Whether to save a snapshot after an event, besides {@link #retentionCriteria()}.
   *
   * @param state the state after the event
   * @param event the event
   * @param sequenceNr its sequence number
   * @return false by default
   */
  public boolean shouldSnapshot(S state, E event, long sequenceNr) {
    return false;
  }

  /**
   * The tags an event is stored with, for the queries by tag ({@code eventsByTag}); called once per
   * event as it is persisted.
   *
   * @param event the event
   * @return its tags; none by default
   */
  public Set<String> tagsFor(E event) {
    return Set.of();
  }

  /** @return how the actor recovers; from the newest snapshot and every later event by default */
  public Recovery recovery() {
    return Recovery.create();
  }

  /** @return the journal plugin's configuration path; empty for the default */
  public String journalPluginId() {
    return "";
  }

  /** @return the snapshot store plugin's configuration path; empty for the default */
  public String snapshotPluginId() {
    return "";
  }

  /** @return the effects a command handler answers with */
  protected final EffectFactories<E, S> Effect() {
    return EffectFactories.instance();
  }

  /** @return a builder of the command handler */
  protected final CommandHandlerBuilder<C, E, S> newCommandHandlerBuilder() {
    return new CommandHandlerBuilder<>();
  }

  /** @return a builder of the event handler */
  protected final EventHandlerBuilder<S, E> newEventHandlerBuilder() {
    return new EventHandlerBuilder<>();
  }

  /** @return a builder of the signal handler */
  protected final SignalHandler.Builder<S> newSignalHandlerBuilder() {
    return new SignalHandler.Builder<>();
  }

  /**
   * Starts the actor's recovery; called by the runtime when an actor starts with this behaviour.
   *
   * @param ctx the actor's context
   * @return the running behaviour
   */
  @Override
  public final Behavior<C> apply(ActorContext<C> ctx) {
    return Running.start(this, ctx);
  }
}
