package dev.troupe.actor.internal.routing;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.AddRoutee;
import dev.troupe.routing.AdjustPoolSize;
import dev.troupe.routing.Broadcast;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.Pool;
import dev.troupe.routing.RemoveRoutee;
import dev.troupe.routing.Routee;
import dev.troupe.routing.Routees;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The router's own actor: the parent and supervisor of pool routees, and the only writer of the
 * routee set. It handles management messages, {@link Broadcast}, routee deaths and resize requests;
 * ordinary messages that reach its mailbox anyway (sent to its cell's own ref, e.g. by a routee to
 * its parent) are routed like those sent to the router's ref.
 */
public final class RouterActor extends AbstractActor {
  private final RouterState state;
  private final boolean pool;

  /**
   * @param state the state shared with the router's ref
   */
  public RouterActor(RouterState state) {
    this.state = state;
    this.pool = state.config() instanceof Pool;
  }

  @Override
  public SupervisorStrategy supervisorStrategy() {
    return state.config() instanceof Pool p ? p.supervisorStrategy() : SupervisorStrategy.defaultStrategy();
  }

  @Override
  public void preStart() {
    state.bindRouterActor(getSelf());
    for (Routee r : state.routees()) {
      if (r instanceof ActorRefRoutee a) {
        getContext().watch(a.ref());
      }
    }
  }

  /** Keeps the routees: a restarted router goes on with the same pool. */
  @Override
  public void preRestart(Throwable reason, Optional<Object> message) {}

  @Override
  public void postStop() {
    state.setRoutees(List.of()); // later messages to the router's ref go to dead letters
    state.logic().stopped();
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(GetRoutees.class, m -> getSender().tell(new Routees(state.routees()), getSelf()))
        .match(AddRoutee.class, m -> add(List.of(m.routee())))
        .match(RemoveRoutee.class, m -> remove(m.routee()))
        .match(AdjustPoolSize.class, m -> adjust(m.change()))
        .match(Broadcast.class, this::broadcast)
        .match(Terminated.class, this::routeeTerminated)
        .match(RouterState.ResizeRequest.class, this::resize)
        .matchAny(m -> state.route(m, getSender()))
        .build();
  }

  private void broadcast(Broadcast b) {
    state.broadcast(b, getSender()); // one reaching the router cell directly, e.g. by selection
  }

  private void add(List<Routee> added) {
    List<Routee> next = new ArrayList<>(state.routees());
    for (Routee r : added) {
      if (r instanceof ActorRefRoutee a) {
        getContext().watch(a.ref());
      }
      next.add(r);
    }
    state.setRoutees(next);
  }

  private void remove(Routee routee) {
    List<Routee> next = new ArrayList<>(state.routees());
    if (next.remove(routee)) {
      state.setRoutees(next);
      if (routee instanceof ActorRefRoutee a) {
        getContext().unwatch(a.ref());
        if (isChild(a.ref())) {
          a.ref().tell(PoisonPill.getInstance(), getSelf()); // after what is already in its mailbox
        }
      }
      stopIfAllRouteesRemoved();
    }
  }

  private boolean isChild(ActorRef ref) {
    return getContext().findChild(ref.path().name()).map(ref::equals).orElse(false);
  }

  private void adjust(int change) {
    if (!pool || change == 0) {
      return;
    }
    if (change > 0) {
      List<Routee> added = new ArrayList<>(change);
      for (int i = 0; i < change; i++) {
        added.add(new ActorRefRoutee(getContext().actorOf(state.nextRouteeProps())));
      }
      add(added);
    } else {
      List<Routee> current = state.routees();
      int keep = Math.max(0, current.size() + change);
      for (Routee r : current.subList(keep, current.size())) {
        remove(r);
      }
    }
  }

  private void routeeTerminated(Terminated t) {
    List<Routee> next = new ArrayList<>(state.routees());
    if (next.remove(new ActorRefRoutee(t.actor()))) {
      state.setRoutees(next);
    }
    stopIfAllRouteesRemoved();
  }

  /** A pool without a resizer whose last routee is gone has nothing left to do. */
  private void stopIfAllRouteesRemoved() {
    if (pool && state.resizer() == null && state.routees().isEmpty()) {
      getContext().stop(getSelf());
    }
  }

  private void resize(RouterState.ResizeRequest r) {
    try {
      var loads = state.loads();
      state.resizer().reportMessageCount(loads, r.messageCounter());
      int change = state.resizer().resize(loads);
      adjust(change);
    } finally {
      state.resizeDone();
    }
  }
}
