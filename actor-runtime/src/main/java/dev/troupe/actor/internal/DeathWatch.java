package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.Terminated;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Death watch: who an actor watches (with an optional custom message), who watches it, which
 * {@code Terminated} messages it has queued to itself but not processed (so that {@code unwatch}
 * can drop them), and the operations on them; also what a whole node going away means for them.
 *
 * <p>An instance is a cell's watch state, actor thread only, allocated on first use; the static
 * methods are the cell's side (watch, unwatch, a watcher arriving, a watched actor or a node
 * going).
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

  // =============================================================== the cell's side (actor thread)

  private static DeathWatch of(ActorCell cell) {
    DeathWatch w = cell.watch;
    if (w == null) {
      w = new DeathWatch();
      cell.watch = w;
    }
    return w;
  }

  /** {@code watch} and {@code watchWith}: {@code message} null means a plain {@code Terminated}. */
  static void watch(ActorCell cell, InternalActorRef target, Object message) {
    if (!target.equals(cell.self) && of(cell).startWatching(target, message)) {
      if (!target.isLocal()) {
        subscribeAddressTerminated(cell); // its node may go without a word
      }
      target.sendSystemMessage(new SystemMessages.Watch(target, cell.self));
    }
  }

  static void unwatch(ActorCell cell, InternalActorRef target) {
    DeathWatch w = cell.watch;
    if (w == null) {
      return;
    }
    if (w.isWatching(target)) {
      w.stopWatching(target);
      target.sendSystemMessage(new SystemMessages.Unwatch(target, cell.self));
    }
    w.dropQueuedTerminated(target);
  }

  /** A {@code Watch} arrived: someone watches this actor. */
  static void watcherArrived(ActorCell cell, SystemMessages.Watch w) {
    if (w.watchee().equals(cell.self) && !w.watcher().equals(cell.self)) { // by path and uid: see afterTermination
      of(cell).addWatcher(w.watcher());
      if (!w.watcher().isLocal()) {
        subscribeAddressTerminated(cell); // forget the watcher when its node goes
      }
    }
  }

  static void watcherLeft(ActorCell cell, SystemMessages.Unwatch u) {
    if (cell.watch != null) {
      cell.watch.removeWatcher(u.watcher());
    }
  }

  /** From now on this actor hears when a node is gone; once per incarnation of the watch state. */
  static void subscribeAddressTerminated(ActorCell cell) {
    DeathWatch w = of(cell);
    if (!w.addressSubscribed) {
      w.addressSubscribed = true;
      cell.self.system.subscribeAddressTerminated(cell.self);
    }
  }

  /**
   * A watched actor (or a child: parents hear of their children's deaths unasked) terminated:
   * queue its {@code Terminated} (or the custom message) behind its last messages.
   */
  static void watchedActorTerminated(ActorCell cell, SystemMessages.DeathWatchNotification d) {
    ActorRef dead = d.actor();
    DeathWatch w = cell.watch;
    if (w != null && w.isWatching(dead)) {
      Object custom = w.stopWatching(dead);
      if (cell.state == ActorCell.ALIVE) {
        if (custom != null) {
          cell.self.tell(custom, dead);
        } else {
          w.queuedTerminated(dead);
          cell.self.tell(
              new ActorCell.WatchedTerminated(new Terminated(dead, d.existenceConfirmed(), d.addressTerminated())),
              dead);
        }
      }
    }
    CellChildren.childTerminated(cell, dead);
  }

  /** @return whether a queued {@code Terminated} is still wanted (the actor did not unwatch since) */
  static boolean takeQueuedTerminated(ActorCell cell, ActorRef subject) {
    return cell.watch != null && cell.watch.takeQueuedTerminated(subject);
  }

  /**
   * A node is gone: its actors this one watched (or deployed there as children) are terminated
   * as far as this actor can tell, and its watchers there need no notification any more.
   */
  static void addressTerminated(ActorCell cell, Address address) {
    for (InternalActorRef child : CellChildren.snapshot(cell)) {
      if (!child.isLocal() && child.path().address().equals(address)) {
        watchedActorTerminated(cell, new SystemMessages.DeathWatchNotification(child, false, true));
      }
    }
    DeathWatch w = cell.watch;
    if (w != null) {
      for (ActorRef dead : w.watchedAt(address)) {
        watchedActorTerminated(cell, new SystemMessages.DeathWatchNotification(dead, false, true));
      }
      w.removeWatchersAt(address);
    }
  }

  /** The actor terminated: tell its watchers, unwatch everyone, leave the address topic. */
  static void tellWatchersAndLetGo(ActorCell cell) {
    DeathWatch w = cell.watch;
    if (w != null) {
      w.notifyWatchers(cell.self);
      w.unwatchAll(cell.self);
      if (w.addressSubscribed) {
        cell.self.system.unsubscribeAddressTerminated(cell.self);
      }
      cell.watch = null;
    }
  }
}
