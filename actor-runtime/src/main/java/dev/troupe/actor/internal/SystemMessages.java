package dev.troupe.actor.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.SystemMessage;

/** The runtime's system messages. */
final class SystemMessages {
  private SystemMessages() {}

  /** Creates the actor instance and runs {@code preStart}. */
  record Create() implements SystemMessage {}

  /** Replaces a failed instance. */
  record Recreate(Throwable cause) implements SystemMessage {}

  /** Holds user messages (the parent or an ancestor failed, or all-for-one restart). */
  record Suspend() implements SystemMessage {}

  /** Releases user messages; {@code cause} is set when resuming after a failure. */
  record Resume(Throwable cause) implements SystemMessage {}

  /** Stops the actor: children first, then {@code postStop}. */
  record Terminate() implements SystemMessage {}

  /** Registers {@code watcher} at {@code watchee}. */
  record Watch(InternalActorRef watchee, InternalActorRef watcher) implements SystemMessage {}

  /** Removes {@code watcher} from {@code watchee}. */
  record Unwatch(InternalActorRef watchee, InternalActorRef watcher) implements SystemMessage {}

  /** A child reports its failure to its parent. */
  record Failed(InternalActorRef child, Throwable cause, long uid) implements SystemMessage {}

  /** An actor tells a watcher (and always its parent) that it terminated. */
  record DeathWatchNotification(ActorRef actor, boolean existenceConfirmed, boolean addressTerminated)
      implements SystemMessage {}

  static final Create CREATE = new Create();
  static final Suspend SUSPEND = new Suspend();
  static final Terminate TERMINATE = new Terminate();
}
