package dev.troupe.actor;

/**
 * An immutable, thread-safe handle to an actor: the only way to talk to it.
 *
 * <p>Refs are compared by {@link ActorPath} <em>and</em> uid, so a ref to an actor that was
 * stopped is not equal to a ref to a new actor later created under the same name. A ref stays valid
 * after its actor stopped: messages sent to it go to dead letters.
 *
 * <p>Implementations live in the runtime; user code never subclasses this class.
 */
public abstract class ActorRef implements Comparable<ActorRef> {

  /** For the runtime's implementations. */
  protected ActorRef() {}

  /**
   * The "no sender" value, to pass as {@code sender} when a message is not sent from an actor.
   * Replies to such a message go to dead letters.
   *
   * @return {@code null}
   */
  public static ActorRef noSender() {
    return null;
  }

  /** @return this actor's path, including its uid */
  public abstract ActorPath path();

  /**
   * Sends a message asynchronously, fire-and-forget. Messages from one sender to one receiver
   * arrive in the order they were sent.
   *
   * @param message the message; never {@code null}
   * @param sender the actor the receiver sees as {@code getSender()}, or {@link #noSender()}
   * @throws NullPointerException if {@code message} is null
   */
  public abstract void tell(Object message, ActorRef sender);

  /**
   * Sends a message keeping the original sender of the message being processed, so that the
   * recipient replies to it directly.
   *
   * @param message the message
   * @param context the context of the forwarding actor
   */
  public final void forward(Object message, ActorContext context) {
    tell(message, context.getSender());
  }

  @Override
  public final boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    return o instanceof ActorRef other
        && path().uid() == other.path().uid()
        && path().equals(other.path());
  }

  @Override
  public final int hashCode() {
    long uid = path().uid();
    return uid == ActorPath.UNDEFINED_UID ? path().hashCode() : (int) (uid ^ (uid >>> 32));
  }

  @Override
  public final int compareTo(ActorRef o) {
    int c = path().compareTo(o.path());
    return c != 0 ? c : Long.compare(path().uid(), o.path().uid());
  }

  /** @return {@code Actor[<path>#<uid>]} */
  @Override
  public String toString() {
    ActorPath p = path();
    return "Actor[" + p + (p.uid() == ActorPath.UNDEFINED_UID ? "" : "#" + p.uid()) + "]";
  }
}
