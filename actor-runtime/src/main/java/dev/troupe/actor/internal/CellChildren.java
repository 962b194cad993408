package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Props;
import dev.troupe.actor.internal.dispatch.Dispatcher;
import dev.troupe.actor.internal.dispatch.MailboxType;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * A cell's side of its children: creating them (local, behind a router, or deployed elsewhere by
 * the ref provider), naming them, stopping them, and what a child's termination finishes (the
 * parent's own stop, or its restart). The thread-safe container of names and supervision stats
 * is {@link Children}, created with the first child.
 *
 * <p>Creation runs on the parent's thread, or on any thread for the guardians (top-level actors
 * are created from user threads); everything else on the parent's thread.
 */
final class CellChildren {
  private CellChildren() {}

  /** Creates, registers and starts a child; see {@link ActorCell#attachChild}. */
  static ActorRef attach(ActorCell cell, Props props, String name, boolean internal) {
    if (props == null) {
      throw new NullPointerException("props");
    }
    LocalActorRef self = cell.self;
    ActorSystemImpl system = self.system;
    Dispatcher dispatcher =
        props.dispatcher() == null
            ? system.dispatchers.defaultDispatcher()
            : system.dispatchers.lookup(props.dispatcher());
    MailboxType mailboxType =
        props.mailbox() == null ? system.defaultMailbox : system.dispatchers.mailboxType(props.mailbox());
    String childName = name == null ? forUpdate(cell).nextName() : checkedName(name, internal);
    if (cell.state != ActorCell.ALIVE) {
      throw new IllegalStateException("cannot create child " + childName + ": " + self.path() + " is stopping");
    }
    ActorPath path = self.path().child(childName).withUid(newUid());
    Address target = deployTarget(system, props, path);
    Children c = forUpdate(cell);
    c.reserve(childName);
    if (target != null) {
      return attachDeployed(cell, c, childName, props, path, target);
    }
    LocalActorRef child;
    RoutedActorRef routed = null; // props with a router: the child is a router cell behind this ref
    try {
      if (props.routerConfig() != null) {
        routed = new RoutedActorRef(system, path, self, props);
        child = routed.routerRef();
      } else {
        child = new LocalActorRef(system, path, ref -> new ActorCell(ref, self, props, dispatcher, mailboxType));
      }
      c.init(childName, routed != null ? routed : child);
    } catch (RuntimeException | Error e) {
      c.unreserve(childName);
      throw e;
    }
    if (routed != null) {
      routed.start();
    } else {
      child.cell().start();
    }
    if (cell.state != ActorCell.ALIVE) {
      child.stop(); // we began stopping while it was being created
    }
    return routed != null ? routed : child;
  }

  private static String checkedName(String name, boolean internal) {
    if (!ActorPath.isValidPathElement(name)) {
      throw new InvalidActorNameException(
          "invalid actor name ["
              + name
              + "]: use ASCII letters, digits and -_.*$+:@&=,!~'; (or %XX escapes), not empty");
    }
    if (name.startsWith("$") && !internal) {
      throw new InvalidActorNameException(
          "invalid actor name [" + name + "]: names starting with '$' are reserved");
    }
    return name;
  }

  /**
   * Where {@code props} put the child, if not here: its {@code Deploy}, else a {@code remote} key
   * of its deployment section. Checked before the name is taken, so a refused deployment (a local
   * provider cannot deploy elsewhere) fails {@code actorOf} and leaves nothing behind.
   */
  private static Address deployTarget(ActorSystemImpl system, Props props, ActorPath path) {
    LocalActorRefProviderImpl local = system.localProvider();
    Address target = props.deploy().remoteAddress().orElse(null);
    if (target == null) {
      target = local.configuredDeployment(path);
    }
    if (target == null || target.equals(local.address())) {
      return null;
    }
    return target;
  }

  /** A child the provider creates on another node; it stays this cell's child (and dies with its node). */
  private static ActorRef attachDeployed(
      ActorCell cell, Children c, String childName, Props props, ActorPath path, Address target) {
    InternalActorRef child;
    try {
      child = cell.self.system.provider().actorOf(cell.self, props, path, target);
      c.init(childName, child);
    } catch (RuntimeException | Error e) {
      c.unreserve(childName);
      throw e;
    }
    if (!child.isLocal()) {
      DeathWatch.subscribeAddressTerminated(cell);
    }
    if (cell.state != ActorCell.ALIVE) {
      child.stop();
    }
    return child;
  }

  private static long newUid() {
    long uid;
    do {
      uid = ThreadLocalRandom.current().nextLong();
    } while (uid == ActorPath.UNDEFINED_UID);
    return uid;
  }

  private static Children forUpdate(ActorCell cell) {
    Children c = cell.children;
    if (c == null) {
      synchronized (cell) { // once per parent; never on the message path
        c = cell.children;
        if (c == null) {
          c = new Children();
          cell.children = c;
        }
      }
    }
    return c;
  }

  static boolean isEmpty(ActorCell cell) {
    Children c = cell.children;
    return c == null || c.isEmpty();
  }

  static boolean anyStopping(ActorCell cell) {
    Children c = cell.children;
    return c != null && c.anyStopping();
  }

  static void forEach(ActorCell cell, Consumer<InternalActorRef> f) {
    Children c = cell.children;
    if (c != null) {
      c.refs().forEach(f);
    }
  }

  /** @return the child with this name, stopping or not (path lookup and selections), or null */
  static InternalActorRef byName(ActorCell cell, String name) {
    Children c = cell.children;
    return c == null ? null : c.child(name);
  }

  /** @return all children, stopping ones included, a snapshot */
  static List<InternalActorRef> snapshot(ActorCell cell) {
    Children c = cell.children;
    return c == null ? List.of() : c.refs();
  }

  /** Stops a child once, marking it as stopping (it is no longer found by name). */
  static void stop(ChildStats s) {
    if (!s.isStopping()) {
      s.markStopping();
      s.child.stop();
    }
  }

  /** Stops every child; the parent's termination. */
  static void stopAll(ActorCell cell) {
    Children c = cell.children;
    if (c != null) {
      for (InternalActorRef r : c.refs()) {
        ChildStats s = c.stats(r);
        if (s != null) {
          stop(s);
        }
      }
    }
  }

  /**
   * Stops {@code subject}: through its stats when it is a child (so it counts as stopping), else
   * directly.
   */
  static void stopChildOrOther(ActorCell cell, InternalActorRef subject) {
    Children c = cell.children;
    ChildStats s = c == null ? null : c.stats(subject);
    if (s != null) {
      stop(s);
    } else {
      subject.stop();
    }
  }

  /** A child terminated: finish the parent's stop or restart if it was the last one awaited. */
  static void childTerminated(ActorCell cell, ActorRef child) {
    Children c = cell.children;
    if (c == null || !c.remove(child)) {
      return;
    }
    if (cell.state == ActorCell.TERMINATING) {
      if (c.isEmpty()) {
        FaultHandling.finishTerminate(cell);
      }
    } else {
      LazyCellState x = cell.lazyState;
      if (x != null && x.pendingRecreate != null && !c.anyStopping()) {
        Throwable cause = x.pendingRecreate;
        x.pendingRecreate = null;
        FaultHandling.finishRecreate(cell, cause);
      }
    }
  }
}
