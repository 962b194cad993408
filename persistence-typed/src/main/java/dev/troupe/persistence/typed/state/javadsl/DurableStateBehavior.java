package dev.troupe.persistence.typed.state.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.DeferredBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.javadsl.SignalHandler;
import dev.troupe.persistence.typed.state.internal.Running;
import java.util.Objects;

/**
 * A typed actor that stores its whole state, not events: its command handler answers each command
 * with an {@link Effect}, which may persist the actor's new state; a durable state store keeps the
 * latest one of each persistence id, with a revision number. When the actor starts (again) it gets
 * its stored state back (or {@link #emptyState()} if none is stored).
 *
 * <pre>{@code
 * public final class Counter extends DurableStateBehavior<Counter.Command, Integer> {
 *   public sealed interface Command {}
 *   public record Add(int n, ActorRef<Integer> replyTo) implements Command {}
 *
 *   public Counter(String id) { super(PersistenceId.of("Counter", id)); }
 *
 *   @Override public Integer emptyState() { return 0; }
 *
 *   @Override public CommandHandler<Command, Integer> commandHandler() {
 *     return newCommandHandlerBuilder().forAnyState()
 *         .onCommand(Add.class, (total, c) -> Effect().persist(total + c.n()).thenReply(c.replyTo(), t -> t))
 *         .build();
 *   }
 * }
 * }</pre>
 *
 * <p>Commands that arrive while the actor reads its state, or while a write is in flight (one at a
 * time), wait in a buffer and are handled in order after it ({@code
 * troupe.persistence.typed.stash-capacity} of them at most, stashed ones included; more go to dead
 * letters with a WARN). The steps of an effect run once the state is stored, with the new state.
 * The store failing a write or the read fails the actor with a {@link
 * dev.troupe.persistence.typed.DurableStateStoreException} (supervise it to restart with back-off);
 * every call to the store is bounded by {@code troupe.persistence.call-timeout}. The instance is a
 * behaviour value: one may start any number of actors, each with its own state.
 *
 * <p>The store ({@code troupe.persistence.state.plugin}, or {@link #durableStateStorePluginId()})
 * refuses a write whose revision is not the next one: two actors writing one id are caught there.
 * A file store serializes the state with {@code troupe.serialization}: bind its class.
 *
 * @param <C> the commands
 * @param <S> the state
 */
public abstract class DurableStateBehavior<C, S> extends DeferredBehavior<C> {
  private final PersistenceId persistenceId;

  /** @param persistenceId the id of the actor's state in the store */
  protected DurableStateBehavior(PersistenceId persistenceId) {
    this.persistenceId = Objects.requireNonNull(persistenceId, "persistenceId");
  }

  /** @return the id of the actor's state */
  public final PersistenceId persistenceId() {
    return persistenceId;
  }

  /** @return the state when none is stored (also after {@code Effect().delete()}) */
  public abstract S emptyState();

  /** @return what the actor does with each command; called once per actor start */
  public abstract CommandHandler<C, S> commandHandler();

  /**
   * @return what the actor does on signals ({@code RecoveryCompleted}, {@code RecoveryFailed},
   *     {@code PostStop}, ...); none by default
   */
  public SignalHandler<S> signalHandler() {
    return newSignalHandlerBuilder().build();
  }

  /** @return the durable state store plugin's configuration path; empty for the default */
  public String durableStateStorePluginId() {
    return "";
  }

  /** @return the tag stored with each write of the state; empty by default */
  public String tag() {
    return "";
  }

  /** @return the effects a command handler answers with */
  protected final EffectFactories<S> Effect() {
    return EffectFactories.instance();
  }

  /** @return a builder of the command handler */
  protected final CommandHandlerBuilder<C, S> newCommandHandlerBuilder() {
    return new CommandHandlerBuilder<>();
  }

  /** @return a builder of the signal handler */
  protected final SignalHandler.Builder<S> newSignalHandlerBuilder() {
    return new SignalHandler.Builder<>();
  }

  /**
   * Starts reading the actor's state; called by the runtime when an actor starts with this
   * behaviour.
   *
   * @param ctx the actor's context
   * @return the running behaviour
   */
  @Override
  public final Behavior<C> apply(ActorContext<C> ctx) {
    return Running.start(this, ctx);
  }
}
