package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Props;
import dev.troupe.actor.internal.dispatch.Dispatcher;
import dev.troupe.actor.internal.dispatch.MailboxType;
import dev.troupe.runtime.spi.SystemMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Actors this system runs outside the guardians' tree, each supervised by a ref it was given
 * instead of by a parent cell here. Remoting creates this way the actors that another node deploys
 * onto this one: their parent, and so their supervisor, lives on the deploying node.
 *
 * <p>Each is registered by its path (found by {@link LocalActorRefProvider#resolveLocal}) until it
 * terminates, and each is stopped when the system terminates: after {@code /user} is gone and
 * before {@code /system} stops, the root guardian stops them all and waits for the last one.
 *
 * <p>Thread-safety: any thread. Creation is refused once the system began stopping them.
 */
final class DetachedActors {
  private final ActorSystemImpl system;
  private final ConcurrentHashMap<String, LocalActorRef> byPath = new ConcurrentHashMap<>();
  private boolean stopping; // guarded by this
  private Runnable whenGone; // guarded by this; run once, when stopping and the last one is gone

  DetachedActors(ActorSystemImpl system) {
    this.system = system;
  }

  boolean isEmpty() {
    return byPath.isEmpty();
  }

  /**
   * Creates and starts an actor at {@code path} whose parent is {@code supervisor}; see {@link
   * LocalActorRefProvider#actorOfSupervisedBy}.
   */
  LocalActorRef create(Props props, ActorPath path, InternalActorRef supervisor) {
    if (props.routerConfig() != null) {
      throw new IllegalArgumentException("a router cannot be created outside the actor tree: " + path);
    }
    List<String> elements = path.elements();
    if (elements.isEmpty() || List.of("user", "system", "temp", "deadLetters").contains(elements.get(0))) {
      throw new InvalidActorNameException("not a path outside the guardians' tree: " + path);
    }
    Dispatcher dispatcher =
        props.dispatcher() == null
            ? system.dispatchers.defaultDispatcher()
            : system.dispatchers.lookup(props.dispatcher());
    MailboxType mailboxType =
        props.mailbox() == null ? system.defaultMailbox : system.dispatchers.mailboxType(props.mailbox());
    String key = path.toStringWithoutAddress();
    ParentRef parent = new ParentRef(supervisor);
    LocalActorRef child =
        new LocalActorRef(system, path, ref -> new ActorCell(ref, parent, props, dispatcher, mailboxType));
    synchronized (this) {
      if (stopping || system.isTerminating()) {
        throw new IllegalStateException("actor system " + system.name() + " is terminating");
      }
      if (byPath.putIfAbsent(key, child) != null) {
        throw new InvalidActorNameException("actor path [" + key + "] is not unique");
      }
    }
    child.cell().start();
    return child;
  }

  /**
   * @param elements the elements of a path of this system
   * @return the actor at that path when it is a registered one or lies below one, else null
   */
  InternalActorRef find(List<String> elements) {
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < elements.size(); i++) {
      key.append('/').append(elements.get(i));
      InternalActorRef ref = byPath.get(key.toString());
      if (ref != null) {
        for (int j = i + 1; j < elements.size() && ref != null; j++) {
          ActorCell cell = LocalActorRef.cellOf(ref);
          ref = cell == null ? null : cell.childByName(elements.get(j));
        }
        return ref;
      }
    }
    return null;
  }

  /**
   * Stops every registered actor and refuses new ones; {@code whenGone} runs once the last has
   * terminated (at once when there is none), on the thread that saw it go.
   */
  void stopAll(Runnable gone) {
    List<LocalActorRef> all;
    synchronized (this) {
      stopping = true;
      whenGone = gone;
      all = new ArrayList<>(byPath.values());
    }
    for (LocalActorRef r : all) {
      r.stop();
    }
    goneIfEmpty();
  }

  private void goneIfEmpty() {
    Runnable r = null;
    synchronized (this) {
      if (stopping && whenGone != null && byPath.isEmpty()) {
        r = whenGone;
        whenGone = null;
      }
    }
    if (r != null) {
      r.run();
    }
  }

  /**
   * The parent a detached actor's cell sees: the supervisor it was given, which gets everything
   * (failures, the death notice, user messages to {@code getParent()}), and the registry, which
   * forgets the actor just before its death notice passes on.
   */
  private final class ParentRef extends InternalActorRef {
    private final InternalActorRef supervisor;

    ParentRef(InternalActorRef supervisor) {
      this.supervisor = supervisor;
    }

    @Override
    public ActorSystemImpl system() {
      return system;
    }

    @Override
    public ActorPath path() {
      return supervisor.path();
    }

    @Override
    public void tell(Object message, ActorRef sender) {
      supervisor.tell(message, sender);
    }

    @Override
    public void sendSystemMessage(SystemMessage message) {
      // Forget it first: whoever the notice reaches must no longer find the actor by its path.
      if (message instanceof SystemMessages.DeathWatchNotification d && d.actor() instanceof LocalActorRef) {
        byPath.remove(d.actor().path().toStringWithoutAddress(), d.actor());
        supervisor.sendSystemMessage(message);
        goneIfEmpty();
      } else {
        supervisor.sendSystemMessage(message);
      }
    }

    @Override
    public boolean isTerminated() {
      return supervisor.isTerminated();
    }

    @Override
    public boolean isLocal() {
      return supervisor.isLocal();
    }
  }
}
