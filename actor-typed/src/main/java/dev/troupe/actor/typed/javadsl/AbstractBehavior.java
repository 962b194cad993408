package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.internal.FirstCase;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

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
  /**
   * The {@code Receive}'s shortcut (what its first case matches when one compare decides it), kept
   * here too, or null. A message that matches it reaches the case's handler from this object
   * alone, without the loads of the {@code Receive} and its case (fewer cache lines per message
   * where many actors take turns on a thread).
   */
  private Object firstMatch;
  /** The first case's handler when {@link #firstMatch} is set: a Supplier for a value, a Function for a class. */
  private Object firstHandler;
  /** Whether {@link #firstMatch} is a value (else a class). */
  private boolean firstIsValue;

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

  static {
    FirstCase.install(new FirstCaseAccess());
  }

  private Receive<T> receive() {
    Receive<T> r = receive;
    if (r == null) {
      r = Objects.requireNonNull(createReceive(), "createReceive() returned null");
      receive = r;
      Object m = r.shortcut;
      if (m != null) {
        Receive.Case<T> first = r.firstCase();
        firstIsValue = r.shortcutIsValue;
        firstHandler = firstIsValue ? first.supplier : first.handler;
        firstMatch = m;
      }
    }
    return r;
  }

  /**
   * The first case's handler when the message is what {@link #firstMatch} decides by one compare.
   *
   * @return what the handler returned, or {@link FirstCase#MISS}
   */
  @SuppressWarnings("unchecked")
  private Behavior<T> applyFirst(Object msg) {
    Object m = firstMatch;
    if (m != null) {
      if (firstIsValue) {
        if (m == msg) {
          return ((Supplier<Behavior<T>>) firstHandler).get();
        }
      } else if (m == msg.getClass()) {
        return ((Function<Object, Behavior<T>>) firstHandler).apply(msg);
      }
    }
    return FirstCase.miss();
  }

  /** What {@link #receive} does when {@link #applyFirst} missed: the first case is not tested twice. */
  private Behavior<T> receiveAfterMiss(ActorContext<T> ctx, T msg) {
    Receive<T> r = receive;
    return firstMatch != null ? r.receiveLater(msg) : receive().receive(ctx, msg);
  }

  @Override
  public final Behavior<T> receive(ActorContext<T> ctx, T msg) {
    Behavior<T> r = applyFirst(msg);
    return r != FirstCase.MISS ? r : receiveAfterMiss(ctx, msg);
  }

  @Override
  public final Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
    return receive().receiveSignal(ctx, signal);
  }

  /** The typed actor's way to the first case (see {@link FirstCase}). */
  private static final class FirstCaseAccess extends FirstCase {
    @Override
    public <T> Behavior<T> apply(AbstractBehavior<T> b, Object msg) {
      return b.applyFirst(msg);
    }

    @Override
    public <T> Behavior<T> applyAfterMiss(AbstractBehavior<T> b, ActorContext<T> ctx, T msg) {
      return b.receiveAfterMiss(ctx, msg);
    }

    @Override
    public <T> Behavior<T> apply(Receive<T> r, Object msg) {
      return r.applyShortcut(msg);
    }

    @Override
    public <T> Behavior<T> applyAfterMiss(Receive<T> r, ActorContext<T> ctx, T msg) {
      return r.receiveAfterMiss(ctx, msg);
    }
  }
}
