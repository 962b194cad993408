package dev.troupe.cluster;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.internal.core.ClusterProvider;
import dev.troupe.runtime.spi.RuntimeSystem;
import java.util.List;
import java.util.Objects;

/**
 * The cluster as this node takes part in it; one per system ({@link #get(ActorSystem)}), present
 * when {@code troupe.actor.provider = cluster}.
 *
 * <pre>{@code
 * Cluster cluster = Cluster.get(system);
 * cluster.subscribe(getSelf(), ClusterEvent.initialStateAsEvents(), MemberEvent.class, UnreachableMember.class);
 * cluster.joinSeedNodes(List.of(seed));   // or troupe.cluster.seed-nodes
 * cluster.registerOnMemberUp(() -> startWork());
 * }</pre>
 *
 * <p>Commands ({@code join}, {@code leave}, {@code down}, {@code subscribe}) are asynchronous: they
 * are handed to the cluster's core actor and return at once. {@link #state()} and {@link
 * #selfMember()} read the latest state the core published. Thread-safe.
 */
public abstract class Cluster {

  /** For the cluster module's implementation. */
  protected Cluster() {}

  /**
   * The cluster of a system.
   *
   * @param system a system created with {@code troupe.actor.provider = cluster}
   * @return its cluster, the same instance on every call
   * @throws ConfigurationException when the system's provider is not the cluster's
   */
  public static Cluster get(ActorSystem system) {
    Objects.requireNonNull(system, "system");
    if (system instanceof RuntimeSystem r && r.provider() instanceof ClusterProvider p) {
      return p.cluster();
    }
    throw new ConfigurationException("Cluster.get(" + system.name() + "): the system's troupe.actor.provider is not"
        + " cluster; set troupe.actor.provider = cluster (with dev.troupe:troupe-cluster on the class path)");
  }

  /** @return this node's address, {@code troupe://system@host:port} */
  public abstract Address selfAddress();

  /** @return this node's incarnation */
  public abstract UniqueAddress selfUniqueAddress();

  /**
   * @return this node as a member: {@link MemberStatus#JOINING} before it is in the cluster, {@link
   *     MemberStatus#REMOVED} once it is out
   */
  public abstract Member selfMember();

  /** @return the cluster as this node sees it now */
  public abstract CurrentClusterState state();

  /**
   * Subscribes {@code subscriber} to the cluster events of the given classes (and their subtypes);
   * it first hears the current state, as events or as one {@link CurrentClusterState}, then every
   * change in the order this node saw it. A subscriber that terminates is dropped.
   *
   * @param subscriber the actor that receives the events
   * @param initialStateMode {@link ClusterEvent#initialStateAsEvents()} or {@link
   *     ClusterEvent#initialStateAsSnapshot()}
   * @param to event classes, e.g. {@code ClusterEvent.MemberEvent.class}; at least one
   */
  public abstract void subscribe(
      ActorRef subscriber, ClusterEvent.SubscriptionInitialStateMode initialStateMode, Class<?>... to);

  /** @param subscriber a subscriber: it hears no more events */
  public abstract void unsubscribe(ActorRef subscriber);

  /**
   * Joins the cluster through the node at {@code address} (this node's own address founds a new
   * cluster). Ignored once this node has joined.
   *
   * @param address a remote address of this system's name
   */
  public abstract void join(Address address);

  /**
   * Joins through the first of {@code seedNodes} that answers; when this node is the first seed
   * and no other seed answers within {@code troupe.cluster.seed-node-timeout}, it founds the
   * cluster. Ignored once this node has joined.
   *
   * @param seedNodes remote addresses of this system's name
   */
  public abstract void joinSeedNodes(List<Address> seedNodes);

  /**
   * Makes the member at {@code address} leave gracefully: {@code MemberLeft}, {@code
   * MemberExited}, {@code MemberRemoved}; that node then shuts down.
   *
   * @param address a member's address (this node's, or another's)
   */
  public abstract void leave(Address address);

  /**
   * Downs the member at {@code address}: it is removed on every node, never comes back under that
   * incarnation, and shuts down.
   *
   * @param address a member's address
   */
  public abstract void down(Address address);

  /**
   * Runs {@code callback} once, when this node becomes {@link MemberStatus#UP} (at once, on a
   * thread of the system, if it already is).
   *
   * @param callback what to run
   */
  public abstract void registerOnMemberUp(Runnable callback);

  /**
   * Runs {@code callback} once, when this node is removed from the cluster (or at once if it was;
   * also when the system terminates before it ever joined).
   *
   * @param callback what to run
   */
  public abstract void registerOnMemberRemoved(Runnable callback);
}
