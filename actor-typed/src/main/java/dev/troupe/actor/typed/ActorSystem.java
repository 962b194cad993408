package dev.troupe.actor.typed;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.Scheduler;
import dev.troupe.actor.spi.ExtensionSlots;
import dev.troupe.actor.typed.internal.TypedSystem;
import dev.troupe.actor.typed.receptionist.Receptionist;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;

/**
 * A typed actor system: a classic {@link dev.troupe.actor.ActorSystem} whose guardian actor runs the
 * behaviour given to {@link #create}. The system is itself the guardian's ref: {@code
 * system.tell(msg)} sends to it. When the guardian stops (it returns {@code Behaviors.stopped()}, or
 * it fails), the system terminates.
 *
 * <p>The guardian is the classic system's top-level actor {@code /user/guardian}; what it spawns
 * are its children. The classic system is at hand through {@link
 * dev.troupe.actor.typed.javadsl.Adapter#toClassic(ActorSystem)}.
 *
 * @param <T> the type of message the guardian accepts
 */
public abstract class ActorSystem<T> implements ActorRef<T> {
  private final ExtensionSlots extensions = new ExtensionSlots();

  /** For the one implementation. */
  protected ActorSystem() {}

  /**
   * Starts a system with {@code application.conf}, {@code reference.conf} and {@code -D} overrides.
   *
   * @param guardian the guardian's behaviour
   * @param name the system's name (letters, digits, '-' and '_')
   * @param <T> what the guardian accepts
   * @return the running system
   */
  public static <T> ActorSystem<T> create(Behavior<T> guardian, String name) {
    return create(guardian, name, ConfigFactory.load());
  }

  /**
   * Starts a system with a configuration (reference.conf is added under it).
   *
   * @param guardian the guardian's behaviour
   * @param name the system's name
   * @param config the configuration
   * @param <T> what the guardian accepts
   * @return the running system
   */
  public static <T> ActorSystem<T> create(Behavior<T> guardian, String name, Config config) {
    Objects.requireNonNull(guardian, "guardian");
    Objects.requireNonNull(config, "config");
    return TypedSystem.start(dev.troupe.actor.ActorSystem.create(name, config), guardian);
  }

  /** @return the system's name */
  public abstract String name();

  /**
   * Stops every actor, then the system's threads.
   *
   * @return completes when the system has terminated
   */
  public abstract CompletionStage<dev.troupe.actor.Terminated> terminate();

  /** @return completes when the system has terminated */
  public abstract CompletionStage<dev.troupe.actor.Terminated> getWhenTerminated();

  /** @return the system's scheduler (also what {@code AskPattern.ask} takes) */
  public abstract Scheduler scheduler();

  /** @return the executor of the default dispatcher, for futures */
  public abstract Executor executionContext();

  /**
   * The receptionist of this system: register services and find them by {@link
   * dev.troupe.actor.typed.receptionist.ServiceKey}. Local, or cluster-wide when a cluster module
   * provides one (see {@link dev.troupe.actor.typed.receptionist.ReceptionistFactory}).
   *
   * @return the receptionist's ref
   */
  public abstract ActorRef<Receptionist.Command> receptionist();

  /**
   * The system's event stream, the classic one of the same system: tell it {@link
   * dev.troupe.actor.typed.eventstream.EventStream.Subscribe}, {@code Unsubscribe} and {@code
   * Publish}. Each command acts when it is told.
   *
   * @return the event stream's ref
   */
  public abstract ActorRef<dev.troupe.actor.typed.eventstream.EventStream.Command> eventStream();

  /** @return a logger for code that runs outside actors */
  public abstract Logger log();

  /** @return the system's settings (its configuration) */
  public abstract dev.troupe.actor.ActorSystem.Settings settings();

  /** @return the ref to which undeliverable messages go */
  public abstract <U> ActorRef<U> deadLetters();

  /**
   * A ref that drops every message told to it, silently (no dead letter, no log): a reply-to for
   * a request whose answer nobody wants. It is local to its system: remoting refuses to send a
   * message that holds it, with a reason that names it, and it cannot be watched.
   *
   * @param <U> any message type
   * @return the system's ignoring ref (one per system; {@code path()} is {@code /ignore})
   */
  public abstract <U> ActorRef<U> ignoreRef();

  /**
   * Starts a typed actor under {@code /system}, beside the runtime's own services, for code that
   * is not the application's guardian (a library, an extension). When the system terminates it
   * stops after every actor under {@code /user}. An exception its behaviour does not handle stops
   * it (as a typed child's does; wrap the behaviour in {@code Behaviors.supervise} to restart or
   * resume), and is logged.
   *
   * @param behavior its behaviour
   * @param name its name, unique among the children of {@code /system}
   * @param props its dispatcher and mailbox ({@link Props#empty()} for the defaults)
   * @param <U> what it accepts
   * @return its ref
   * @throws dev.troupe.actor.InvalidActorNameException if the name is not a valid actor name, starts
   *     with {@code $}, or is taken
   * @throws IllegalStateException if the system is terminating or terminated
   */
  public abstract <U> ActorRef<U> systemActorOf(Behavior<U> behavior, String name, Props props);

  /**
   * The system's extension of {@code id}, made by {@link ExtensionId#createExtension} on the first
   * call (the calls of other threads meanwhile wait for it and get the same instance). Ids listed in
   * {@code troupe.actor.typed.extensions} (and a library's {@code
   * troupe.actor.typed.library-extensions}) are registered when the system starts. A classic
   * system's typed view ({@code Adapter.toTyped}) has the same extensions as the typed system.
   *
   * @param id the extension's id
   * @param <E> the extension
   * @return the extension
   * @throws IllegalStateException if the extension's own creation asks for it
   */
  public final <E extends Extension> E registerExtension(ExtensionId<E> id) {
    E made = extensions.made(Objects.requireNonNull(id, "id"));
    return made != null ? made : extensions.register(id, () -> id.createExtension(this));
  }

  /**
   * @param id an extension's id
   * @param <E> the extension
   * @return the extension, registered earlier
   * @throws IllegalArgumentException if it is not registered
   */
  public final <E extends Extension> E extension(ExtensionId<E> id) {
    return extensions.get(id);
  }

  /**
   * @param id an extension's id
   * @return whether the extension is registered
   */
  public final boolean hasExtension(ExtensionId<? extends Extension> id) {
    return extensions.has(id);
  }
}
