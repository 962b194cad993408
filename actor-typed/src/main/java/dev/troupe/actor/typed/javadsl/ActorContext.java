package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.StatusReply;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * What a typed actor can do besides handling messages: spawn and stop children, watch actors,
 * adapt other protocols to its own, ask, and schedule. Use it only on the actor's own thread (in its
 * handlers and setup), never from a future's callback: hand results back with {@link #pipeToSelf}.
 *
 * @param <T> the type of message the actor accepts
 */
public interface ActorContext<T> {
  /** @return this actor's ref */
  ActorRef<T> getSelf();

  /** @return the system this actor runs in */
  ActorSystem<Void> getSystem();

  /**
   * A logger for this actor, named after its {@link AbstractBehavior} class (or {@code
   * dev.troupe.actor.typed.Behavior} for a functional behaviour) unless {@link #setLoggerName} chose
   * another name. Libraries log through slf4j only.
   *
   * @return the logger
   */
  Logger getLog();

  /**
   * Names this actor's logger.
   *
   * @param name the logger's name
   */
  void setLoggerName(String name);

  /**
   * Names this actor's logger after a class.
   *
   * @param clazz the class
   */
  void setLoggerName(Class<?> clazz);

  /**
   * Starts a child.
   *
   * @param behavior its behaviour
   * @param name its name, unique among the living children
   * @param <U> what it accepts
   * @return its ref
   * @throws dev.troupe.actor.InvalidActorNameException if the name is invalid or taken
   */
  <U> ActorRef<U> spawn(Behavior<U> behavior, String name);

  /**
   * Starts a child on a given dispatcher or mailbox.
   *
   * @param behavior its behaviour
   * @param name its name
   * @param props its dispatcher and mailbox
   * @param <U> what it accepts
   * @return its ref
   */
  <U> ActorRef<U> spawn(Behavior<U> behavior, String name, Props props);

  /**
   * Starts a child with a generated name.
   *
   * @param behavior its behaviour
   * @param <U> what it accepts
   * @return its ref
   */
  <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior);

  /**
   * Starts a child with a generated name on a given dispatcher or mailbox.
   *
   * @param behavior its behaviour
   * @param props its dispatcher and mailbox
   * @param <U> what it accepts
   * @return its ref
   */
  <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior, Props props);

  /**
   * Stops a child, asynchronously (watch it to know when it is gone).
   *
   * @param child one of this actor's children
   * @throws IllegalArgumentException if it is not a child of this actor
   */
  void stop(ActorRef<?> child);

  /**
   * Watches an actor: when it stops, this actor gets the {@link dev.troupe.actor.typed.Terminated}
   * signal ({@link dev.troupe.actor.typed.ChildFailed} for a child that failed).
   *
   * @param other the actor
   */
  void watch(ActorRef<?> other);

  /**
   * Watches an actor, getting {@code message} instead of a signal when it stops.
   *
   * @param other the actor
   * @param message what to get
   */
  void watchWith(ActorRef<?> other, T message);

  /**
   * Stops watching an actor; a notice already on its way is dropped.
   *
   * @param other the actor
   */
  void unwatch(ActorRef<?> other);

  /** @return the living children */
  List<ActorRef<Void>> getChildren();

  /**
   * @param name a child's name
   * @return the child of that name, if alive
   */
  Optional<ActorRef<Void>> getChild(String name);

  /**
   * Sends {@code message} to this actor after {@code timeout} without any message; setting it again
   * replaces it.
   *
   * @param timeout the inactivity period (positive)
   * @param message what to get
   */
  void setReceiveTimeout(Duration timeout, T message);

  /** Turns the receive timeout off. */
  void cancelReceiveTimeout();

  /**
   * A ref that accepts another protocol's messages and hands each to this actor converted by {@code
   * f}. The function runs in this actor, on its thread, when the message is handled. One ref per
   * actor serves every adapted class; registering a class again replaces its function. The ref is
   * local to this system: remoting does not send a message that holds it to another node, and
   * publishes a {@code Dropped} event whose reason says so (send {@link #getSelf()}, or ask).
   *
   * @param messageClass the messages accepted
   * @param f the conversion
   * @param <U> the other protocol
   * @return the ref to hand out
   */
  <U> ActorRef<U> messageAdapter(Class<U> messageClass, Function<U, T> f);

  /**
   * Asks another actor and turns the outcome into a message to this actor: {@code
   * applyToResponse.apply(reply, null)}, or {@code (null, failure)} on a timeout ({@link
   * dev.troupe.pattern.AskTimeoutException}) or a reply of another class ({@link ClassCastException}).
   *
   * @param resClass the reply's class
   * @param target who to ask
   * @param timeout how long to wait
   * @param createRequest builds the question around the reply-to ref
   * @param applyToResponse turns the outcome into a message to this actor, run in this actor
   * @param <Req> the target's protocol
   * @param <Res> the reply's type
   */
  <Req, Res> void ask(
      Class<Res> resClass,
      ActorRef<Req> target,
      Duration timeout,
      Function<ActorRef<Res>, Req> createRequest,
      BiFunction<Res, Throwable, T> applyToResponse);

  /**
   * {@link #ask} for a protocol that answers with a {@link StatusReply}: an error reply arrives as
   * the failure.
   *
   * @param resClass the class of the success value
   * @param target who to ask
   * @param timeout how long to wait
   * @param createRequest builds the question around the reply-to ref
   * @param applyToResponse turns the outcome into a message to this actor
   * @param <Req> the target's protocol
   * @param <Res> the success value's type
   */
  <Req, Res> void askWithStatus(
      Class<Res> resClass,
      ActorRef<Req> target,
      Duration timeout,
      Function<ActorRef<StatusReply<Res>>, Req> createRequest,
      BiFunction<Res, Throwable, T> applyToResponse);

  /**
   * When {@code stage} completes, sends this actor {@code applyToResult.apply(value, null)} or
   * {@code (null, failure)}; the function runs in this actor.
   *
   * @param stage the computation
   * @param applyToResult turns its outcome into a message
   * @param <V> the value's type
   */
  <V> void pipeToSelf(CompletionStage<V> stage, BiFunction<V, Throwable, T> applyToResult);

  /**
   * Sends a message after a delay (prefer {@code Behaviors.withTimers} for messages to self: a
   * cancelled timer's message never arrives).
   *
   * @param delay the delay
   * @param target the recipient
   * @param message the message
   * @param <U> what the recipient accepts
   * @return a handle to cancel it
   */
  <U> Cancellable scheduleOnce(Duration delay, ActorRef<U> target, U message);

  /** @return the executor of this actor's dispatcher, for futures */
  Executor getExecutionContext();
}
