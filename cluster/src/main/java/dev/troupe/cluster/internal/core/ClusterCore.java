package dev.troupe.cluster.internal.core;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.Done;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.membership.MembershipState;
import dev.troupe.cluster.spi.MembershipView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's core actor, one per node at {@value ClusterImpl#CORE_PATH}: the one owner of this
 * node's {@link MembershipState}. It turns the engine's reports, the user's commands, other nodes'
 * cores' messages and a clock into inputs of the state machine, one at a time, and acts on what
 * comes out:
 *
 * <ul>
 *   <li>events go to the subscribers, in order, and the snapshot that {@code Cluster.state()}
 *       reads is replaced;
 *   <li>a member removed is address-terminated in remoting (its incarnation quarantined, remote
 *       watchers of its actors told {@code Terminated(addressTerminated = true)});
 *   <li>downs (by hand, and this node's downing decisions) go to every member's core; a down is
 *       accepted only from a current member;
 *   <li>when the state machine says this node is out, every other member is address-terminated
 *       here (the members quarantine this node, so nothing of theirs comes any more; likewise at
 *       shutdown once this node's exit is over or timed out), and coordinated shutdown runs.
 * </ul>
 *
 * <p>Joining: the core asks each seed's core for its engine endpoint ({@link
 * CoreMessage.GetEndpoint}) and joins the engine through the first one that has one; the first
 * seed listed, when it is this node, founds the cluster once a round of {@code seed-node-timeout}
 * brought no endpoint. Leaving: {@link CoreMessage.Leaving} to every member, their
 * acknowledgements awaited for at most {@code leave-ack-timeout}, then the engine leaves. The
 * engine's calls run on {@link ClusterImpl#engineThread}; their outcomes come back as messages.
 */
final class ClusterCore extends AbstractActorWithTimers {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterCore.class);

  // ---- local messages ----
  record EngineView(MembershipView view) {}

  record EngineSuspected(UniqueAddress member, boolean suspected) {}

  /** The engine is sure the member's process is gone ({@code MembershipListener.confirmedDead}). */
  record EngineDead(UniqueAddress member) {}

  record Subscribe(ActorRef subscriber, ClusterEvent.SubscriptionInitialStateMode mode, List<Class<?>> to) {}

  record Unsubscribe(ActorRef subscriber) {}

  record JoinSeeds(List<Address> seeds) {}

  record LeaveCommand(Address address) {}

  record DownCommand(Address address) {}

  record OnMemberUp(Runnable callback) {}

  record OnMemberRemoved(Runnable callback) {}

  /** Coordinated shutdown's cluster-leave phase: leave, and complete {@code done} once the engine left. */
  record ShutdownLeave(CompletableFuture<Done> done) {}

  /**
   * Coordinated shutdown's cluster-sharding-shutdown-region phase: announce the leave, and complete
   * {@code done} once this node's shard regions and singleton managers have handed over (or the
   * bound passed); the engine leaves only after that.
   */
  record ShutdownHandOver(CompletableFuture<Done> done) {}

  /**
   * Coordinated shutdown's before-actor-system-terminate phase: this node is done with the cluster
   * (its exit is over or timed out), so the other members count as gone here; see {@link
   * #othersGone}.
   */
  record ShutdownOthersGone(CompletableFuture<Done> done) {}

  private record EngineJoined(String endpoint) {}

  private record EngineJoinFailed(Throwable cause, boolean founding) {}

  private record EngineLeft() {}

  /** This node's regions and singleton managers have handed over (or the bound passed). */
  private record HandOverFinished() {}

  private enum Timer { TICK, SEED_ROUND, LEAVE_ACKS, SHUTDOWN_TASKS }

  private enum Phase { IDLE, SEEDING, ENGINE_JOINING, JOINED, LEAVING, OUT }

  private final ClusterImpl cluster;
  private final UniqueAddress self;
  private final MembershipState state;
  /** Why this node's downing decisions down members, for the log. */
  private final String downingReason;
  private final Map<ActorRef, List<Class<?>>> subscribers = new LinkedHashMap<>();
  private final DownNotices downNotices = new DownNotices();
  private final List<Runnable> onUp = new ArrayList<>();
  private final List<Runnable> onRemoved = new ArrayList<>();
  private final Set<Address> awaitingAcks = new HashSet<>();
  private final CompletableFuture<Done> engineLeft = new CompletableFuture<>();
  private final CompletableFuture<Done> removed = new CompletableFuture<>();
  /** Completed once this node's hand-over before leaving is over (or there is none to wait for). */
  private final CompletableFuture<Done> handedOver = new CompletableFuture<>();
  private boolean handOverRunning;
  private Phase phase = Phase.IDLE;
  private List<Address> seeds = List.of();
  private long seedingSince;
  private String endpoint = "";
  private boolean engineLeaving;
  private boolean outHandled;
  private boolean othersGone;
  private boolean upRan;

  ClusterCore(ClusterImpl cluster) {
    this.cluster = cluster;
    this.self = cluster.self;
    this.state = MembershipState.create(self, cluster.settings);
    this.downingReason = "downing (" + cluster.settings.downing().strategy().configName() + ")";
  }

  @Override
  public void preStart() {
    Duration stable = cluster.settings.downing().stableAfter();
    Duration tick = stable.dividedBy(4).compareTo(Duration.ofSeconds(1)) < 0 ? stable.dividedBy(4) : Duration.ofSeconds(1);
    getTimers().startTimerWithFixedDelay(Timer.TICK, Timer.TICK, tick);
    getTimers().startSingleTimer(Timer.SHUTDOWN_TASKS, Timer.SHUTDOWN_TASKS, Duration.ZERO);
    if (!cluster.settings.seedNodes().isEmpty()) {
      joinSeeds(cluster.settings.seedNodes());
    }
  }

  @Override
  public void postStop() {
    if (!outHandled) {
      runAll(onRemoved, "registerOnMemberRemoved");
    }
    engineLeft.complete(Done.getInstance());
    removed.complete(Done.getInstance());
    handedOver.complete(Done.getInstance());
    for (ActorRef s : subscribers.keySet()) {
      getContext().unwatch(s);
    }
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .matchEquals(Timer.TICK, t -> apply(state.onTick(now()), downingReason))
        .matchEquals(Timer.SEED_ROUND, t -> seedRound())
        .matchEquals(Timer.LEAVE_ACKS, t -> leaveAcksTimedOut())
        .matchEquals(Timer.SHUTDOWN_TASKS, t -> registerShutdownTasks())
        .match(EngineView.class, v -> onView(v.view()))
        .match(EngineSuspected.class, s -> apply(s.suspected()
            ? state.onSuspected(s.member(), now()) : state.onUnsuspected(s.member(), now()), null))
        .match(EngineDead.class, d -> apply(state.onConfirmedDead(d.member(), now()), "its process is gone"))
        .match(EngineJoined.class, this::engineJoined)
        .match(EngineJoinFailed.class, this::engineJoinFailed)
        .match(EngineLeft.class, l -> apply(state.onLeftGroup(now()), null))
        .match(Subscribe.class, this::subscribe)
        .match(Unsubscribe.class, u -> {
          subscribers.remove(u.subscriber());
          getContext().unwatch(u.subscriber());
        })
        .match(Terminated.class, t -> subscribers.remove(t.getActor()))
        .match(JoinSeeds.class, j -> joinSeeds(j.seeds()))
        .match(LeaveCommand.class, this::leaveCommand)
        .match(DownCommand.class, this::downCommand)
        .match(DownNotices.Terminate.class, t -> addressTerminated(t.member(), MemberStatus.DOWN))
        .match(OnMemberUp.class, this::registerOnUp)
        .match(OnMemberRemoved.class, this::registerOnRemoved)
        .match(ShutdownLeave.class, this::shutdownLeave)
        .match(ShutdownHandOver.class, this::shutdownHandOver)
        .match(ShutdownOthersGone.class, g -> {
          othersGone("this node is shutting down after its exit from the cluster");
          g.done().complete(Done.getInstance());
        })
        .match(HandOverFinished.class, f -> {
          handOverRunning = false;
          handedOver.complete(Done.getInstance());
          closeEngineWhenReady();
        })
        .match(CoreMessage.GetEndpoint.class, g -> getSender().tell(
            new CoreMessage.Endpoint(phase == Phase.JOINED ? endpoint : ""), getSelf()))
        .match(CoreMessage.Endpoint.class, this::seedAnswered)
        .match(CoreMessage.Leaving.class, this::memberLeaving)
        .match(CoreMessage.LeavingAck.class, this::leavingAcked)
        .match(CoreMessage.Down.class, this::downFromMember)
        .match(CoreMessage.LeaveRequest.class, this::leaveRequested)
        .build();
  }

  private static long now() {
    return System.nanoTime();
  }

  // ---- joining ----

  private void joinSeeds(List<Address> list) {
    if (phase != Phase.IDLE) {
      LOG.debug("{} ignores a join: it is {}", self, phase);
      return;
    }
    seeds = List.copyOf(list);
    phase = Phase.SEEDING;
    seedingSince = now();
    if (seeds.size() == 1 && seeds.get(0).equals(self.address())) {
      found();
      return;
    }
    askSeeds();
  }

  private void askSeeds() {
    for (Address seed : seeds) {
      if (!seed.equals(self.address())) {
        cluster.coreOf(seed).tell(new CoreMessage.GetEndpoint(), getSelf());
      }
    }
    getTimers().startSingleTimer(Timer.SEED_ROUND, Timer.SEED_ROUND, cluster.settings.seedNodeTimeout());
  }

  private void seedRound() {
    if (phase != Phase.SEEDING) {
      return;
    }
    if (seeds.get(0).equals(self.address())) {
      found();
      return;
    }
    Optional<Duration> giveUp = cluster.settings.shutdownAfterUnsuccessfulJoinSeedNodes();
    if (giveUp.isPresent() && now() - seedingSince >= giveUp.get().toNanos()) {
      LOG.warn("{} could not join through the seed nodes {} within {} (troupe.cluster."
          + "shutdown-after-unsuccessful-join-seed-nodes): shutting down", self, seeds, giveUp.get());
      phase = Phase.OUT;
      shutdownSystem();
      return;
    }
    askSeeds();
  }

  private void seedAnswered(CoreMessage.Endpoint e) {
    if (phase != Phase.SEEDING || e.endpoint().isEmpty()) {
      return;
    }
    getTimers().cancel(Timer.SEED_ROUND);
    joinEngine(List.of(e.endpoint()), false);
  }

  private void found() {
    LOG.info("{} founds the cluster", self);
    joinEngine(List.of(), true);
  }

  private void joinEngine(List<String> endpoints, boolean founding) {
    phase = Phase.ENGINE_JOINING;
    ActorRef me = getSelf();
    cluster.engineThread.execute(() -> {
      try {
        String ep = cluster.engine.join(endpoints, cluster.listener());
        me.tell(new EngineJoined(ep), ActorRef.noSender());
      } catch (Exception | LinkageError e) {
        me.tell(new EngineJoinFailed(e, founding), ActorRef.noSender());
      }
    });
  }

  private void engineJoined(EngineJoined j) {
    if (phase == Phase.ENGINE_JOINING) {
      endpoint = j.endpoint();
      phase = Phase.JOINED;
      LOG.debug("{} joined the membership engine, endpoint {}", self, endpoint);
    }
  }

  private void engineJoinFailed(EngineJoinFailed f) {
    if (phase != Phase.ENGINE_JOINING) {
      return;
    }
    LOG.warn("{} could not {} the cluster through its membership engine: {}", self,
        f.founding() ? "found" : "join", f.cause().toString());
    phase = Phase.SEEDING;
    getTimers().startSingleTimer(Timer.SEED_ROUND, Timer.SEED_ROUND, cluster.settings.seedNodeTimeout());
  }

  // ---- the engine's reports ----

  private void onView(MembershipView view) {
    apply(state.onView(view, now()), null);
    for (UniqueAddress gone : state.removedStillInView()) {
      if (!gone.equals(self)) {
        cluster.coreOf(gone.address()).tell(new CoreMessage.Down(gone.address(), gone.uid()), getSelf());
      }
    }
  }

  // ---- leaving ----

  private void leaveCommand(LeaveCommand c) {
    if (c.address().equals(self.address())) {
      startLeave();
    } else if (state.members().stream().anyMatch(m -> m.address().equals(c.address()))) {
      cluster.coreOf(c.address()).tell(new CoreMessage.LeaveRequest(c.address()), getSelf());
    } else {
      LOG.info("{}: Cluster.leave({}) ignored: not a member", self, c.address());
    }
  }

  private void leaveRequested(CoreMessage.LeaveRequest r) {
    Address from = getSender().path().address();
    if (r.address().equals(self.address()) && state.members().stream().anyMatch(m -> m.address().equals(from))) {
      startLeave();
    } else {
      LOG.debug("{} ignores a leave request for {} from {}, not a member", self, r.address(), from);
    }
  }

  private void shutdownLeave(ShutdownLeave s) {
    engineLeft.whenComplete((d, e) -> s.done().complete(Done.getInstance()));
    startLeave();
  }

  private void shutdownHandOver(ShutdownHandOver s) {
    handedOver.whenComplete((d, e) -> s.done().complete(Done.getInstance()));
    startLeave();
    if (phase != Phase.LEAVING) {
      handedOver.complete(Done.getInstance()); // not a member (or out already): nothing to hand over
    }
  }

  /**
   * Announces this node's leave; the engine leaves once every member acknowledged it (or {@code
   * leave-ack-timeout} passed) and this node's shard regions and singleton managers have handed
   * over (bounded by {@code troupe.cluster.sharding.hand-over-timeout}): its successors start its
   * entities and singletons while it is still a member, so that nothing waits for its removal.
   */
  private void startLeave() {
    if (phase == Phase.LEAVING || phase == Phase.OUT || state.isTerminated()) {
      return;
    }
    if (state.selfMember().isEmpty()) {
      // never joined: nothing to announce
      phase = Phase.OUT;
      getTimers().cancel(Timer.SEED_ROUND);
      engineLeft.complete(Done.getInstance());
      removed.complete(Done.getInstance());
      handedOver.complete(Done.getInstance());
      closeEngine(false);
      out();
      return;
    }
    phase = Phase.LEAVING;
    List<Member> others = others();
    apply(state.onLeaving(self, now()), null);
    for (Member m : others) {
      awaitingAcks.add(m.address());
      cluster.coreOf(m.address()).tell(new CoreMessage.Leaving(self.address(), self.uid()), getSelf());
    }
    // the leave is applied: this node's feeders and managers have been told (MemberLeft), so the
    // regions' and managers' answers below come after they saw this node leaving
    handOverRunning = true;
    ActorRef me = getSelf();
    cluster.handOverBeforeLeaving().whenComplete((d, e) -> me.tell(new HandOverFinished(), ActorRef.noSender()));
    if (!awaitingAcks.isEmpty()) {
      getTimers().startSingleTimer(Timer.LEAVE_ACKS, Timer.LEAVE_ACKS, cluster.settings.leaveAckTimeout());
    }
  }

  /** The engine leaves once the members acknowledged the leave and the hand-over is over. */
  private void closeEngineWhenReady() {
    if (phase == Phase.LEAVING && awaitingAcks.isEmpty() && !handOverRunning) {
      closeEngine(true);
    }
  }

  private void leavingAcked(CoreMessage.LeavingAck a) {
    if (phase == Phase.LEAVING && a.address().equals(self.address()) && a.uid() == self.uid()
        && awaitingAcks.remove(getSender().path().address()) && awaitingAcks.isEmpty()) {
      getTimers().cancel(Timer.LEAVE_ACKS);
      closeEngineWhenReady();
    }
  }

  private void leaveAcksTimedOut() {
    if (phase == Phase.LEAVING) {
      LOG.info("{} leaves without the acknowledgement of {} (troupe.cluster.leave-ack-timeout = {})", self,
          awaitingAcks, cluster.settings.leaveAckTimeout());
      awaitingAcks.clear();
      closeEngineWhenReady();
    }
  }

  /** Stops the engine once: a graceful leave, then {@link EngineLeft}; or a close. */
  private void closeEngine(boolean leave) {
    if (engineLeaving) {
      return;
    }
    engineLeaving = true;
    ActorRef me = getSelf();
    cluster.engineThread.execute(() -> {
      try {
        if (leave) {
          cluster.engine.leave();
        } else {
          cluster.engine.close();
        }
      } catch (RuntimeException e) {
        LOG.warn("the membership engine failed to {}", leave ? "leave" : "close", e);
      }
      engineLeft.complete(Done.getInstance());
      if (leave) {
        me.tell(new EngineLeft(), ActorRef.noSender());
      }
    });
  }

  private void memberLeaving(CoreMessage.Leaving l) {
    UniqueAddress who = new UniqueAddress(l.address(), l.uid());
    if (!getSender().path().address().equals(l.address())) {
      LOG.debug("{} ignores a leave of {} sent by {}", self, who, getSender());
      return;
    }
    apply(state.onLeaving(who, now()), null);
    getSender().tell(new CoreMessage.LeavingAck(l.address(), l.uid()), getSelf());
  }

  // ---- downing ----

  private void downCommand(DownCommand c) {
    Optional<Member> m = state.members().stream().filter(x -> x.address().equals(c.address())).findFirst();
    if (m.isEmpty()) {
      LOG.info("{}: Cluster.down({}) ignored: not a member", self, c.address());
      return;
    }
    // every other member hears it first, the downed one too (its quarantine waits: DownNotices)
    for (Member o : others()) {
      cluster.coreOf(o.address()).tell(new CoreMessage.Down(m.get().address(), m.get().uniqueAddress().uid()), getSelf());
    }
    downNotices.told(m.get().uniqueAddress());
    apply(state.onDown(m.get().uniqueAddress(), now()), null);
  }

  private void downFromMember(CoreMessage.Down d) {
    Address from = getSender().path().address();
    if (state.members().stream().noneMatch(m -> m.address().equals(from))) {
      LOG.debug("{} ignores a down of {}#{} from {}, not a member", self, d.address(), d.uid(), from);
      return;
    }
    apply(state.onDownedElsewhere(new UniqueAddress(d.address(), d.uid()), now()), null);
  }

  // ---- subscribers and callbacks ----

  private void subscribe(Subscribe s) {
    subscribers.put(s.subscriber(), s.to());
    getContext().watch(s.subscriber());
    CurrentClusterState now = state.state();
    if (s.mode() == ClusterEvent.SubscriptionInitialStateMode.INITIAL_STATE_AS_SNAPSHOT) {
      s.subscriber().tell(now, getSelf());
      return;
    }
    List<ClusterEvent> initial = new ArrayList<>();
    for (Member m : now.members()) {
      switch (m.status()) {
        case JOINING -> initial.add(new ClusterEvent.MemberJoined(m));
        case UP -> initial.add(new ClusterEvent.MemberUp(m));
        case LEAVING -> initial.add(new ClusterEvent.MemberLeft(m));
        default -> { }
      }
    }
    for (Member m : now.members()) {
      if (now.unreachable().contains(m)) {
        initial.add(new ClusterEvent.UnreachableMember(m));
      }
    }
    now.leader().ifPresent(l -> initial.add(new ClusterEvent.LeaderChanged(now.leader())));
    for (ClusterEvent e : initial) {
      if (matches(s.to(), e)) {
        s.subscriber().tell(e, getSelf());
      }
    }
  }

  private static boolean matches(List<Class<?>> to, ClusterEvent e) {
    for (Class<?> c : to) {
      if (c.isInstance(e)) {
        return true;
      }
    }
    return false;
  }

  private void registerOnUp(OnMemberUp r) {
    if (upRan) {
      runAll(List.of(r.callback()), "registerOnMemberUp");
    } else {
      onUp.add(r.callback());
    }
  }

  private void registerOnRemoved(OnMemberRemoved r) {
    if (outHandled) {
      runAll(List.of(r.callback()), "registerOnMemberRemoved");
    } else {
      onRemoved.add(r.callback());
    }
  }

  private void runAll(List<Runnable> callbacks, String what) {
    List<Runnable> copy = List.copyOf(callbacks);
    callbacks.clear();
    for (Runnable r : copy) {
      try {
        cluster.system.dispatcher().execute(r);
      } catch (RuntimeException rejected) { // the system is stopping
        try {
          r.run();
        } catch (RuntimeException e) {
          LOG.warn("a {} callback failed", what, e);
        }
      }
    }
  }

  // ---- outputs ----

  private List<Member> others() {
    return state.members().stream().filter(m -> !m.uniqueAddress().equals(self)).toList();
  }

  /**
   * Acts on the events of one input: publish them, address-terminate removed members, pass this
   * node's downing decisions on, shut down when this node is out.
   *
   * @param decidedBy null, or why this node downs the members of the input's {@code MemberDowned}
   *     events (a tick's downing decisions, a death the engine is sure of): those downs are this
   *     node's own, to pass on to every member
   */
  private void apply(List<ClusterEvent> events, String decidedBy) {
    if (events.isEmpty()) {
      return;
    }
    // the snapshot first: whoever hears of an event (a subscriber, a watcher) reads a state that holds it
    Member me = state.selfMember().orElseGet(() -> new Member(self,
        state.isTerminated() ? MemberStatus.REMOVED : MemberStatus.JOINING, cluster.settings.roles(), Long.MAX_VALUE));
    cluster.publish(state.state(), me);
    if (decidedBy != null) {
      // the downed members hear it too: their quarantine below waits for that (DownNotices)
      List<Member> recipients = new ArrayList<>(others());
      for (ClusterEvent e : events) {
        if (e instanceof ClusterEvent.MemberDowned d) {
          UniqueAddress ua = d.member().uniqueAddress();
          LOG.info("{} downs {}: {}", self, ua, decidedBy);
          for (Member m : recipients) {
            cluster.coreOf(m.address()).tell(new CoreMessage.Down(ua.address(), ua.uid()), getSelf());
          }
          downNotices.told(ua);
        }
      }
    }
    for (ClusterEvent e : events) {
      LOG.debug("{}: {}", self, e);
      for (Map.Entry<ActorRef, List<Class<?>>> s : subscribers.entrySet()) {
        if (matches(s.getValue(), e)) {
          s.getKey().tell(e, getSelf());
        }
      }
      if (e instanceof ClusterEvent.MemberUp up && up.member().uniqueAddress().equals(self) && !upRan) {
        upRan = true;
        runAll(onUp, "registerOnMemberUp");
      } else if (e instanceof ClusterEvent.MemberRemoved r && !r.member().uniqueAddress().equals(self)) {
        UniqueAddress gone = r.member().uniqueAddress();
        if (downNotices.waits(gone)) {
          getTimers().startSingleTimer(gone, new DownNotices.Terminate(gone), DownNotices.GRACE);
        } else {
          addressTerminated(gone, r.previousStatus());
        }
      }
    }
    if (state.isTerminated() && !outHandled) {
      state.selfDownReason().ifPresent(r -> LOG.warn("{} is out of the cluster: {}", self, r));
      phase = Phase.OUT;
      closeEngine(false);
      removed.complete(Done.getInstance());
      handedOver.complete(Done.getInstance());
      out();
    }
  }

  private void out() {
    if (outHandled) {
      return;
    }
    outHandled = true;
    cluster.publish(state.state(), new Member(self, MemberStatus.REMOVED, cluster.settings.roles(), Long.MAX_VALUE));
    othersGone("this node is out of the cluster");
    runAll(onRemoved, "registerOnMemberRemoved");
    shutdownSystem();
  }

  /**
   * Declares every other member's node terminated here, once: a node that is out of the cluster
   * (removed, downed, or past its exit at shutdown) hears nothing more from the members, which
   * quarantine it. Without this its watchers, and above all the parents of children it deployed onto
   * those nodes, would wait for death notices that the members drop: a router whose routees live on
   * another member would keep {@code /user}, and so the system's termination, from ever ending.
   */
  private void othersGone(String why) {
    if (othersGone) {
      return;
    }
    othersGone = true;
    for (Member m : others()) {
      OptionalLong current = cluster.provider.remote().incarnation(m.address());
      if (current.isEmpty() || current.getAsLong() == m.uniqueAddress().uid()) {
        cluster.provider.remote().addressTerminated(m.address(), why);
      }
    }
  }

  private void shutdownSystem() {
    CoordinatedShutdown cs = CoordinatedShutdown.get(cluster.system);
    if (cs != null && cs.getShutdownReason().isEmpty()) {
      cs.runAll(ClusterLeftReason.INSTANCE);
    }
  }

  private void addressTerminated(UniqueAddress member, MemberStatus previous) {
    String reason = "removed from the cluster (" + previous + ")";
    OptionalLong current = cluster.provider.remote().incarnation(member.address());
    if (current.isEmpty() || current.getAsLong() == member.uid()) {
      cluster.provider.remote().addressTerminated(member.address(), reason);
    } else {
      cluster.provider.remote().quarantine(member.address(), member.uid(), reason);
    }
  }

  // ---- coordinated shutdown ----

  private void registerShutdownTasks() {
    CoordinatedShutdown cs;
    try {
      cs = CoordinatedShutdown.get(cluster.system);
    } catch (RuntimeException notYet) {
      cs = null;
    }
    if (cs == null) { // the system is still being created
      getTimers().startSingleTimer(Timer.SHUTDOWN_TASKS, Timer.SHUTDOWN_TASKS, Duration.ofMillis(10));
      return;
    }
    ActorRef me = getSelf();
    try {
      cs.addTask("cluster-sharding-shutdown-region", "cluster-hand-over", () -> {
        CompletableFuture<Done> done = new CompletableFuture<>();
        me.tell(new ShutdownHandOver(done), ActorRef.noSender());
        return done;
      });
      cs.addTask("cluster-leave", "cluster-leave", () -> {
        CompletableFuture<Done> done = new CompletableFuture<>();
        me.tell(new ShutdownLeave(done), ActorRef.noSender());
        return done;
      });
      CompletableFuture<Done> gone = removed;
      cs.addTask("cluster-exiting", "cluster-exiting", () -> gone);
      cs.addTask("before-actor-system-terminate", "cluster-members-gone", () -> {
        CompletableFuture<Done> done = new CompletableFuture<>();
        me.tell(new ShutdownOthersGone(done), ActorRef.noSender());
        return done;
      });
    } catch (IllegalStateException | IllegalArgumentException e) {
      LOG.warn("{}: the cluster's coordinated-shutdown tasks were not added: {}", self, e.getMessage());
    }
  }

  /** The reason of a coordinated shutdown that this node's leaving or removal started. */
  enum ClusterLeftReason implements CoordinatedShutdown.Reason {
    INSTANCE
  }
}
