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
import dev.troupe.runtime.spi.RouteeNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The router's own actor: the parent and supervisor of pool routees, and the only writer of the
 * routee set. It handles management messages, {@link Broadcast}, routee deaths and resize requests;
 * ordinary messages that reach its mailbox anyway (sent to its cell's own ref, e.g. by a routee to
 * its parent) are routed like those sent to the router's ref.
 *
 * <p>A cluster-aware router ({@code cluster.enabled = on}) also has a child, {@value #FOLLOWER}, that
 * the cluster provides: it reports the eligible nodes ({@link RouteeNodes.NodesChanged}) and the
 * router drops the routees of nodes that went and adds routees on new ones (see {@link
 * ClusterRoutees}). Such a router does not stop when it has no routees (its members may come back),
 * takes no {@code AdjustPoolSize}, and does not replace a routee that stopped until the next news.
 */
public final class RouterActor extends AbstractActor {
  private final RouterState state;
  private final boolean pool;

  /** The name of a cluster-aware router's membership follower among its children. */
  static final String FOLLOWER = "troupe-cluster-members";

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
    if (state.clusterAware() && getContext().findChild(FOLLOWER).isEmpty()) {
      getContext().actorOf(state.clusterFollower(), FOLLOWER); // after a restart it is there already
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
        .match(RouteeNodes.NodesChanged.class, this::nodesChanged)
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

  /** The cluster's news: routees of nodes that went are removed at once, then the caps are filled. */
  private void nodesChanged(RouteeNodes.NodesChanged n) {
    if (!state.clusterAware() || !getSender().equals(getContext().findChild(FOLLOWER).orElse(null))) {
      state.route(n, getSender()); // not the follower's: an ordinary message
      return;
    }
    ClusterRoutees c = state.clusterRoutees();
    for (Routee gone : c.retain(n.nodes())) {
      remove(gone);
    }
    List<Routee> added = state.clusterAdditions(props -> getContext().actorOf(props), false);
    if (!added.isEmpty()) {
      add(added);
    }
  }

  private void remove(Routee routee) {
    if (state.clusterAware()) {
      state.clusterRoutees().removed(routee);
    }
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
    if (!pool || change == 0 || state.clusterAware()) {
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
    Routee gone = new ActorRefRoutee(t.actor());
    if (next.remove(gone)) {
      state.setRoutees(next);
    }
    if (state.clusterAware()) {
      state.clusterRoutees().removed(gone);
    }
    stopIfAllRouteesRemoved();
  }

  /**
   * A pool without a resizer whose last routee is gone has nothing left to do; a cluster-aware one
   * waits for members.
   */
  private void stopIfAllRouteesRemoved() {
    if (pool && state.resizer() == null && !state.clusterAware() && state.routees().isEmpty()) {
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
