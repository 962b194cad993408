package dev.troupe.actor.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Who an actor watches (with an optional custom message), who watches it, and which {@code
 * Terminated} messages it has queued to itself but not processed (so that {@code unwatch} can drop
 * them). Actor thread only; allocated on first use.
 */
final class DeathWatch {
  private static final Object NO_MESSAGE = new Object();
  private final Map<ActorRef, Object> watching = new HashMap<>();
  private Set<InternalActorRef> watchedBy;
  private Set<ActorRef> terminatedQueued;
  /** The cell is subscribed to "address terminated" (it watches or is watched across nodes). */
  boolean addressSubscribed;

  /** @return whether this is a new watch */
  boolean startWatching(ActorRef subject, Object message) {
    return watching.put(subject, message == null ? NO_MESSAGE : message) == null;
  }

  boolean isWatching(ActorRef subject) {
    return watching.containsKey(subject);
  }

  /** @return the custom message of the watch, or null for a plain {@code Terminated} */
  Object stopWatching(ActorRef subject) {
    Object m = watching.remove(subject);
    return m == NO_MESSAGE ? null : m;
  }

  void queuedTerminated(ActorRef subject) {
    if (terminatedQueued == null) {
      terminatedQueued = new HashSet<>();
    }
    terminatedQueued.add(subject);
  }

  boolean takeQueuedTerminated(ActorRef subject) {
    return terminatedQueued != null && terminatedQueued.remove(subject);
  }

  void dropQueuedTerminated(ActorRef subject) {
    if (terminatedQueued != null) {
      terminatedQueued.remove(subject);
    }
  }

  /** @return the watched actors that live at {@code address}, a snapshot */
  List<ActorRef> watchedAt(Address address) {
    List<ActorRef> out = new ArrayList<>();
    for (ActorRef r : watching.keySet()) {
      if (r.path().address().equals(address)) {
        out.add(r);
      }
    }
    return out;
  }

  /** Forgets the watchers at {@code address}: their node is gone, nobody there to notify. */
  void removeWatchersAt(Address address) {
    if (watchedBy != null) {
      watchedBy.removeIf(w -> w.path().address().equals(address));
    }
  }

  void addWatcher(InternalActorRef watcher) {
    if (watchedBy == null) {
      watchedBy = new HashSet<>();
    }
    watchedBy.add(watcher);
  }

  void removeWatcher(InternalActorRef watcher) {
    if (watchedBy != null) {
      watchedBy.remove(watcher);
    }
  }

  void notifyWatchers(InternalActorRef self) {
    if (watchedBy != null) {
      for (InternalActorRef w : watchedBy) {
        w.sendSystemMessage(new SystemMessages.DeathWatchNotification(self, true, false));
      }
      watchedBy = null;
    }
  }

  /** @return {watching, watched by, Terminated queued}: for leak tests */
  int[] counts() {
    return new int[] {
      watching.size(),
      watchedBy == null ? 0 : watchedBy.size(),
      terminatedQueued == null ? 0 : terminatedQueued.size()
    };
  }

  void unwatchAll(InternalActorRef self) {
    for (ActorRef w : watching.keySet()) {
      InternalActorRef.internal(w).sendSystemMessage(new SystemMessages.Unwatch(InternalActorRef.internal(w), self));
    }
    watching.clear();
  }
}
