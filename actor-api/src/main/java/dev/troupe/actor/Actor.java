package dev.troupe.actor;

import dev.troupe.actor.spi.ActorConstruction;
import dev.troupe.actor.spi.CellSpi;
import java.util.Optional;

/**
 * The base of every actor: its context, its ref, and the lifecycle hooks. Extend {@link
 * AbstractActor} (fluent {@code receiveBuilder()}) or {@link UntypedActor} ({@code onReceive}).
 *
 * <p>An actor instance is created by its system through {@link Props}, never with {@code new}
 * from other code; it processes one message at a time, so its fields need no synchronization as
 * long as they are only touched from its handlers and hooks.
 */
public abstract class Actor {
  private final CellSpi context;

  /**
   * Binds the new instance to the cell that is creating it.
   *
   * @throws ActorInitializationException if not called from {@code actorOf}
   */
  protected Actor() {
    this.context = ActorConstruction.current(getClass());
  }

  /**
   * The initial behaviour; called once per incarnation, after the constructor.
   *
   * @return the behaviour
   */
  public abstract AbstractActor.Receive createReceive();

  /** @return this actor's context; only valid on the actor's own thread */
  public ActorContext getContext() {
    return context;
  }

  /**
   * This actor's logger; the same as {@code getContext().getLog()}.
   *
   * @return this actor's logger
   */
  public LoggingAdapter log() {
    return context.getLog();
  }

  /** @return this actor's ref */
  public final ActorRef getSelf() {
    return context.getSelf();
  }

  /** @return the sender of the message being processed (dead letters if none) */
  public final ActorRef getSender() {
    return context.getSender();
  }

  /**
   * How this actor supervises its children. Override to change it; called when a child fails.
   *
   * @return the strategy, by default {@link SupervisorStrategy#defaultStrategy()}
   */
  public SupervisorStrategy supervisorStrategy() {
    return SupervisorStrategy.defaultStrategy();
  }

  /**
   * Called when the actor starts, before the first message (and, by default, after a restart).
   *
   * @throws Exception a failure here is an {@link ActorInitializationException}
   */
  public void preStart() throws Exception {}

  /**
   * Called after the actor stopped (its children already stopped); messages can no longer arrive.
   *
   * @throws Exception a failure is logged
   */
  public void postStop() throws Exception {}

  /**
   * Called on the failed instance before a restart. The default unwatches and stops all children,
   * then calls {@link #postStop()}.
   *
   * @param reason the failure
   * @param message the message being processed when it failed, if any
   * @throws Exception a failure is logged and the restart proceeds
   */
  public void preRestart(Throwable reason, Optional<Object> message) throws Exception {
    for (ActorRef child : context.getChildren()) {
      context.unwatch(child);
      context.stop(child);
    }
    postStop();
  }

  /**
   * Called on the fresh instance after a restart. The default calls {@link #preStart()}.
   *
   * @param reason the failure that caused the restart
   * @throws Exception a failure here is an {@link ActorInitializationException}
   */
  public void postRestart(Throwable reason) throws Exception {
    preStart();
  }

  /**
   * Handles a message that the behaviour did not match: a {@link Terminated} throws {@link
   * DeathPactException}; anything else is published as {@link UnhandledMessage}.
   *
   * @param message the message
   */
  public void unhandled(Object message) {
    context.unhandled(message);
  }

  CellSpi cell() {
    return context;
  }
}
