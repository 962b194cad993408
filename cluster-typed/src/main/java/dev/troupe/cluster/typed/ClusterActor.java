package dev.troupe.cluster.typed;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.Terminated;
import dev.troupe.actor.typed.internal.ActorRefAdapter;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.MemberStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The actor behind {@link Cluster#manager()} and {@link Cluster#subscriptions()}: hands membership
 * commands to the classic cluster, keeps one forwarding child per event subscription (the classic
 * cluster's subscriber, which it watches and replays the current state to), answers {@link SelfUp}
 * and {@link SelfRemoved} from its own subscription to this member's events, and ends a
 * subscriber's subscriptions when the actor behind it stops.
 */
final class ClusterActor extends AbstractBehavior<Object> {
  private final dev.troupe.cluster.Cluster cluster;
  /** Each subscriber's forwarding children, one per {@link Subscribe} of an event class. */
  private final Map<ActorRef<?>, List<ActorRef<Object>>> forwarders = new HashMap<>();
  /** The watched actors behind the subscribers, and their subscribers. */
  private final Map<dev.troupe.actor.ActorRef, Set<ActorRef<?>>> byLife = new HashMap<>();
  private final Set<ActorRef<SelfUp>> awaitingUp = new LinkedHashSet<>();
  private final Set<ActorRef<SelfRemoved>> awaitingRemoval = new LinkedHashSet<>();
  private boolean up;
  private MemberStatus removedFrom; // null until this member was removed

  /**
   * @param cluster the classic cluster
   * @return the behaviour; an exception in it is logged and the actor goes on with its state (it
   *     serves every typed user of the system's cluster)
   */
  static Behavior<Object> create(dev.troupe.cluster.Cluster cluster) {
    return Behaviors.supervise(Behaviors.<Object>setup(ctx -> new ClusterActor(ctx, cluster)))
        .onFailure(RuntimeException.class, SupervisorStrategy.resume());
  }

  private ClusterActor(ActorContext<Object> ctx, dev.troupe.cluster.Cluster cluster) {
    super(ctx);
    this.cluster = cluster;
    cluster.subscribe(Adapter.toClassic(ctx.getSelf()), ClusterEvent.initialStateAsEvents(),
        ClusterEvent.MemberUp.class, ClusterEvent.MemberRemoved.class);
  }

  @Override
  public Receive<Object> createReceive() {
    return newReceiveBuilder()
        .onMessage(Subscribe.class, this::subscribe)
        .onMessage(Unsubscribe.class, u -> {
          unsubscribe(u.subscriber(), true);
          return this;
        })
        .onMessage(GetCurrentState.class, g -> {
          g.recipient().tell(cluster.state());
          return this;
        })
        .onMessage(Join.class, j -> membership(j, () -> cluster.join(j.address())))
        .onMessage(JoinSeedNodes.class, j -> membership(j, () -> cluster.joinSeedNodes(j.seedNodes())))
        .onMessage(Leave.class, l -> membership(l, () -> cluster.leave(l.address())))
        .onMessage(Down.class, d -> membership(d, () -> cluster.down(d.address())))
        .onMessage(ClusterEvent.MemberUp.class, this::memberUp)
        .onMessage(ClusterEvent.MemberRemoved.class, this::memberRemoved)
        .onSignal(Terminated.class, t -> {
          died(Adapter.toClassic(t.getRef()));
          return this;
        })
        .build();
  }

  private Behavior<Object> membership(ClusterCommand command, Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      getContext().getLog().warn("cluster manager: {} refused: {}", command, e.getMessage());
    }
    return this;
  }

  @SuppressWarnings("unchecked")
  private Behavior<Object> subscribe(Subscribe<?> s) {
    ActorRef<?> who = s.subscriber();
    dev.troupe.actor.ActorRef life;
    try {
      life = ActorRefAdapter.lifeOf(who);
    } catch (IllegalArgumentException e) {
      getContext().getLog().warn("cluster subscriptions: {} refused: {}", s, e.getMessage());
      return this;
    }
    if (s.eventClass() == SelfUp.class) {
      ActorRef<SelfUp> r = (ActorRef<SelfUp>) who;
      if (up || cluster.selfMember().status() == MemberStatus.UP) {
        r.tell(new SelfUp(cluster.state()));
        return this;
      }
      awaitingUp.add(r);
    } else if (s.eventClass() == SelfRemoved.class) {
      ActorRef<SelfRemoved> r = (ActorRef<SelfRemoved>) who;
      if (removedFrom != null) {
        r.tell(new SelfRemoved(removedFrom));
        return this;
      }
      awaitingRemoval.add(r);
    } else {
      ActorRef<Object> target = (ActorRef<Object>) who;
      ActorRef<Object> forwarder = getContext().spawnAnonymous(Behaviors.receiveMessage(m -> {
        target.tell(m);
        return Behaviors.same();
      }));
      forwarders.computeIfAbsent(who, k -> new ArrayList<>(1)).add(forwarder);
      cluster.subscribe(Adapter.toClassic(forwarder), ClusterEvent.initialStateAsEvents(), s.eventClass());
    }
    if (!life.equals(Adapter.toClassic(getContext().getSelf()))) {
      byLife.computeIfAbsent(life, k -> {
        getContext().watch(Adapter.toTyped(k));
        return new HashSet<>();
      }).add(who);
    }
    return this;
  }

  /**
   * Ends every subscription of a subscriber.
   *
   * @param who the subscriber
   * @param unfollow whether to forget it under the actor behind it (not when that actor stopped:
   *     then the caller already did)
   */
  private void unsubscribe(ActorRef<?> who, boolean unfollow) {
    List<ActorRef<Object>> fs = forwarders.remove(who);
    if (fs != null) {
      for (ActorRef<Object> f : fs) {
        cluster.unsubscribe(Adapter.toClassic(f));
        getContext().stop(f);
      }
    }
    awaitingUp.remove(who);
    awaitingRemoval.remove(who);
    if (unfollow) {
      unfollow(who);
    }
  }

  private void unfollow(ActorRef<?> who) {
    dev.troupe.actor.ActorRef life;
    try {
      life = ActorRefAdapter.lifeOf(who);
    } catch (IllegalArgumentException e) {
      return; // never subscribed: refused on Subscribe
    }
    Set<ActorRef<?>> whos = byLife.get(life);
    if (whos != null && whos.remove(who) && whos.isEmpty()) {
      byLife.remove(life);
      getContext().unwatch(Adapter.toTyped(life));
    }
  }

  private void died(dev.troupe.actor.ActorRef life) {
    Set<ActorRef<?>> whos = byLife.remove(life);
    if (whos != null) {
      for (ActorRef<?> who : whos) {
        unsubscribe(who, false);
      }
    }
  }

  private boolean isSelf(dev.troupe.cluster.Member m) {
    return m.uniqueAddress().equals(cluster.selfUniqueAddress());
  }

  private Behavior<Object> memberUp(ClusterEvent.MemberUp e) {
    if (!up && isSelf(e.member())) {
      up = true;
      SelfUp event = new SelfUp(cluster.state());
      List<ActorRef<SelfUp>> told = new ArrayList<>(awaitingUp);
      awaitingUp.clear();
      for (ActorRef<SelfUp> r : told) {
        r.tell(event);
        if (!forwarders.containsKey(r) && !awaitingRemoval.contains(r)) {
          unfollow(r);
        }
      }
    }
    return this;
  }

  private Behavior<Object> memberRemoved(ClusterEvent.MemberRemoved e) {
    if (removedFrom == null && isSelf(e.member())) {
      removedFrom = e.previousStatus();
      SelfRemoved event = new SelfRemoved(removedFrom);
      for (ActorRef<SelfRemoved> r : awaitingRemoval) {
        r.tell(event);
      }
      awaitingRemoval.clear();
    }
    return this;
  }
}
