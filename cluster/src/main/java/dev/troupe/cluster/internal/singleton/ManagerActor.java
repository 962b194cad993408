package dev.troupe.cluster.internal.singleton;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.singleton.Protocol.HandOverDone;
import dev.troupe.cluster.internal.singleton.Protocol.HandOverInProgress;
import dev.troupe.cluster.internal.singleton.Protocol.HandOverToMe;
import dev.troupe.cluster.internal.singleton.Protocol.ProxyStopped;
import dev.troupe.cluster.internal.singleton.Protocol.RegisterProxy;
import dev.troupe.cluster.internal.singleton.Protocol.SingletonIs;
import dev.troupe.cluster.internal.singleton.Protocol.SingletonMoving;
import dev.troupe.cluster.singleton.ClusterSingletonManagerSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A singleton manager on one node: runs the singleton as its child while this node is the oldest
 * up member with the role, and only once every older member that is not removed has confirmed it
 * runs no instance. All state is the actor's own (actor thread only).
 *
 * <p>After every membership change or protocol message the manager {@link #reconcile reconciles}:
 *
 * <ul>
 *   <li>Owner, no instance: it asks every older member still in the membership ({@link
 *       HandOverToMe}, every {@code hand-over-retry-interval}, at most {@code hand-over-retries}
 *       times, then it only waits) and starts the instance when each has answered {@link
 *       HandOverDone} or has been removed. A crashed owner is therefore replaced only after its
 *       removal, a leaving one after its instance stopped.
 *   <li>Not the owner, an instance running: it pauses the proxies it serves ({@link
 *       SingletonMoving}, waiting for their {@link ProxyStopped} at most {@code
 *       proxy-pause-timeout}), then sends the termination message; when the instance has stopped it
 *       tells the owner {@link HandOverDone}.
 *   <li>Not the owner, no instance: it tells a younger owner {@link HandOverDone} once, and
 *       answers its {@link HandOverToMe}; a request from a node that is not the owner in this
 *       node's view goes unanswered (this view is behind or ahead; the owner asks again).
 * </ul>
 *
 * An instance that stops by itself while this node is the owner is not started again until the
 * ownership moves.
 */
public final class ManagerActor extends AbstractActorWithTimers {
  private static final Object RETRY = "hand-over-retry";
  private static final Object PAUSE_TIMEOUT = "proxy-pause-timeout";

  private final Props singletonProps;
  private final Object terminationMessage;
  private final ClusterSingletonManagerSettings settings;
  private final SingletonMembership membership;
  private final UniqueAddress self;
  private final Members members;

  private ActorRef instance; // the running child, or null
  private boolean terminating; // proxies paused or termination message sent
  private boolean startedWhileOwner; // an instance ran during this ownership: not started again
  private final Set<UniqueAddress> confirmed = new HashSet<>(); // older members that answered HandOverDone
  private int retries;
  private boolean warnedStuck;
  private UniqueAddress toldOwner; // the owner told HandOverDone since this node's instance stopped
  private final Set<ActorRef> proxies = new LinkedHashSet<>(); // registered, watched
  private Set<ActorRef> awaitingProxies; // proxies not yet stopped while pausing, or null
  private final List<ActorRef> handOverWaiters = new ArrayList<>(); // asked WhenHandedOver, not answered yet

  /**
   * @param singletonProps the singleton's props
   * @param terminationMessage what the instance is told when the singleton moves away
   * @param settings the manager's settings
   * @param membership the membership; null = the one installed for the actor system
   */
  public ManagerActor(Props singletonProps, Object terminationMessage, ClusterSingletonManagerSettings settings,
      SingletonMembership membership) {
    this.singletonProps = Objects.requireNonNull(singletonProps, "singletonProps");
    this.terminationMessage = Objects.requireNonNull(terminationMessage, "terminationMessage");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.membership = membership != null ? membership
        : SingletonHooks.require(getContext().getSystem(), "ClusterSingletonManager");
    this.self = this.membership.selfNode();
    this.members = new Members(settings.role());
  }

  /**
   * @param singletonProps the singleton's props
   * @param terminationMessage what the instance is told when the singleton moves away
   * @param settings the manager's settings
   * @param membership the membership; null = the one installed for the actor system when it starts
   * @return props of a manager
   */
  public static Props props(Props singletonProps, Object terminationMessage, ClusterSingletonManagerSettings settings,
      SingletonMembership membership) {
    Objects.requireNonNull(singletonProps, "singletonProps");
    Objects.requireNonNull(terminationMessage, "terminationMessage");
    Objects.requireNonNull(settings, "settings");
    return Props.create(ManagerActor.class,
        () -> new ManagerActor(singletonProps, terminationMessage, settings, membership));
  }

  /**
   * Asks a manager to answer {@link HandedOver} once this node is no longer up in its view (it
   * leaves) and it runs no instance: the cluster wiring asks this node's managers before the node's
   * engine leaves, so that the new owner starts the singleton while this node is still a member.
   * Local only (not part of the protocol between nodes).
   */
  public enum WhenHandedOver {
    INSTANCE
  }

  /** The answer to {@link WhenHandedOver}. */
  public enum HandedOver {
    INSTANCE
  }

  @Override
  public void preStart() {
    membership.subscribe(getSelf());
    membership.managerStarted(getSelf());
  }

  @Override
  public void postStop() {
    membership.managerStopped(getSelf());
    membership.unsubscribe(getSelf());
    instance = null; // a child stops before its parent's postStop
    answerHandOverWaiters(true);
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(HandOverToMe.class, this::onHandOverToMe)
        .match(HandOverDone.class, this::onHandOverDone)
        .match(HandOverInProgress.class, m -> log().debug("singleton: {} is still stopping its instance", m.from()))
        .match(RegisterProxy.class, m -> onRegisterProxy(getSender()))
        .match(ProxyStopped.class, m -> onProxyStopped(getSender()))
        .match(Terminated.class, m -> {
          onTerminated(m);
          answerHandOverWaiters();
        })
        .matchEquals(WhenHandedOver.INSTANCE, m -> {
          handOverWaiters.add(getSender());
          answerHandOverWaiters();
        })
        .matchEquals(RETRY, m -> onRetry())
        .matchEquals(PAUSE_TIMEOUT, m -> {
          if (awaitingProxies != null) {
            log().warning("singleton: {} proxies did not stop forwarding within {}; terminating the instance",
                awaitingProxies.size(), settings.proxyPauseTimeout());
            sendTermination();
          }
        })
        .matchAny(m -> {
          if (members.apply(m)) {
            reconcile();
            answerHandOverWaiters();
          } else {
            unhandled(m);
          }
        })
        .build();
  }

  /** Answers the waiters once this node is not up any more (leaving) and no instance runs here. */
  private void answerHandOverWaiters() {
    answerHandOverWaiters(false);
  }

  private void answerHandOverWaiters(boolean stopped) {
    if (handOverWaiters.isEmpty() || instance != null) {
      return;
    }
    boolean up = members.member(self).map(m -> m.status() == MemberStatus.UP).orElse(false);
    if (up && !stopped) {
      return;
    }
    for (ActorRef w : handOverWaiters) {
      w.tell(HandedOver.INSTANCE, getSelf());
    }
    handOverWaiters.clear();
  }

  private Optional<Member> owner() {
    return members.owner();
  }

  private boolean isOwner() {
    return owner().map(o -> o.uniqueAddress().equals(self)).orElse(false);
  }

  private void reconcile() {
    if (!members.known()) {
      return;
    }
    Optional<Member> owner = owner();
    boolean isOwner = isOwner();
    if (!isOwner) {
      confirmed.clear();
      startedWhileOwner = false;
      retries = 0;
      warnedStuck = false;
      getTimers().cancel(RETRY);
    }
    if (instance != null) {
      if (!isOwner && !terminating) {
        beginTermination();
      }
      return;
    }
    if (isOwner) {
      toldOwner = null;
      if (startedWhileOwner) {
        return;
      }
      List<Member> waitFor = unconfirmedOlder();
      if (waitFor.isEmpty()) {
        startInstance();
      } else if (!getTimers().isTimerActive(RETRY) && retries == 0) {
        askToHandOver(waitFor);
      }
    } else if (owner.isPresent()) {
      UniqueAddress o = owner.get().uniqueAddress();
      if (!o.equals(toldOwner) && members.member(self).map(me -> me.isOlderThan(owner.get())).orElse(false)) {
        peer(o).tell(new HandOverDone(self), getSelf());
        toldOwner = o;
      }
    }
  }

  private List<Member> unconfirmedOlder() {
    List<Member> older = members.olderThan(self);
    older.removeIf(m -> confirmed.contains(m.uniqueAddress()));
    return older;
  }

  private void askToHandOver(List<Member> waitFor) {
    retries++;
    for (Member m : waitFor) {
      peer(m.uniqueAddress()).tell(new HandOverToMe(self), getSelf());
    }
    getTimers().startSingleTimer(RETRY, RETRY, settings.handOverRetryInterval());
  }

  private void onRetry() {
    if (!isOwner() || instance != null || startedWhileOwner) {
      return;
    }
    List<Member> waitFor = unconfirmedOlder();
    if (waitFor.isEmpty()) {
      reconcile();
    } else if (retries < settings.handOverRetries()) {
      askToHandOver(waitFor);
    } else if (!warnedStuck) {
      warnedStuck = true;
      log().warning("singleton: no hand-over from {} after {} requests; the singleton starts when they hand over"
          + " or are removed", waitFor, retries);
    }
  }

  private void startInstance() {
    getTimers().cancel(RETRY);
    instance = getContext().actorOf(singletonProps, settings.singletonName());
    getContext().watch(instance);
    startedWhileOwner = true;
    terminating = false;
    log().info("singleton: started {} on {}", instance.path(), self);
    for (ActorRef p : proxies) {
      p.tell(new SingletonIs(instance, self), getSelf());
    }
  }

  private void beginTermination() {
    terminating = true;
    log().info("singleton: {} is no longer the oldest member; stopping {}", self, instance.path());
    if (proxies.isEmpty()) {
      sendTermination();
      return;
    }
    awaitingProxies = new HashSet<>(proxies);
    for (ActorRef p : proxies) {
      p.tell(new SingletonMoving(instance), getSelf());
    }
    getTimers().startSingleTimer(PAUSE_TIMEOUT, PAUSE_TIMEOUT, settings.proxyPauseTimeout());
  }

  private void sendTermination() {
    awaitingProxies = null;
    getTimers().cancel(PAUSE_TIMEOUT);
    if (instance != null) {
      instance.tell(terminationMessage, getSelf());
    }
  }

  private void onProxyStopped(ActorRef proxy) {
    if (awaitingProxies != null && awaitingProxies.remove(proxy) && awaitingProxies.isEmpty()) {
      sendTermination();
    }
  }

  private void onRegisterProxy(ActorRef proxy) {
    if (proxies.add(proxy)) {
      getContext().watch(proxy);
    }
    if (instance != null && !terminating) {
      proxy.tell(new SingletonIs(instance, self), getSelf());
    } else if (instance != null) {
      proxy.tell(new SingletonMoving(instance), getSelf());
    }
  }

  private void onTerminated(Terminated t) {
    ActorRef ref = t.actor();
    if (ref.equals(instance)) {
      instance = null;
      terminating = false;
      awaitingProxies = null;
      getTimers().cancel(PAUSE_TIMEOUT);
      log().info("singleton: the instance on {} stopped", self);
      reconcile();
    } else if (proxies.remove(ref)) {
      onProxyStopped(ref);
    }
  }

  private void onHandOverToMe(HandOverToMe m) {
    boolean fromOwner = owner().map(o -> o.uniqueAddress().equals(m.from())).orElse(false);
    if (!fromOwner) {
      log().debug("singleton: {} asked for the hand-over but is not the owner here; not answered", m.from());
      return;
    }
    if (instance == null) {
      getSender().tell(new HandOverDone(self), getSelf());
      toldOwner = m.from();
    } else {
      getSender().tell(new HandOverInProgress(self), getSelf());
    }
  }

  private void onHandOverDone(HandOverDone m) {
    if (isOwner()) {
      confirmed.add(m.from());
      reconcile();
    }
  }

  private dev.troupe.actor.ActorSelection peer(UniqueAddress node) {
    return getContext().actorSelection(membership.locate(node, getSelf().path()));
  }
}
