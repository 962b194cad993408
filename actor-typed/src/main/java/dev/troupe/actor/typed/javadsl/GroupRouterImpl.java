package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.internal.BehaviorImpl;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.Function;

/** {@link Routers#group}: subscribes to its key's listing when the router starts. */
final class GroupRouterImpl<T> extends GroupRouter<T> implements BehaviorImpl.Starting<T> {
  private final ServiceKey<T> key;
  private final RoutingLogic.Choice<T> logic;

  private GroupRouterImpl(ServiceKey<T> key, RoutingLogic.Choice<T> logic) {
    this.key = Objects.requireNonNull(key, "key");
    this.logic = logic;
  }

  static <T> GroupRouter<T> create(ServiceKey<T> key) {
    return new GroupRouterImpl<>(key, RoutingLogic.roundRobin());
  }

  @Override
  public GroupRouter<T> withRoundRobinRouting() {
    return new GroupRouterImpl<>(key, RoutingLogic.roundRobin());
  }

  @Override
  public GroupRouter<T> withRandomRouting() {
    return new GroupRouterImpl<>(key, RoutingLogic.random());
  }

  @Override
  public GroupRouter<T> withConsistentHashingRouting(int virtualNodesFactor, Function<T, String> mapping) {
    return new GroupRouterImpl<>(key, RoutingLogic.consistentHashing(virtualNodesFactor, mapping));
  }

  /** A listing, adapted into the router's own mailbox (the router accepts T; this is its one other message). */
  private record Listed(Receptionist.Listing listing) {}

  @Override
  @SuppressWarnings("unchecked")
  public Behavior<T> start(ActorContext<T> ctx) {
    ActorRef<Receptionist.Listing> adapter =
        ctx.messageAdapter(Receptionist.Listing.class, l -> (T) (Object) new Listed(l));
    ctx.getSystem().receptionist().tell(Receptionist.subscribe(key, adapter));
    return new Running<>(key, logic.create());
  }

  @Override
  public String toString() {
    return "Routers.group(" + key + ")";
  }

  /** The running group: waits for the first listing, then follows the listings. */
  private static final class Running<T> extends ExtensibleBehavior<T> {
    private final ServiceKey<T> key;
    private final RoutingLogic<T> logic;
    private ActorRef<T>[] routees; // null until the first listing
    private ArrayDeque<T> waiting = new ArrayDeque<>();
    private boolean warnedFull;

    Running(ServiceKey<T> key, RoutingLogic<T> logic) {
      this.key = key;
      this.logic = logic;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Behavior<T> receive(ActorContext<T> ctx, T msg) {
      if ((Object) msg instanceof Listed l) {
        routees = l.listing().getServiceInstances(key).toArray((ActorRef<T>[]) new ActorRef<?>[0]);
        logic.routeesChanged(routees);
        ArrayDeque<T> w = waiting;
        if (w != null) {
          waiting = null;
          for (T m : w) {
            route(ctx, m);
          }
        }
      } else if (routees == null) {
        if (waiting.size() < BUFFER_CAPACITY) {
          waiting.add(msg);
        } else {
          if (!warnedFull) {
            warnedFull = true;
            ctx.getLog().warn("Router {} holds {} messages waiting for the receptionist's first listing of {}",
                ctx.getSelf().path(), BUFFER_CAPACITY, key);
          }
          ctx.getSystem().deadLetters().tell(msg);
        }
      } else {
        route(ctx, msg);
      }
      return this;
    }

    private void route(ActorContext<T> ctx, T msg) {
      ActorRef<T>[] rs = routees;
      if (rs.length == 0) {
        RoutingLogic.unroutable(ctx, msg, "no instance of " + key + " is listed");
        return;
      }
      ActorRef<T> r = logic.select(msg, rs);
      if (r != null) {
        r.tell(msg);
      } else {
        RoutingLogic.unroutable(ctx, msg, "the consistent-hashing mapping gave no key");
      }
    }

    @Override
    public Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
      return Behaviors.same();
    }
  }
}
