package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.receptionist.DirectoryActor;
import dev.troupe.cluster.internal.sharding.RegionActor;
import dev.troupe.cluster.internal.sharding.ShardingHooks;
import dev.troupe.cluster.internal.singleton.ManagerActor;
import dev.troupe.cluster.internal.singleton.SingletonHooks;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import dev.troupe.pattern.Patterns;
import dev.troupe.runtime.spi.RuntimeSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Cluster} of one system: a front for its core actor ({@link ClusterCore}, at {@value
 * #CORE_PATH} on every node), which owns the membership state. Commands become messages to the
 * core; {@link #state()} reads the snapshot the core publishes after each change. The engine's
 * calls ({@code join}, {@code leave}, {@code close}) run one at a time on a thread of their own, so
 * that neither the core nor the engine's threads ever wait on each other.
 */
final class ClusterImpl extends Cluster {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterImpl.class);

  /** Where every node's core actor lives. */
  static final String CORE_PATH = "/cluster/core";

  final RuntimeSystem runtime;
  final ActorSystem system;
  final ClusterProvider provider;
  final ClusterSettings settings;
  final MembershipProvider engine;
  final UniqueAddress self;
  final ExecutorService engineThread;
  private volatile ActorRef coreRef;
  private volatile ClusterTopologySource sharding;
  private volatile ClusterSingletonMembership singletons;
  private volatile ActorRef receptionistDirectory;
  private ActorRef pubSubDirectory; // guarded by this; started on first use
  private volatile CurrentClusterState state = new CurrentClusterState(List.of(), Set.of(), Optional.empty());
  private volatile Member selfMember;

  ClusterImpl(RuntimeSystem runtime, ClusterProvider provider, ClusterSettings settings, MembershipProvider engine) {
    this.runtime = runtime;
    this.system = runtime.actorSystem();
    this.provider = provider;
    this.settings = settings;
    this.engine = engine;
    this.self = new UniqueAddress(provider.address(), provider.remote().uid());
    this.selfMember = new Member(self, MemberStatus.JOINING, settings.roles(), Long.MAX_VALUE);
    String threadName = system.name() + "-cluster-engine";
    this.engineThread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
  }

  void start() {
    ActorPath path = coreAt(self.address()).withUid(nonZeroUid());
    coreRef = provider.local().actorOfSupervisedBy(
        Props.create(ClusterCore.class, () -> new ClusterCore(this)), path,
        new CoreSupervisor(runtime, ActorPath.root(self.address()).child("cluster")));
    receptionistDirectory = provider.local().actorOfSupervisedBy(
        Props.create(DirectoryActor.class, () -> new DirectoryActor(
            DirectoryActor.Membership.of(this, a -> provider.resolveActorRef(directoryAt(a))))),
        directoryAt(self.address()).withUid(nonZeroUid()),
        new CoreSupervisor(runtime, ActorPath.root(self.address()).child("cluster")));
    sharding = new ClusterTopologySource(this);
    singletons = new ClusterSingletonMembership(this);
    ShardingHooks.install(system, sharding);
    SingletonHooks.install(system, singletons);
  }

  /**
   * What a leaving node waits for before its engine leaves: every shard region of this node has
   * stopped its shards and told its peers, and every singleton manager has stopped its instance;
   * bounded by {@code troupe.cluster.sharding.hand-over-timeout} (a warning names what did not
   * answer). Called by the core once the leave is applied on this node.
   *
   * @return completes (never exceptionally) when the hand-over is over or the bound passed
   */
  CompletableFuture<Void> handOverBeforeLeaving() {
    List<ActorRef> regions = sharding == null ? List.of() : sharding.hostingRegions();
    List<ActorRef> managers = singletons == null ? List.of() : singletons.managers();
    if (regions.isEmpty() && managers.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    Duration bound = sharding.handOverBound();
    List<CompletableFuture<Void>> waits = new ArrayList<>();
    for (ActorRef r : regions) {
      waits.add(answered(r, RegionActor.WhenHandedOver.INSTANCE, bound));
    }
    for (ActorRef m : managers) {
      waits.add(answered(m, ManagerActor.WhenHandedOver.INSTANCE, bound));
    }
    return CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new));
  }

  private CompletableFuture<Void> answered(ActorRef who, Object query, Duration bound) {
    return Patterns.ask(who, query, bound).toCompletableFuture().handle((answer, failure) -> {
      if (failure != null) {
        LOG.warn("{}: {} did not hand over within {} (troupe.cluster.sharding.hand-over-timeout); leaving anyway",
            self, who.path(), bound);
      }
      return null;
    });
  }

  private static long nonZeroUid() {
    long uid;
    do {
      uid = ThreadLocalRandom.current().nextInt();
    } while (uid == 0);
    return uid;
  }

  /** @return the path of the core actor of the node at {@code address} */
  static ActorPath coreAt(Address address) {
    return ActorPath.root(address).child("cluster").child("core");
  }

  /** @return the path of the receptionist's directory of the node at {@code address} */
  static ActorPath directoryAt(Address address) {
    return ActorPath.root(address).child("cluster").child("receptionist");
  }

  /** @return this node's directory of service instances, for the typed receptionist */
  ActorRef receptionistDirectory() {
    return receptionistDirectory;
  }

  /** @return the path of the publish-subscribe mediators' directory of the node at {@code address} */
  static ActorPath pubSubDirectoryAt(Address address) {
    return ActorPath.root(address).child("cluster").child("pubsub");
  }

  /**
   * This node's directory of the publish-subscribe mediators' topics and paths: a second directory
   * of the receptionist's kind, started when the node's mediator first asks for it. A member whose
   * directory is not started yet drops what the others send it; when it starts, it asks each of them
   * for all of theirs.
   *
   * @param role the role of the members that take part (the first call's is kept); empty = all
   * @return the directory
   */
  synchronized ActorRef pubSubDirectory(Optional<String> role) {
    if (pubSubDirectory == null) {
      pubSubDirectory = provider.local().actorOfSupervisedBy(
          Props.create(DirectoryActor.class, () -> new DirectoryActor(
              DirectoryActor.Membership.of(this, a -> provider.resolveActorRef(pubSubDirectoryAt(a))), role)),
          pubSubDirectoryAt(self.address()).withUid(nonZeroUid()),
          new CoreSupervisor(runtime, ActorPath.root(self.address()).child("cluster")));
    }
    return pubSubDirectory;
  }

  /** @return the core actor of the node at {@code address}, as a remote ref */
  ActorRef coreOf(Address address) {
    return provider.resolveActorRef(coreAt(address));
  }

  /** Called by the provider after the system's actors have stopped: the engine stops, if it still runs. */
  void shutdown() {
    engineThread.execute(() -> {
      try {
        engine.close();
      } catch (RuntimeException e) {
        LOG.warn("the membership engine failed to close", e);
      }
    });
    engineThread.shutdown();
    try {
      if (!engineThread.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.warn("the membership engine did not close within 5 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Where the engine reports: each report becomes a message to the core (never waits). */
  MembershipListener listener() {
    return new MembershipListener() {
      @Override
      public void viewChanged(MembershipView view) {
        tellCore(new ClusterCore.EngineView(view));
      }

      @Override
      public void suspected(UniqueAddress member) {
        tellCore(new ClusterCore.EngineSuspected(member, true));
      }

      @Override
      public void unsuspected(UniqueAddress member) {
        tellCore(new ClusterCore.EngineSuspected(member, false));
      }

      @Override
      public void confirmedDead(UniqueAddress member) {
        tellCore(new ClusterCore.EngineDead(member));
      }
    };
  }

  /** Called by the core after each change. */
  void publish(CurrentClusterState newState, Member newSelf) {
    state = newState;
    selfMember = newSelf;
  }

  private void tellCore(Object message) {
    coreRef.tell(message, ActorRef.noSender());
  }

  // ---- Cluster ----

  @Override
  public Address selfAddress() {
    return self.address();
  }

  @Override
  public UniqueAddress selfUniqueAddress() {
    return self;
  }

  @Override
  public Member selfMember() {
    return selfMember;
  }

  @Override
  public CurrentClusterState state() {
    return state;
  }

  @Override
  public void subscribe(ActorRef subscriber, ClusterEvent.SubscriptionInitialStateMode initialStateMode, Class<?>... to) {
    Objects.requireNonNull(subscriber, "subscriber");
    Objects.requireNonNull(initialStateMode, "initialStateMode");
    if (to.length == 0) {
      throw new IllegalArgumentException("subscribe to at least one event class, e.g. ClusterEvent.MemberEvent.class");
    }
    for (Class<?> c : to) {
      if (!ClusterEvent.class.isAssignableFrom(c)) {
        throw new IllegalArgumentException(c.getName() + " is not a cluster event class");
      }
    }
    tellCore(new ClusterCore.Subscribe(subscriber, initialStateMode, List.copyOf(Arrays.asList(to))));
  }

  @Override
  public void unsubscribe(ActorRef subscriber) {
    tellCore(new ClusterCore.Unsubscribe(Objects.requireNonNull(subscriber, "subscriber")));
  }

  @Override
  public void join(Address address) {
    joinSeedNodes(List.of(address));
  }

  @Override
  public void joinSeedNodes(List<Address> seedNodes) {
    List<Address> seeds = List.copyOf(seedNodes);
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("joinSeedNodes needs at least one seed");
    }
    for (Address a : seeds) {
      if (a.hasLocalScope() || !a.system().equals(system.name())) {
        throw new IllegalArgumentException("a seed is a remote address of system '" + system.name() + "', was " + a);
      }
    }
    tellCore(new ClusterCore.JoinSeeds(seeds));
  }

  @Override
  public void leave(Address address) {
    tellCore(new ClusterCore.LeaveCommand(Objects.requireNonNull(address, "address")));
  }

  @Override
  public void down(Address address) {
    tellCore(new ClusterCore.DownCommand(Objects.requireNonNull(address, "address")));
  }

  @Override
  public void registerOnMemberUp(Runnable callback) {
    tellCore(new ClusterCore.OnMemberUp(Objects.requireNonNull(callback, "callback")));
  }

  @Override
  public void registerOnMemberRemoved(Runnable callback) {
    tellCore(new ClusterCore.OnMemberRemoved(Objects.requireNonNull(callback, "callback")));
  }

  @Override
  public String toString() {
    return "Cluster(" + self + ")";
  }
}
