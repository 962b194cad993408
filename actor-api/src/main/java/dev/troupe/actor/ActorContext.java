package dev.troupe.actor;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The actor's view of itself and the system while it runs. Obtained with {@code getContext()}
 * inside an actor; it must only be used from that actor's own thread of execution (inside {@code
 * onReceive}, a behaviour, or a lifecycle hook), never from a future callback or another thread.
 */
public interface ActorContext {

  /**
   * Creates and starts a child actor with a generated name.
   *
   * @param props how to create the child
   * @return the child's ref
   */
  ActorRef actorOf(Props props);

  /**
   * Creates and starts a named child actor.
   *
   * @param props how to create the child
   * @param name a name unique among this actor's children, not starting with {@code $}
   * @return the child's ref
   * @throws InvalidActorNameException if the name is invalid or already taken
   */
  ActorRef actorOf(Props props, String name);

  /**
   * Stops a child (asynchronously) or this actor itself. Its children are stopped first, then
   * {@code postStop} runs; queued messages go to dead letters.
   *
   * @param actor this actor or one of its children
   */
  void stop(ActorRef actor);

  /**
   * Watches an actor: when it terminates, this actor receives {@link Terminated} exactly once.
   * Watching an actor that is already gone delivers {@code Terminated} at once.
   *
   * @param actor the actor to watch
   * @return the watched actor
   */
  ActorRef watch(ActorRef actor);

  /**
   * Watches an actor, receiving {@code message} instead of {@link Terminated} when it terminates.
   *
   * @param actor the actor to watch
   * @param message the message to receive
   * @return the watched actor
   */
  ActorRef watchWith(ActorRef actor, Object message);

  /**
   * Stops watching; a {@link Terminated} not yet processed is dropped.
   *
   * @param actor the watched actor
   * @return the actor
   */
  ActorRef unwatch(ActorRef actor);

  /**
   * Replaces the current behaviour (same as {@code become(behaviour, true)}).
   *
   * @param behaviour the new behaviour
   */
  void become(AbstractActor.Receive behaviour);

  /**
   * Changes the behaviour.
   *
   * @param behaviour the new behaviour
   * @param discardOld {@code true} to replace the current one, {@code false} to push the new one
   *     on top so that {@link #unbecome()} returns to the current one
   */
  void become(AbstractActor.Receive behaviour, boolean discardOld);

  /**
   * Replaces the current behaviour with a procedure handling every message.
   *
   * @param behaviour the new behaviour
   */
  void become(Procedure<Object> behaviour);

  /**
   * Changes the behaviour to a procedure handling every message.
   *
   * @param behaviour the new behaviour
   * @param discardOld whether to replace rather than push
   */
  void become(Procedure<Object> behaviour, boolean discardOld);

  /** Returns to the previous behaviour; the initial behaviour is never popped. */
  void unbecome();

  /** @return this actor's children, a snapshot */
  Iterable<ActorRef> getChildren();

  /**
   * Finds a child by name.
   *
   * @param name the child's name
   * @return the child, if one with that name is alive
   */
  Optional<ActorRef> findChild(String name);

  /** @return the parent (the supervisor) */
  ActorRef getParent();

  /** @return this actor's own ref */
  ActorRef getSelf();

  /** @return the sender of the message being processed, dead letters if it had none */
  ActorRef getSender();

  /** @return the system this actor belongs to */
  ActorSystem getSystem();

  /** @return the system this actor belongs to */
  default ActorSystem system() {
    return getSystem();
  }

  /** @return the props this actor was created from */
  Props getProps();

  /**
   * This actor's logger, created on first use and the same afterwards. It logs through SLF4J to
   * the logger named after the actor's class; while a line is logged (and only when its level is
   * enabled) the SLF4J MDC holds {@code troupeSource} (this actor's path), {@code
   * troupeActorSystem} (the system's name) and, when the message being processed has a sender,
   * {@code troupeSender} (the sender's path).
   *
   * @return this actor's logger
   */
  LoggingAdapter getLog();

  /** @return the executor of this actor's dispatcher, for futures and {@code pipe} */
  Executor dispatcher();

  /** @return {@link #dispatcher()}, by the name Pekko's Java API gives it */
  default Executor getDispatcher() {
    return dispatcher();
  }

  /**
   * Sends {@link ReceiveTimeout} to this actor after {@code timeout} without any message
   * (messages implementing {@link NotInfluenceReceiveTimeout} do not count). {@link Duration#ZERO}
   * or a negative value turns it off.
   *
   * @param timeout the inactivity period
   */
  void setReceiveTimeout(Duration timeout);

  /** @return the current receive timeout, {@link Duration#ZERO} when off */
  Duration getReceiveTimeout();

  /** Turns the receive timeout off: {@code setReceiveTimeout(Duration.ZERO)}. */
  default void cancelReceiveTimeout() {
    setReceiveTimeout(Duration.ZERO);
  }

  /**
   * Selects actors by path, relative to this actor (e.g. {@code "../sibling"}, {@code "child/*"})
   * or absolute ({@code "/user/a"}, {@code "troupe://sys/user/a"}).
   *
   * @param path the path pattern
   * @return the selection
   * @throws IllegalArgumentException naming the text and what is wrong, for an element that is
   *     neither a name, a pattern nor {@code ..}, an unknown protocol or a malformed address
   */
  ActorSelection actorSelection(String path);

  /**
   * Selects the actor at a path.
   *
   * @param path the path
   * @return the selection
   */
  ActorSelection actorSelection(ActorPath path);
}
