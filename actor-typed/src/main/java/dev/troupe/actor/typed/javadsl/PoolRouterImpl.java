package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.Terminated;
import dev.troupe.actor.typed.internal.BehaviorImpl;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/** {@link Routers#pool}: spawns and watches its routees when the router starts. */
final class PoolRouterImpl<T> extends PoolRouter<T> implements BehaviorImpl.Starting<T> {
  private final int poolSize;
  private final Behavior<T> behavior;
  private final Props routeeProps;
  private final RoutingLogic.Choice<T> logic;
  private final Predicate<? super T> broadcast; // null: none

  private PoolRouterImpl(
      int poolSize, Behavior<T> behavior, Props routeeProps, RoutingLogic.Choice<T> logic, Predicate<? super T> broadcast) {
    if (poolSize < 1) {
      throw new IllegalArgumentException("poolSize must be at least 1, was " + poolSize);
    }
    this.poolSize = poolSize;
    this.behavior = Objects.requireNonNull(behavior, "behavior");
    this.routeeProps = Objects.requireNonNull(routeeProps, "routeeProps");
    this.logic = logic;
    this.broadcast = broadcast;
  }

  static <T> PoolRouter<T> create(int poolSize, Behavior<T> behavior) {
    return new PoolRouterImpl<>(poolSize, behavior, Props.empty(), RoutingLogic.roundRobin(), null);
  }

  @Override
  public PoolRouter<T> withRoundRobinRouting() {
    return new PoolRouterImpl<>(poolSize, behavior, routeeProps, RoutingLogic.roundRobin(), broadcast);
  }

  @Override
  public PoolRouter<T> withRandomRouting() {
    return new PoolRouterImpl<>(poolSize, behavior, routeeProps, RoutingLogic.random(), broadcast);
  }

  @Override
  public PoolRouter<T> withConsistentHashingRouting(int virtualNodesFactor, Function<T, String> mapping) {
    return new PoolRouterImpl<>(
        poolSize, behavior, routeeProps, RoutingLogic.consistentHashing(virtualNodesFactor, mapping), broadcast);
  }

  @Override
  public PoolRouter<T> withBroadcastPredicate(Predicate<? super T> predicate) {
    return new PoolRouterImpl<>(poolSize, behavior, routeeProps, logic, Objects.requireNonNull(predicate, "predicate"));
  }

  @Override
  public PoolRouter<T> withPoolSize(int size) {
    return new PoolRouterImpl<>(size, behavior, routeeProps, logic, broadcast);
  }

  @Override
  public PoolRouter<T> withRouteeProps(Props props) {
    return new PoolRouterImpl<>(poolSize, behavior, props, logic, broadcast);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Behavior<T> start(ActorContext<T> ctx) {
    ActorRef<T>[] routees = (ActorRef<T>[]) new ActorRef<?>[poolSize];
    for (int i = 0; i < poolSize; i++) {
      routees[i] = ctx.spawnAnonymous(behavior, routeeProps);
      ctx.watch(routees[i]);
    }
    RoutingLogic<T> l = logic.create();
    l.routeesChanged(routees);
    return new Running<>(routees, l, broadcast);
  }

  @Override
  public String toString() {
    return "Routers.pool(" + poolSize + ", " + behavior + ")";
  }

  /** The running pool: one message at a time, on the router's actor. */
  private static final class Running<T> extends ExtensibleBehavior<T> {
    private ActorRef<T>[] routees;
    private final RoutingLogic<T> logic;
    private final Predicate<? super T> broadcast;

    Running(ActorRef<T>[] routees, RoutingLogic<T> logic, Predicate<? super T> broadcast) {
      this.routees = routees;
      this.logic = logic;
      this.broadcast = broadcast;
    }

    @Override
    public Behavior<T> receive(ActorContext<T> ctx, T msg) {
      if (broadcast != null && broadcast.test(msg)) {
        for (ActorRef<T> r : routees) {
          r.tell(msg);
        }
      } else {
        ActorRef<T> r = logic.select(msg, routees);
        if (r != null) {
          r.tell(msg);
        } else {
          RoutingLogic.unroutable(ctx, msg, "the consistent-hashing mapping gave no key");
        }
      }
      return this;
    }

    @Override
    public Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
      if (signal instanceof Terminated t) { // a ChildFailed too: a routee that failed and was stopped
        ActorRef<T>[] rs = routees;
        int at = Arrays.asList(rs).indexOf(t.getRef());
        if (at < 0) {
          return this;
        }
        ActorRef<T>[] left = Arrays.copyOf(rs, rs.length - 1);
        System.arraycopy(rs, at + 1, left, at, rs.length - at - 1);
        if (left.length == 0) {
          ctx.getLog().info("The last routee of pool router {} stopped: the router stops", ctx.getSelf().path());
          return Behaviors.stopped();
        }
        routees = left;
        logic.routeesChanged(left);
        return this;
      }
      return Behaviors.same();
    }
  }
}
