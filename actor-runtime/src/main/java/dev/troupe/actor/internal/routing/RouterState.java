package dev.troupe.actor.internal.routing;

import dev.troupe.actor.internal.ref.DeadLetterReason;
import dev.troupe.actor.internal.ref.DeadLettersRef;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.actor.Deploy;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Kill;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.internal.dispatch.Dispatchers;
import dev.troupe.actor.internal.dispatch.Mailbox;
import dev.troupe.actor.internal.dispatch.MailboxLookup;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.spi.AskService;
import dev.troupe.runtime.spi.RouteeNodes;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.ActorSelectionRoutee;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.Broadcast;
import dev.troupe.routing.Group;
import dev.troupe.routing.Pool;
import dev.troupe.routing.Resizer;
import dev.troupe.routing.RouteeLoad;
import dev.troupe.routing.RouterConfig;
import dev.troupe.routing.RouterManagementMessage;
import dev.troupe.routing.Routee;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Owns what a router's ref and its router actor share: logic, current routees, resizer counters.
 *
 * <p>Threads: {@link #route} runs in any sender's thread and only reads; the routee snapshot is an
 * immutable {@link Snapshot} in a volatile field, replaced only by the router actor (one writer),
 * so routing is lock-free and sees either the old or the new routees, never a mix.
 */
public final class RouterState {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RouterState.class);
  /** Immutable routees plus what the logic derived from them (a hash ring, mailboxes, slots). */
  record Snapshot(Routee[] routees, Object prepared) {}

  private static final Snapshot EMPTY = new Snapshot(new Routee[0], null);

  private final RouterConfig config;
  private final Props routeeProps;
  private final RoutingLogic logic;
  private final ActorSystem system;
  private final ActorRef self;
  private final MailboxLookup mailboxes;
  private final Resizer resizer; // null: fixed size (always null for groups)
  private final List<Address> targetNodes; // empty: routees are created here
  private int nextTarget; // router actor only (or the creating thread before it starts)
  private final RouteeNodes routeeNodes; // null unless cluster-aware
  private final ClusterRoutees clusterRoutees; // null unless cluster-aware; router actor only
  private final AtomicLong messageCounter; // only with a resizer
  private final AtomicBoolean resizeInProgress = new AtomicBoolean();
  private volatile ActorRef routerActor; // the router cell's self, for resize requests
  private volatile Snapshot current = EMPTY;

  private RouterState(
      RouterConfig config,
      Props routeeProps,
      ActorSystem system,
      AskService asks,
      ActorRef self,
      MailboxLookup mailboxes,
      RoutingLogic logic,
      List<Address> targetNodes,
      DeploymentSections.ClusterSection cluster,
      RouteeNodes routeeNodes) {
    this.config = config;
    this.routeeNodes = cluster == null ? null : routeeNodes;
    this.clusterRoutees =
        cluster == null ? null : new ClusterRoutees(cluster, config instanceof Group g ? g.paths() : null);
    this.targetNodes = targetNodes;
    this.routeeProps = routeeProps;
    this.system = system;
    this.self = self;
    this.mailboxes = mailboxes;
    this.logic = logic != null ? logic : RoutingLogic.of(config, system, asks, self, mailboxes);
    this.resizer = config instanceof Pool p && p.resizer() != null ? p.resizer().newPoolInstance() : null;
    this.messageCounter = resizer == null ? null : new AtomicLong();
  }

  /**
   * Resolves {@code props.routerConfig()} (reading the deployment section for {@code FromConfig})
   * and validates it.
   *
   * <p>A {@link BalancingPool}'s routees get a {@code BalancingDispatcher} team of their own on
   * the threads of their dispatcher (see {@link BalancingLogic}), released when the router stops.
   *
   * @param system the system
   * @param dispatchers the system's dispatchers
   * @param config the system's config
   * @param path the router's path
   * @param props the props with the router
   * @param self the router's ref
   * @param mailboxes finds a routee's mailbox, for the logics that read load hints
   * @param routeeNodes the provider's cluster membership for cluster-aware routers, or null when
   *     the system has no cluster
   * @return the state
   * @throws dev.troupe.actor.ConfigurationException on bad deployment config, or a cluster-aware
   *     router on a system without a cluster
   */
  public static RouterState create(
      ActorSystem system,
      Dispatchers dispatchers,
      Config config,
      ActorPath path,
      Props props,
      ActorRef self,
      MailboxLookup mailboxes,
      RouteeNodes routeeNodes) {
    DeploymentSections.Resolved resolved = DeploymentSections.resolve(props.routerConfig(), config, path, props.deploy());
    if (resolved.cluster() != null && routeeNodes == null) {
      String key = resolved.cluster().key();
      String fix = "put troupe-cluster (dev.troupe:troupe-cluster) on the class path and set troupe.actor.provider ="
          + " cluster (this system's provider is '" + config.getString("troupe.actor.provider") + "')";
      throw new ConfigurationException(resolved.cluster().fromCode()
          ? key + " needs a cluster: " + fix
          : key + ".cluster.enabled = on needs a cluster: " + fix + ", or set " + key + ".cluster.enabled = off");
    }
    Props routeeProps = props.withRouter(null);
    if (props.deploy().clusterRouting().isPresent()) {
      routeeProps = routeeProps.withDeploy(Deploy.local()); // the router's deployment, not its routees'
    }
    if (resolved.routeeDispatcher() != null) {
      system.dispatcher(resolved.routeeDispatcher()); // fails now, not when the first routee starts
      routeeProps = routeeProps.withDispatcher(resolved.routeeDispatcher());
    }
    RoutingLogic logic = null;
    if (resolved.config() instanceof BalancingPool) {
      String wanted = "BalancingPool-" + path.toStringWithoutAddress() + "#" + path.uid();
      String team = dispatchers.balancingTeam(routeeProps.dispatcher(), wanted);
      routeeProps = routeeProps.withDispatcher(team);
      logic =
          new BalancingLogic(
              mailboxes, team.equals(wanted) ? () -> dispatchers.releaseTeam(team) : () -> {});
    }
    return new RouterState(
        resolved.config(), routeeProps, system, (AskService) system, self, mailboxes, logic, resolved.targetNodes(),
        resolved.cluster(), routeeNodes);
  }

  /** The router failed to start and never will: release what its logic holds (a balancing team). */
  public void abandon() {
    logic.stopped();
  }

  /** @return whether the message goes to the router actor instead of being routed */
  public static boolean isForRouterActor(Object message) {
    return message instanceof RouterManagementMessage
        || message == PoisonPill.getInstance()
        || message == Kill.getInstance()
        || message instanceof ResizeRequest;
  }

  /** @return the resolved configuration */
  public RouterConfig config() {
    return config;
  }

  /** @return the props routees are created from (no router) */
  public Props routeeProps() {
    return routeeProps;
  }

  /**
   * The props of the next routee of a pool: {@link #routeeProps()}, deployed onto the next of the
   * section's {@code target.nodes} in turn when it names any. Router actor only (or the creating
   * thread before the router starts).
   *
   * @return the props
   */
  public Props nextRouteeProps() {
    if (targetNodes.isEmpty()) {
      return routeeProps;
    }
    Address node = targetNodes.get(nextTarget);
    nextTarget = (nextTarget + 1) % targetNodes.size();
    return routeeProps.withDeploy(Deploy.remote(node));
  }

  /** @return whether the routees follow the cluster's members ({@code cluster.enabled = on}) */
  public boolean clusterAware() {
    return clusterRoutees != null;
  }

  /**
   * Sets a cluster-aware router's first routees from the members this node knows now (a pool's
   * made with {@code spawn}); called by the creating thread before the router starts.
   *
   * @param spawn creates a pool routee as a child of the router actor
   */
  public void initialClusterRoutees(Function<Props, ActorRef> spawn) {
    ClusterRoutees c = clusterRoutees;
    c.retain(routeeNodes.current(c.useRoles(), c.section().allowLocal()));
    setRoutees(clusterAdditions(spawn, true));
  }

  /** @return the follower to start as the router actor's child (cluster-aware routers only) */
  Props clusterFollower() {
    return routeeNodes.follower(clusterRoutees.useRoles(), clusterRoutees.section().allowLocal());
  }

  ClusterRoutees clusterRoutees() {
    return clusterRoutees;
  }

  /**
   * New routees up to the caps, on the eligible nodes with the fewest: a pool's deployed there (here
   * for this node), a group's looked up there. Router actor only (or before it starts).
   *
   * @param spawn creates a pool routee as a child of the router actor
   * @param initial whether the router is being created: a routee that cannot be deployed then
   *     fails {@code actorOf}; later it is logged and the router goes on with what it has
   * @return the routees added, already recorded in {@link #clusterRoutees()}
   */
  List<Routee> clusterAdditions(Function<Props, ActorRef> spawn, boolean initial) {
    ClusterRoutees c = clusterRoutees;
    List<Routee> added = new ArrayList<>();
    Address selfNode = system.address();
    for (Address node = c.nextNode(); node != null; node = c.nextNode()) {
      boolean here = node.equals(selfNode);
      if (config instanceof Group) {
        String p = c.nextPath(node);
        Routee r = new ActorSelectionRoutee(system.actorSelection(here ? p : node + p));
        c.placed(node, r, p);
        added.add(r);
      } else {
        ActorRef ref;
        try {
          ref = spawn.apply(routeeProps.withDeploy(here ? Deploy.local() : Deploy.remote(node)));
        } catch (RuntimeException e) {
          if (initial) {
            throw e;
          }
          LOG.warn("router {} could not deploy a routee onto {}; it goes on with {} routees", self.path(), node,
              c.total(), e);
          break;
        }
        Routee r = new ActorRefRoutee(ref);
        c.placed(node, r, null);
        added.add(r);
      }
    }
    return added;
  }

  /** @return how many routees a pool starts with */
  public int initialPoolSize() {
    return ((Pool) config).nrOfInstances();
  }

  // ---------------------------------------------------------------- hot path (any thread)

  /**
   * Routes an ordinary message in the caller's thread; with no routees it goes to dead letters.
   *
   * @param message the message
   * @param sender the sender, or null
   */
  public void route(Object message, ActorRef sender) {
    Snapshot s = current;
    if (s.routees.length == 0) {
      DeadLettersRef.publish(system, message, sender, self, DeadLetterReason.NO_ROUTEE);
    } else {
      logic.send(message, sender, s.routees, s.prepared);
    }
    if (resizer != null) {
      checkResize();
    }
  }

  /**
   * Sends a broadcast's message to every routee, in the sender's thread like any routed message:
   * a broadcast and the sender's later messages reach each routee in the order they were sent.
   */
  public void broadcast(Broadcast b, ActorRef sender) {
    Snapshot s = current;
    if (s.routees.length == 0) {
      DeadLettersRef.publish(system, b, sender, self, DeadLetterReason.NO_ROUTEE);
      return;
    }
    for (Routee r : s.routees) {
      r.send(b.message(), sender);
    }
  }

  /** Claims the resize flag and asks the router actor; never blocks the sender. */
  private void checkResize() {
    long n = messageCounter.getAndIncrement();
    if (resizer.isTimeForResize(n) && resizeInProgress.compareAndSet(false, true)) {
      ActorRef r = routerActor;
      if (r == null) {
        resizeInProgress.set(false);
      } else {
        r.tell(new ResizeRequest(n), ActorRef.noSender());
      }
    }
  }

  // ---------------------------------------------------------------- router actor side

  /** Sets the pool's first routees; called by the creating thread before the router starts. */
  public void initialRoutees(List<ActorRef> refs) {
    List<Routee> rs = new ArrayList<>(refs.size());
    for (ActorRef r : refs) {
      rs.add(new ActorRefRoutee(r));
    }
    setRoutees(rs);
  }

  /** Sets a group's routees from its paths; called by the creating thread before the router starts. */
  public void initialGroupRoutees() {
    List<Routee> rs = new ArrayList<>();
    for (String p : ((Group) config).paths()) {
      rs.add(new ActorSelectionRoutee(system.actorSelection(p)));
    }
    setRoutees(rs);
  }

  void bindRouterActor(ActorRef ref) {
    routerActor = ref;
  }

  List<Routee> routees() {
    return List.of(current.routees);
  }

  /** Router actor only (or before it starts): publishes a new snapshot. */
  void setRoutees(List<Routee> routees) {
    Routee[] arr = routees.toArray(new Routee[0]);
    Snapshot next = new Snapshot(arr, logic.prepare(arr, current.prepared));
    current = next;
  }

  Resizer resizer() {
    return resizer;
  }

  void resizeDone() {
    resizeInProgress.set(false);
  }

  RoutingLogic logic() {
    return logic;
  }

  ActorSystem system() {
    return system;
  }

  ActorRef self() {
    return self;
  }

  /** Router actor only: O(1) per routee. */
  List<RouteeLoad> loads() {
    Routee[] rs = current.routees;
    List<RouteeLoad> out = new ArrayList<>(rs.length);
    for (Routee r : rs) {
      Mailbox m = r instanceof ActorRefRoutee a ? mailboxes.mailboxOf(a.ref()) : null;
      out.add(m == null ? RouteeLoad.IDLE : new RouteeLoad(m.isScheduled(), m.hasMessages(), m.sizeHint()));
    }
    return out;
  }

  /** Asks the router actor to resize, sent by a sender thread that won the flag. */
  record ResizeRequest(long messageCounter) {}
}
