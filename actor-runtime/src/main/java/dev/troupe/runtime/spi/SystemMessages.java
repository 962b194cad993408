package dev.troupe.runtime.spi;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;

/**
 * The runtime's system messages: what cells tell each other about lifecycle, supervision and death
 * watch. Public for transports, which carry watch, unwatch, termination and supervision across
 * nodes.
 */
public final class SystemMessages {
  private SystemMessages() {}

  /** Creates the actor instance and runs {@code preStart}. */
  public record Create() implements SystemMessage {}

  /** Replaces a failed instance. */
  public record Recreate(Throwable cause) implements SystemMessage {}

  /** Holds user messages (the parent or an ancestor failed, or all-for-one restart). */
  public record Suspend() implements SystemMessage {}

  /** Releases user messages; {@code cause} is set when resuming after a failure. */
  public record Resume(Throwable cause) implements SystemMessage {}

  /** Stops the actor: children first, then {@code postStop}. */
  public record Terminate() implements SystemMessage {}

  /** Registers {@code watcher} at {@code watchee}. */
  public record Watch(InternalActorRef watchee, InternalActorRef watcher) implements SystemMessage {}

  /** Removes {@code watcher} from {@code watchee}. */
  public record Unwatch(InternalActorRef watchee, InternalActorRef watcher) implements SystemMessage {}

  /** A child reports its failure to its parent. */
  public record Failed(InternalActorRef child, Throwable cause, long uid) implements SystemMessage {}

  /** An actor tells a watcher (and always its parent) that it terminated. */
  public record DeathWatchNotification(ActorRef actor, boolean existenceConfirmed, boolean addressTerminated)
      implements SystemMessage {}

  /**
   * Every actor of {@code address} is gone (its node left or was declared dead): sent to each local
   * actor that watches, or is watched by, an actor there.
   */
  public record AddressTerminated(Address address) implements SystemMessage {}

  /** The one Create instance: it carries nothing. */
  public static final Create CREATE = new Create();
  /** The one Suspend instance: it carries nothing. */
  public static final Suspend SUSPEND = new Suspend();
  /** The one Terminate instance: it carries nothing. */
  public static final Terminate TERMINATE = new Terminate();
}
