package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Signal;
import java.util.Objects;

/**
 * The object-oriented style: a class with mutable state whose {@link #createReceive()} says what it
 * does; handlers return {@code this} to keep it. Create it in {@code Behaviors.setup(Counter::new)},
 * which also lets you wrap it ({@code Behaviors.supervise(Behaviors.setup(Counter::new))...}, {@code
 * Behaviors.withTimers(t -> Behaviors.setup(ctx -> new Counter(ctx, t)))}).
 *
 * <p>{@code createReceive()} runs once, on the first message or signal; nothing is allocated per
 * message.
 *
 * @param <T> the type of message the behaviour accepts
 */
public abstract class AbstractBehavior<T> extends ExtensibleBehavior<T> {
  private final ActorContext<T> context;
  private Receive<T> receive;

  /** @param context the actor's context (from {@code Behaviors.setup}) */
  protected AbstractBehavior(ActorContext<T> context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  /** @return the actor's context */
  public final ActorContext<T> getContext() {
    return context;
  }

  /**
   * What this behaviour does: build it with {@link #newReceiveBuilder()}.
   *
   * @return the cases
   */
  public abstract Receive<T> createReceive();

  /** @return a new, empty builder of cases */
  protected final ReceiveBuilder<T> newReceiveBuilder() {
    return new ReceiveBuilder<>();
  }

  private Receive<T> receive() {
    Receive<T> r = receive;
    if (r == null) {
      r = Objects.requireNonNull(createReceive(), "createReceive() returned null");
      receive = r;
    }
    return r;
  }

  @Override
  public final Behavior<T> receive(ActorContext<T> ctx, T msg) {
    return receive().receive(ctx, msg);
  }

  @Override
  public final Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
    return receive().receiveSignal(ctx, signal);
  }
}
