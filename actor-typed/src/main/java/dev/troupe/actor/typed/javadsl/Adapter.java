package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.internal.ActorRefAdapter;
import dev.troupe.actor.typed.internal.ContextImpl;
import dev.troupe.actor.typed.internal.TypedActor;
import dev.troupe.actor.typed.internal.TypedSystem;
import java.util.Objects;

/**
 * Classic and typed actors together, both ways: typed refs are views of classic refs ({@link
 * #toClassic(ActorRef)}, {@link #toTyped(dev.troupe.actor.ActorRef)}, no copy of the actor), a
 * classic system or actor can spawn typed actors, and a typed system is a classic one underneath.
 *
 * <p>A typed actor spawned by a classic actor is that actor's child, supervised by its classic
 * strategy (the default restarts it); one spawned by a typed actor stops on an unhandled failure.
 */
public final class Adapter {
  private Adapter() {}

  /**
   * @param ref a typed ref
   * @return the classic ref of the same actor
   */
  public static dev.troupe.actor.ActorRef toClassic(ActorRef<?> ref) {
    return ActorRefAdapter.toClassic(ref);
  }

  /**
   * A typed view of a classic ref; the compiler trusts the type given.
   *
   * @param ref a classic ref
   * @param <T> what the actor accepts
   * @return the typed ref
   */
  public static <T> ActorRef<T> toTyped(dev.troupe.actor.ActorRef ref) {
    return new ActorRefAdapter<>(ref);
  }

  /**
   * @param system a typed system
   * @return its classic system
   */
  public static dev.troupe.actor.ActorSystem toClassic(ActorSystem<?> system) {
    Objects.requireNonNull(system, "system");
    return ((TypedSystem<?>) system).classic();
  }

  /**
   * The typed view of a classic system (its {@code tell} goes to dead letters unless it was created
   * as a typed system).
   *
   * @param system a classic system
   * @return the typed system
   */
  public static ActorSystem<Void> toTyped(dev.troupe.actor.ActorSystem system) {
    return TypedSystem.of(system);
  }

  /**
   * Spawns a typed top-level actor in a classic system.
   *
   * @param system the system
   * @param behavior the behaviour
   * @param name its name
   * @param <T> what it accepts
   * @return its ref
   */
  public static <T> ActorRef<T> spawn(dev.troupe.actor.ActorSystem system, Behavior<T> behavior, String name) {
    Objects.requireNonNull(name, "name");
    return new ActorRefAdapter<>(system.actorOf(props(behavior), name));
  }

  /**
   * Spawns a typed top-level actor with a generated name in a classic system.
   *
   * @param system the system
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return its ref
   */
  public static <T> ActorRef<T> spawnAnonymous(dev.troupe.actor.ActorSystem system, Behavior<T> behavior) {
    return new ActorRefAdapter<>(system.actorOf(props(behavior)));
  }

  /**
   * Spawns a typed child of a classic actor.
   *
   * @param context the classic actor's context
   * @param behavior the behaviour
   * @param name its name
   * @param <T> what it accepts
   * @return its ref
   */
  public static <T> ActorRef<T> spawn(dev.troupe.actor.ActorContext context, Behavior<T> behavior, String name) {
    Objects.requireNonNull(name, "name");
    return new ActorRefAdapter<>(context.actorOf(props(behavior), name));
  }

  /**
   * Spawns a typed child with a generated name of a classic actor.
   *
   * @param context the classic actor's context
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return its ref
   */
  public static <T> ActorRef<T> spawnAnonymous(dev.troupe.actor.ActorContext context, Behavior<T> behavior) {
    return new ActorRefAdapter<>(context.actorOf(props(behavior)));
  }

  /**
   * Classic props of an actor that runs a behaviour, e.g. for a router pool of typed routees or a
   * classic {@code actorOf}.
   *
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return the props
   */
  public static <T> dev.troupe.actor.Props props(Behavior<T> behavior) {
    return TypedActor.props(behavior, null, false, Props.empty());
  }

  /**
   * Classic props of an actor that runs a behaviour on a given dispatcher or mailbox.
   *
   * @param behavior the behaviour
   * @param props the dispatcher and mailbox
   * @param <T> what it accepts
   * @return the props
   */
  public static <T> dev.troupe.actor.Props props(Behavior<T> behavior, Props props) {
    return TypedActor.props(behavior, null, false, Objects.requireNonNull(props, "props"));
  }

  /**
   * A classic child of a typed actor.
   *
   * @param context the typed actor's context
   * @param props the child's props
   * @param name its name
   * @return its ref
   */
  public static dev.troupe.actor.ActorRef actorOf(ActorContext<?> context, dev.troupe.actor.Props props, String name) {
    return classicContext(context).actorOf(props, name);
  }

  /**
   * Spawns a typed child of a typed actor (the same as {@code context.spawn}).
   *
   * @param context the typed actor's context
   * @param behavior the behaviour
   * @param name its name
   * @param <T> what it accepts
   * @return its ref
   */
  public static <T> ActorRef<T> spawn(ActorContext<?> context, Behavior<T> behavior, String name) {
    return context.spawn(behavior, name);
  }

  private static dev.troupe.actor.ActorContext classicContext(ActorContext<?> context) {
    if (context instanceof ContextImpl<?> c) {
      return c.classic();
    }
    throw new IllegalArgumentException(context + " is not the context of a running typed actor");
  }
}
