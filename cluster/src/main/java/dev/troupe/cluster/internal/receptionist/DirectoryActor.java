package dev.troupe.cluster.internal.receptionist;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.spi.ServiceDirectory;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.UniqueAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's directory of service instances: its own (told by its receptionist) and every other
 * member's (told by their directories), so that the typed receptionist lists instances cluster-wide.
 *
 * <p>Between directories, whole sets: when a member comes up, each side sends the other all of its
 * instances ({@link Protocol.State}, the one that heard first asking for an answer), and after every
 * change to its own instances of a service a node sends every member all of them ({@link
 * Protocol.Update}). A member's instances are dropped when it is removed. A message from a node this
 * one has not seen come up is dropped; the exchange when it does come up brings its state. Messages
 * between two nodes keep their order, so an update never overtakes the state it follows.
 *
 * <p>What a peer may make this node keep is bounded: at most {@link Protocol#MAX_SERVICES} services
 * and {@link Protocol#MAX_INSTANCES} instances in all per member (a state past them is refused when
 * it is read); an update that would pass them is dropped with a warning. This node's own services
 * are held to the same bounds, so that its state fits the frame its peers accept.
 */
public final class DirectoryActor extends AbstractActor {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryActor.class);

  private final Membership membership;
  private final UniqueAddress self;
  private final Optional<String> role;
  /** The receptionist of this node, once attached. */
  private ActorRef receptionist;
  /** This node's instances by service; no empty set. */
  private final Map<String, Set<ActorRef>> local = new HashMap<>();
  /** The other members' instances: by member, then by service; no empty set. */
  private final Map<UniqueAddress, Map<String, Set<ActorRef>>> others = new HashMap<>();
  /** The other members seen up and not removed since. */
  private final Set<UniqueAddress> up = new HashSet<>();

  /** What a directory needs of the cluster (the cluster's own, or a test's). */
  public interface Membership {
    /** @return this node */
    UniqueAddress self();

    /**
     * Sends {@code directory} a {@code MemberUp} for every member up now, then every {@code
     * MemberUp} and {@code MemberRemoved} after, in this node's order.
     *
     * @param directory the directory
     */
    void subscribe(ActorRef directory);

    /** @param directory a subscribed directory: it hears no more events */
    void unsubscribe(ActorRef directory);

    /**
     * @param node a member's address
     * @return that member's directory
     */
    ActorRef directoryOf(Address node);

    /**
     * The cluster's own membership.
     *
     * @param cluster this node's cluster
     * @param locate the directory at an address
     * @return the membership
     */
    static Membership of(Cluster cluster, Function<Address, ActorRef> locate) {
      return new Membership() {
        @Override
        public UniqueAddress self() {
          return cluster.selfUniqueAddress();
        }

        @Override
        public void subscribe(ActorRef directory) {
          cluster.subscribe(directory, ClusterEvent.initialStateAsEvents(), ClusterEvent.MemberUp.class,
              ClusterEvent.MemberRemoved.class);
        }

        @Override
        public void unsubscribe(ActorRef directory) {
          cluster.unsubscribe(directory);
        }

        @Override
        public ActorRef directoryOf(Address node) {
          return locate.apply(node);
        }
      };
    }
  }

  /** @param membership the cluster's members and their directories */
  public DirectoryActor(Membership membership) {
    this(membership, Optional.empty());
  }

  /**
   * @param membership the cluster's members and their directories
   * @param role the role of the members whose directories take part (the others run none); empty =
   *     every member
   */
  public DirectoryActor(Membership membership, Optional<String> role) {
    this.membership = membership;
    this.self = membership.self();
    this.role = role;
  }

  @Override
  public void preStart() {
    membership.subscribe(getSelf());
  }

  @Override
  public void postStop() {
    membership.unsubscribe(getSelf());
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(Protocol.Update.class, this::update)
        .match(ServiceDirectory.LocalInstances.class, this::localChanged)
        .match(Protocol.State.class, this::state)
        .match(ClusterEvent.MemberUp.class, m -> {
          if (role.isEmpty() || m.member().hasRole(role.get())) {
            memberUp(m.member().uniqueAddress());
          }
        })
        .match(ClusterEvent.MemberRemoved.class, m -> memberRemoved(m.member().uniqueAddress()))
        .match(ServiceDirectory.Attach.class, this::attach)
        .build();
  }

  /**
   * A receptionist attaches: the first of this node, or a new one after the last failed and was
   * restarted, which starts with no registrations; what the last one told is withdrawn.
   */
  private void attach(ServiceDirectory.Attach a) {
    receptionist = a.receptionist();
    for (String service : Set.copyOf(local.keySet())) {
      localChanged(new ServiceDirectory.LocalInstances(service, Set.of()));
    }
    Set<String> services = new HashSet<>();
    others.values().forEach(m -> services.addAll(m.keySet()));
    services.forEach(this::tellReceptionist);
  }

  private void localChanged(ServiceDirectory.LocalInstances l) {
    if (l.service().length() > Protocol.MAX_NAME || !withinBounds(local, l.service(), l.instances())) {
      LOG.warn("{}: service {} is listed on this node only: the cluster's directory takes names of at most {}"
              + " chars, {} services and {} instances in all per node", self, l.service(),
          Protocol.MAX_NAME, Protocol.MAX_SERVICES, Protocol.MAX_INSTANCES);
      return;
    }
    if (l.instances().isEmpty()) {
      if (local.remove(l.service()) == null) {
        return;
      }
    } else if (l.instances().equals(local.put(l.service(), l.instances()))) {
      return;
    }
    Protocol.Update u = new Protocol.Update(self, l.service(), l.instances());
    for (UniqueAddress member : up) {
      membership.directoryOf(member.address()).tell(u, getSelf());
    }
  }

  private void memberUp(UniqueAddress member) {
    if (!member.equals(self) && up.add(member)) {
      membership.directoryOf(member.address()).tell(new Protocol.State(self, true, local), getSelf());
    }
  }

  private void memberRemoved(UniqueAddress member) {
    up.remove(member);
    Map<String, Set<ActorRef>> dropped = others.remove(member);
    if (dropped != null) {
      dropped.keySet().forEach(this::tellReceptionist);
    }
  }

  private void state(Protocol.State s) {
    if (!up.contains(s.from())) {
      LOG.debug("{}: dropped the services of {}, not seen up here yet", self, s.from());
      return;
    }
    Map<String, Set<ActorRef>> before = others.getOrDefault(s.from(), Map.of());
    Map<String, Set<ActorRef>> after = new HashMap<>(s.services());
    after.values().removeIf(Set::isEmpty);
    if (after.isEmpty()) {
      others.remove(s.from());
    } else {
      others.put(s.from(), after);
    }
    Set<String> changed = new HashSet<>(before.keySet());
    changed.addAll(after.keySet());
    changed.removeIf(name -> before.getOrDefault(name, Set.of()).equals(after.getOrDefault(name, Set.of())));
    changed.forEach(this::tellReceptionist);
    if (s.answerMe()) {
      membership.directoryOf(s.from().address()).tell(new Protocol.State(self, false, local), getSelf());
    }
  }

  private void update(Protocol.Update u) {
    if (!up.contains(u.from())) {
      LOG.debug("{}: dropped an update of {}, not seen up here yet", self, u.from());
      return;
    }
    Map<String, Set<ActorRef>> services = others.get(u.from());
    Set<ActorRef> before;
    if (u.instances().isEmpty()) {
      before = services == null ? null : services.remove(u.service());
      if (services != null && services.isEmpty()) {
        others.remove(u.from());
      }
    } else {
      if (services == null) {
        services = new HashMap<>();
        others.put(u.from(), services);
      } else if (!withinBounds(services, u.service(), u.instances())) {
        LOG.warn("{}: {} would list more than {} services or {} instances in all; dropped its update of {}",
            self, u.from(), Protocol.MAX_SERVICES, Protocol.MAX_INSTANCES, u.service());
        return;
      }
      before = services.put(u.service(), u.instances());
    }
    if (!u.instances().equals(before == null ? Set.of() : before)) {
      tellReceptionist(u.service());
    }
  }

  /**
   * @return whether one node's {@code services} with {@code service}'s instances set to {@code
   *     instances} stay within {@link Protocol#MAX_SERVICES} and {@link Protocol#MAX_INSTANCES}
   */
  private static boolean withinBounds(Map<String, Set<ActorRef>> services, String service, Set<ActorRef> instances) {
    if (instances.isEmpty()) {
      return true; // a withdrawal
    }
    Set<ActorRef> before = services.get(service);
    if (before == null && services.size() >= Protocol.MAX_SERVICES) {
      return false;
    }
    int total = instances.size() - (before == null ? 0 : before.size());
    for (Set<ActorRef> s : services.values()) {
      total += s.size();
    }
    return total <= Protocol.MAX_INSTANCES;
  }

  /** Tells the receptionist, if attached, all the other members' instances of one service. */
  private void tellReceptionist(String service) {
    if (receptionist == null) {
      return;
    }
    Set<ActorRef> all = new LinkedHashSet<>();
    for (Map<String, Set<ActorRef>> services : others.values()) {
      all.addAll(services.getOrDefault(service, Set.of()));
    }
    receptionist.tell(new ServiceDirectory.RemoteInstances(service, all), getSelf());
  }
}
