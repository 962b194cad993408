package dev.troupe.actor.typed.internal;

import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Receive;

/**
 * The actor's way into the first message case of an {@link AbstractBehavior} or a built {@link
 * Receive}, which the public classes keep to themselves. {@code AbstractBehavior} installs the one
 * implementation when it is initialized; {@link TypedActor} reads it from a static final field, so
 * the JIT sees a constant and inlines its calls.
 *
 * <p>Why the actor needs it: most of a behaviour's traffic usually matches its first case (a ball,
 * a request, a response). Testing that case before the actor's own messages (internal messages,
 * classic {@code Terminated}, the receive timeout) saves those three tests on the common path. It is
 * safe because a first case that takes the shortcut matches one enum constant or one final class,
 * and {@code Receive} never lets such a class be one of the actor's own messages.
 */
public abstract class FirstCase {
  /** What {@link #apply} returns when the message does not match the first case. */
  public static final Behavior<Object> MISS = BehaviorImpl.marker("no match of the first case");

  private static volatile FirstCase installed;

  /**
   * @param <T> what the behaviour accepts
   * @return {@link #MISS}, typed for the caller
   */
  @SuppressWarnings("unchecked")
  public static <T> Behavior<T> miss() {
    return (Behavior<T>) (Behavior<?>) MISS;
  }

  /** For the one implementation, in {@code AbstractBehavior}. */
  protected FirstCase() {}

  /**
   * Installs the implementation; a second call is refused.
   *
   * @param access the implementation
   */
  public static synchronized void install(FirstCase access) {
    if (installed != null) {
      throw new IllegalStateException("already installed");
    }
    installed = access;
  }

  /**
   * Runs the first case's handler when the message is what it matches, the cheap way (one
   * compare).
   *
   * @param b the behaviour
   * @param msg the message
   * @param <T> what it accepts
   * @return what the handler returned, or {@link #MISS}
   */
  public abstract <T> Behavior<T> apply(AbstractBehavior<T> b, Object msg);

  /**
   * Hands the behaviour a message that {@link #apply} missed, without testing the first case
   * again.
   *
   * @param b the behaviour
   * @param ctx the actor's context
   * @param msg the message
   * @param <T> what it accepts
   * @return what the behaviour returned
   */
  public abstract <T> Behavior<T> applyAfterMiss(AbstractBehavior<T> b, ActorContext<T> ctx, T msg);

  /**
   * {@link #apply(AbstractBehavior, Object)} for a built {@code Receive}.
   *
   * @param r the behaviour
   * @param msg the message
   * @param <T> what it accepts
   * @return what the handler returned, or {@link #MISS}
   */
  public abstract <T> Behavior<T> apply(Receive<T> r, Object msg);

  /**
   * {@link #applyAfterMiss(AbstractBehavior, ActorContext, Object)} for a built {@code Receive}.
   *
   * @param r the behaviour
   * @param ctx the actor's context
   * @param msg the message
   * @param <T> what it accepts
   * @return what the behaviour returned
   */
  public abstract <T> Behavior<T> applyAfterMiss(Receive<T> r, ActorContext<T> ctx, T msg);

  /**
   * Whether the actor takes this message for itself rather than handing it to the behaviour.
   * Kept beside {@link #isActorsOwnClass}: a message added here must be added there.
   *
   * @param m a message the actor received
   * @return whether it is an internal message, a classic {@code Terminated} or the receive timeout
   */
  static boolean isActorsOwn(Object m) {
    return m instanceof InternalMessage || m instanceof Terminated || m == ReceiveTimeout.getInstance();
  }

  /**
   * Whether messages of this class can be ones the actor takes for itself (see {@link
   * #isActorsOwn}): a first case naming such a class never takes the shortcut.
   *
   * @param type a first case's class
   * @return whether it is, or is a subclass of, a class of the actor's own messages
   */
  public static boolean isActorsOwnClass(Class<?> type) {
    return InternalMessage.class.isAssignableFrom(type) || Terminated.class.isAssignableFrom(type) || type == ReceiveTimeout.class;
  }

  /** The installed implementation, loaded once the public class has installed it. */
  static final class Holder {
    static final FirstCase ACCESS = load();

    private Holder() {}

    private static FirstCase load() {
      try {
        Class.forName(AbstractBehavior.class.getName(), true, AbstractBehavior.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      FirstCase a = installed;
      if (a == null) {
        throw new IllegalStateException("AbstractBehavior did not install its first-case access");
      }
      return a;
    }
  }
}
