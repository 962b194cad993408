package dev.troupe.actor.typed.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.typed.ActorRef;
import java.util.Objects;

/**
 * The typed view of a classic ref: {@link #tell} is the classic {@code tell} with no sender, with
 * nothing allocated. Made once per ref (an actor's self ref once per incarnation), never per
 * message. Equal to every other view of the same classic ref.
 *
 * @param <T> the type of message the actor accepts
 */
public final class ActorRefAdapter<T> implements ActorRef<T> {
  private final dev.troupe.actor.ActorRef classic;

  /** @param classic the ref */
  public ActorRefAdapter(dev.troupe.actor.ActorRef classic) {
    this.classic = Objects.requireNonNull(classic, "classic");
  }

  /** @return the classic ref */
  public dev.troupe.actor.ActorRef classic() {
    return classic;
  }

  /**
   * The classic ref behind a typed one.
   *
   * @param ref a typed ref made by Troupe
   * @return its classic ref
   * @throws IllegalArgumentException for a ref that has none (e.g. a testkit inbox's)
   */
  public static dev.troupe.actor.ActorRef toClassic(ActorRef<?> ref) {
    Objects.requireNonNull(ref, "ref");
    if (ref instanceof ActorRefAdapter<?> a) {
      return a.classic;
    }
    if (ref instanceof ClassicBacked c) {
      return c.classicRef();
    }
    throw new IllegalArgumentException(ref + " (" + ref.getClass().getName() + ") is not backed by a classic actor");
  }

  /**
   * The classic actor whose stop ends a ref's life: the ref's own actor, or a message adapter's
   * actor (an adapter cannot be watched itself; it lives as long as its actor). For a module that
   * keeps typed refs it was given and must drop them when they die (the typed cluster's
   * subscriptions).
   *
   * @param ref a typed ref backed by a classic actor
   * @return the actor to watch
   * @throws IllegalArgumentException if {@code ref} is not backed by a classic actor
   */
  public static dev.troupe.actor.ActorRef lifeOf(ActorRef<?> ref) {
    dev.troupe.actor.ActorRef classic = toClassic(ref);
    return classic instanceof MessageAdapterRef m ? m.owner() : classic;
  }

  @Override
  public void tell(T message) {
    classic.tell(Objects.requireNonNull(message, "message"), null);
  }

  @Override
  public ActorPath path() {
    return classic.path();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ActorRefAdapter<?> a && a.classic.equals(classic);
  }

  @Override
  public int hashCode() {
    return classic.hashCode();
  }

  @Override
  public String toString() {
    return classic.toString();
  }

  /** A typed ref of another implementation that still has a classic ref behind it. */
  public interface ClassicBacked {
    /** @return the classic ref */
    dev.troupe.actor.ActorRef classicRef();
  }
}
