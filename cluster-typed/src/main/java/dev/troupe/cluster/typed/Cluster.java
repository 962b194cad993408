package dev.troupe.cluster.typed;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.sharding.typed.internal.PerSystem;

/**
 * The cluster as this member takes part in it, for typed actors: one per system, present when
 * {@code troupe.actor.provider = cluster}. The classic {@link dev.troupe.cluster.Cluster} of the same
 * system does the work; this gives it typed refs.
 *
 * <pre>{@code
 * Cluster cluster = Cluster.get(ctx.getSystem());
 * ActorRef<ClusterEvent.MemberEvent> members = ctx.messageAdapter(ClusterEvent.MemberEvent.class, MemberChange::new);
 * cluster.subscriptions().tell(Subscribe.create(members, ClusterEvent.MemberEvent.class));
 * cluster.manager().tell(Join.create(cluster.selfMember().address()));   // or troupe.cluster.seed-nodes
 * }</pre>
 *
 * <p>{@link #manager()} and {@link #subscriptions()} are one actor of the classic system, {@code
 * /user/typed-cluster}, started on their first use. Commands are carried out in the order they
 * arrive; a membership command the classic cluster refuses (an address of another system's name,
 * say) is logged as a warning there and changes nothing. A subscription is a child of that actor
 * subscribed to the classic cluster, so that one actor's message adapters may subscribe to several
 * classes, each its own subscription; the actor behind a subscriber (for a message adapter: its
 * actor) is watched, and its stop ends its subscriptions.
 */
public final class Cluster {
  /** The name of the actor behind {@link #manager()} and {@link #subscriptions()}. */
  public static final String ACTOR_NAME = "typed-cluster";

  private static final PerSystem<Cluster> BY_SYSTEM = new PerSystem<>(Cluster::new);

  private final dev.troupe.actor.ActorSystem system;
  private final dev.troupe.cluster.Cluster classic;
  private volatile ActorRef<Object> actor;

  private Cluster(dev.troupe.actor.ActorSystem system) {
    this.system = system;
    this.classic = dev.troupe.cluster.Cluster.get(system);
  }

  /**
   * The cluster of a typed system.
   *
   * @param system a system created with {@code troupe.actor.provider = cluster}
   * @return its cluster, the same instance on every call while the system lives
   * @throws ConfigurationException when the system's provider is not the cluster's
   */
  public static Cluster get(ActorSystem<?> system) {
    return get(Adapter.toClassic(system));
  }

  /**
   * The typed view of a classic system's cluster.
   *
   * @param system a classic system created with {@code troupe.actor.provider = cluster}
   * @return its cluster
   * @throws ConfigurationException when the system's provider is not the cluster's
   */
  public static Cluster get(dev.troupe.actor.ActorSystem system) {
    return BY_SYSTEM.get(system);
  }

  /**
   * @return this member: {@code JOINING} before it is in the cluster, {@code REMOVED} once it is
   *     out
   */
  public Member selfMember() {
    return classic.selfMember();
  }

  /** @return the cluster as this member sees it now */
  public CurrentClusterState state() {
    return classic.state();
  }

  /** @return where to tell {@link Join}, {@link JoinSeedNodes}, {@link Leave} and {@link Down} */
  public ActorRef<ClusterCommand> manager() {
    return actor().narrow();
  }

  /** @return where to tell {@link Subscribe}, {@link Unsubscribe} and {@link GetCurrentState} */
  public ActorRef<ClusterStateSubscription> subscriptions() {
    return actor().narrow();
  }

  private ActorRef<Object> actor() {
    ActorRef<Object> a = actor;
    if (a == null) {
      synchronized (this) {
        a = actor;
        if (a == null) {
          a = Adapter.spawn(system, ClusterActor.create(classic), ACTOR_NAME);
          actor = a;
        }
      }
    }
    return a;
  }

  @Override
  public String toString() {
    return "Cluster(" + classic.selfAddress() + ")";
  }
}
