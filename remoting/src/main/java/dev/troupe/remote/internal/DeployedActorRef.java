package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Unwatch;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.runtime.spi.SystemMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ref a parent holds for a child it deployed onto another node: a {@link RemoteActorRef} to
 * the child's path there that holds user messages back until the target confirmed the child
 * exists.
 *
 * <p>Why hold them: the deployment request travels on the control lane, user messages on the
 * ordinary lane, a connection of its own, so a message sent right after {@code actorOf} could
 * otherwise overtake the request and find nobody there. System messages (watch, stop, supervision)
 * need no holding: they follow the request on the control lane. Held messages go out in the order
 * they were told, before any later one, when the {@link DeploymentMessages.DeployAck} arrives;
 * at most {@code outbound-message-queue-size} are held, more are dropped.
 *
 * <p>A refused deployment makes the ref terminated: held and later messages are dropped (each a
 * {@code Dropped} event), and every watcher, those that watched while it was pending included, gets
 * {@code Terminated} from here (a target in untrusted mode would not answer their watches).
 *
 * <p>Thread-safety: any thread; the state changes under this ref's lock, which a {@code tell}
 * takes only while the deployment is pending.
 */
final class DeployedActorRef extends RemoteActorRef {
  private static final int PENDING = 0;
  private static final int LIVE = 1;
  private static final int REFUSED = 2;

  private final RemoteActorRefProvider provider;
  private final int holdLimit;
  // Written under the lock; read without it on every tell: once LIVE, a tell sends at once.
  private volatile int state = PENDING;
  private ArrayDeque<Held> held = new ArrayDeque<>(); // guarded by this; null once decided
  private Set<InternalActorRef> watchers = new HashSet<>(); // guarded by this; null once decided
  private String refusal; // guarded by this

  private record Held(Object message, ActorRef sender) {}

  DeployedActorRef(RemoteActorRefProvider provider, ActorPath path, int holdLimit) {
    super(provider, path);
    this.provider = provider;
    this.holdLimit = holdLimit;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to " + path() + ")");
    }
    if (state == LIVE) {
      super.tell(message, sender);
      return;
    }
    String dropReason = null;
    synchronized (this) {
      if (state == LIVE) {
        super.tell(message, sender); // under the lock: after every held message
      } else if (state == REFUSED) {
        dropReason = "its deployment was refused: " + refusal;
      } else if (held.size() >= holdLimit) {
        dropReason = holdLimit + " messages already wait for its deployment to be confirmed"
            + " (troupe.remote.advanced.outbound-message-queue-size)";
      } else {
        held.add(new Held(message, sender));
      }
    }
    if (dropReason != null) {
      provider.drops().dropped(message, dropReason, sender, this);
    }
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (state != LIVE) {
      synchronized (this) {
        if (state == PENDING) {
          if (message instanceof Watch w && w.watchee() == this) {
            watchers.add(w.watcher());
          } else if (message instanceof Unwatch u && u.watchee() == this) {
            watchers.remove(u.watcher());
          }
        } else if (state == REFUSED) {
          if (message instanceof Watch w && w.watchee() == this) {
            w.watcher().sendSystemMessage(new DeathWatchNotification(this, false, false));
          }
          return; // nobody there
        }
      }
    }
    super.sendSystemMessage(message);
  }

  @Override
  public boolean isTerminated() {
    return state == REFUSED;
  }

  /** The target created the child: held messages go, in order, and later ones directly. */
  void deployed() {
    synchronized (this) {
      if (state != PENDING) {
        return;
      }
      for (Held h : held) {
        super.tell(h.message(), h.sender());
      }
      held = null;
      watchers = null;
      state = LIVE;
    }
  }

  /**
   * The deployment was refused (or its target is gone): drops what is held, tells the watchers.
   *
   * @param reason why, for the drops
   * @return whether this changed anything (false if it was refused already)
   */
  boolean refused(String reason) {
    List<Held> dropped;
    List<InternalActorRef> toTell;
    synchronized (this) {
      if (state == REFUSED) {
        return false;
      }
      refusal = reason;
      dropped = held == null ? List.of() : new ArrayList<>(held);
      toTell = watchers == null ? List.of() : new ArrayList<>(watchers);
      held = null;
      watchers = null;
      state = REFUSED;
    }
    for (Held h : dropped) {
      provider.drops().dropped(h.message(), "its deployment was refused: " + reason, h.sender(), this);
    }
    for (InternalActorRef w : toTell) {
      w.sendSystemMessage(new DeathWatchNotification(this, false, false));
    }
    return true;
  }
}
