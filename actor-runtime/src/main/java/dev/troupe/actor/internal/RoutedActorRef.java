package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.SystemMessages.Unwatch;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.actor.internal.dispatch.Dispatcher;
import dev.troupe.actor.internal.dispatch.Mailbox;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.actor.internal.routing.RouterActor;
import dev.troupe.actor.internal.routing.RouterState;
import dev.troupe.routing.Pool;
import dev.troupe.routing.RouterConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Owns a router's ref: routes ordinary messages itself, passes the rest to the router actor.
 *
 * <p>This is the ref {@code actorOf} returns for props with a router. It routes ordinary messages
 * itself, in the sender's thread, straight to the routees (no hop through the router actor), and passes
 * management messages, {@code PoisonPill}, {@code Kill} and system messages to the router actor: a
 * normal cell (same path and uid as this ref) whose children are the pool's routees.
 *
 * <p>Two refs share the router's path: this one, which the parent registers and users hold, and
 * the router cell's own {@code self}; they are equal by path and uid. Watches addressed to this ref
 * are re-addressed to the cell's self, so death watch works with either.
 */
final class RoutedActorRef extends InternalActorRef {
  private final ActorSystemImpl system;
  private final ActorPath path;
  private final LocalActorRef router;
  private final RouterState state;

  /**
   * Resolves the router configuration (reading deployment config for {@code FromConfig}) and builds
   * the router cell; nothing runs until {@link #start()}.
   *
   * @throws dev.troupe.actor.ConfigurationException on bad deployment config or dispatcher ids
   */
  RoutedActorRef(ActorSystemImpl system, ActorPath path, InternalActorRef parent, Props props) {
    this.system = system;
    this.path = path;
    this.state =
        RouterState.create(
            system,
            system.dispatchers,
            system.settings().config(),
            path,
            props,
            this,
            RoutedActorRef::mailboxOf,
            system.provider().routeeNodes());
    RouterConfig config = state.config();
    Dispatcher dispatcher;
    try {
      dispatcher =
          config.routerDispatcher() == null
              ? system.dispatchers.defaultDispatcher()
              : system.dispatchers.lookup(config.routerDispatcher());
    } catch (RuntimeException e) {
      state.abandon(); // this router will never run
      throw e;
    }
    RouterState s = state;
    Props routerProps = Props.create(RouterActor.class, () -> new RouterActor(s));
    this.router =
        new LocalActorRef(
            system,
            path,
            ref -> new ActorCell(ref, parent, routerProps, dispatcher, system.defaultMailbox));
  }

  /** Creates the initial routees (pool routees as children of the router cell), then starts it. */
  void start() {
    if (state.clusterAware()) {
      state.initialClusterRoutees(props -> router.cell().attachChild(props, null, false));
    } else if (state.config() instanceof Pool) {
      List<ActorRef> routees = new ArrayList<>();
      for (int i = 0; i < state.initialPoolSize(); i++) {
        routees.add(router.cell().attachChild(state.nextRouteeProps(), null, false));
      }
      state.initialRoutees(routees);
    } else {
      state.initialGroupRoutees();
    }
    router.cell().start();
  }

  /** @return the router cell's own ref */
  LocalActorRef routerRef() {
    return router;
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to " + path + ")");
    }
    if (RouterState.isForRouterActor(message)) {
      router.tell(message, sender);
    } else if (message instanceof dev.troupe.routing.Broadcast b) {
      state.broadcast(b, sender);
    } else if (message instanceof Identify id) {
      // Answered here, so that whoever resolves the router gets this ref, not the cell's.
      if (sender != null) {
        Optional<ActorRef> me = router.isTerminated() ? Optional.empty() : Optional.of(this);
        sender.tell(new ActorIdentity(id.messageId(), me), this);
      }
    } else {
      state.route(message, sender);
    }
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof Watch w && w.watchee() == this) {
      router.sendSystemMessage(new Watch(router, w.watcher()));
    } else if (message instanceof Unwatch u && u.watchee() == this) {
      router.sendSystemMessage(new Unwatch(router, u.watcher()));
    } else {
      router.sendSystemMessage(message);
    }
  }

  @Override
  public boolean isTerminated() {
    return router.isTerminated();
  }

  @Override
  public ActorSystemImpl system() {
    return system;
  }

  /** @return the router's cell: selections descend into the routees through it */
  ActorCell routerCell() {
    return router.cell();
  }

  /**
   * The mailbox behind a routee ref, for load hints; O(1). Routing gets it as its {@link
   * dev.troupe.actor.internal.dispatch.MailboxLookup}.
   *
   * @param ref a ref
   * @return its mailbox, or {@code null} if it is not a local actor's ref
   */
  public static Mailbox mailboxOf(ActorRef ref) {
    return ref instanceof LocalActorRef l ? l.cell().mailbox : null;
  }
}
