package dev.troupe.testkit.typed;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import java.time.Duration;
import java.util.function.Function;

/**
 * Something a behaviour did through its context during {@link BehaviorTestKit#run}: spawned or
 * stopped a child, watched an actor, scheduled a message, set a receive timeout, registered a message
 * adapter, started or cancelled a timer. Records, so that a test compares them or, on Java 21,
 * switches over them.
 */
public sealed interface Effect {
  /**
   * A child spawned with a name.
   *
   * @param behavior its behaviour
   * @param childName its name
   * @param props its props
   * @param ref its ref (its inbox's, see {@link BehaviorTestKit#childInbox})
   * @param <T> what it accepts
   */
  record Spawned<T>(Behavior<T> behavior, String childName, Props props, ActorRef<T> ref) implements Effect {}

  /**
   * A child spawned with a generated name.
   *
   * @param behavior its behaviour
   * @param childName the generated name
   * @param props its props
   * @param ref its ref
   * @param <T> what it accepts
   */
  record SpawnedAnonymous<T>(Behavior<T> behavior, String childName, Props props, ActorRef<T> ref) implements Effect {}

  /**
   * A child stopped.
   *
   * @param childName its name
   */
  record Stopped(String childName) implements Effect {}

  /**
   * An actor watched.
   *
   * @param other the actor
   */
  record Watched(ActorRef<?> other) implements Effect {}

  /**
   * An actor watched with a message.
   *
   * @param other the actor
   * @param message the message for its stop
   */
  record WatchedWith(ActorRef<?> other, Object message) implements Effect {}

  /**
   * An actor no longer watched.
   *
   * @param other the actor
   */
  record Unwatched(ActorRef<?> other) implements Effect {}

  /**
   * A receive timeout set.
   *
   * @param timeout the period
   * @param message the message
   */
  record ReceiveTimeoutSet(Duration timeout, Object message) implements Effect {}

  /** The receive timeout cancelled. */
  record ReceiveTimeoutCancelled() implements Effect {}

  /**
   * A message scheduled with {@code scheduleOnce}.
   *
   * @param delay the delay
   * @param target the recipient
   * @param message the message
   */
  record Scheduled(Duration delay, ActorRef<?> target, Object message) implements Effect {}

  /**
   * A timer started.
   *
   * @param key its key
   * @param message its message
   * @param delay its (first) delay
   * @param repeated whether it repeats
   */
  record TimerScheduled(Object key, Object message, Duration delay, boolean repeated) implements Effect {}

  /**
   * A timer cancelled.
   *
   * @param key its key
   */
  record TimerCancelled(Object key) implements Effect {}

  /**
   * A message adapter registered.
   *
   * @param messageClass what it accepts
   * @param adapt the conversion
   */
  record MessageAdapter(Class<?> messageClass, Function<?, ?> adapt) implements Effect {}
}
