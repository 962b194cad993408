package dev.troupe.cluster.internal.singleton;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.singleton.Protocol.ProxyStopped;
import dev.troupe.cluster.internal.singleton.Protocol.RegisterProxy;
import dev.troupe.cluster.internal.singleton.Protocol.SingletonIs;
import dev.troupe.cluster.internal.singleton.Protocol.SingletonMoving;
import dev.troupe.cluster.singleton.ClusterSingletonProxySettings;
import dev.troupe.remote.Dropped;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;

/**
 * A singleton proxy on one node: forwards every message to the singleton's current instance, and
 * holds them (bounded, in order) while the instance is unknown or moving. All state is the actor's
 * own (actor thread only).
 *
 * <p>It finds the instance through the membership: the oldest up member with the role is the
 * owner, and the proxy registers with the manager at the same path on that member ({@link
 * RegisterProxy}, again every {@code identification-interval} while it has none). That manager
 * answers {@link SingletonIs} when its instance runs, and {@link SingletonMoving} before it stops
 * it: the proxy then stops forwarding to that instance (never to take it up again) and answers
 * {@link ProxyStopped}, after everything it forwarded, so that the termination message reaches the
 * instance after the proxy's last message and a graceful hand-over loses none. When the instance's
 * node is downed or removed, or the instance stops, the proxy holds messages again.
 *
 * <p>Held messages beyond {@code buffer-size} are dropped oldest first, each published as a
 * {@link Dropped} event. A forwarded message keeps its sender; the steady path allocates nothing.
 */
public final class ProxyActor extends AbstractActorWithTimers {
  private static final Object IDENTIFY = "identify-singleton";
  private static final int RETIRED_KEPT = 16;

  private final ClusterSingletonProxySettings settings;
  private final SingletonMembership membership;
  private final String managerPath;
  private final Members members;

  private ActorPath managerLocalPath; // set in preStart
  private ActorRef singleton; // the instance messages are forwarded to, or null
  private UniqueAddress singletonNode;
  private final ArrayDeque<Held> buffer = new ArrayDeque<>();
  private final LinkedHashSet<ActorRef> retired = new LinkedHashSet<>(); // instances that are moving away
  private long dropped;

  /** A message held while the singleton is unknown, with its sender. */
  private record Held(Object message, ActorRef sender) {}

  /**
   * @param managerPath the managers' path on every node, e.g. {@code /user/boss}
   * @param settings the proxy's settings
   * @param membership the membership; null = the one installed for the actor system
   */
  public ProxyActor(String managerPath, ClusterSingletonProxySettings settings, SingletonMembership membership) {
    this.managerPath = Objects.requireNonNull(managerPath, "managerPath");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.membership = membership != null ? membership
        : SingletonHooks.require(getContext().getSystem(), "ClusterSingletonProxy");
    this.members = new Members(settings.role());
  }

  /**
   * @param managerPath the managers' path on every node, e.g. {@code /user/boss}
   * @param settings the proxy's settings
   * @param membership the membership; null = the one installed for the actor system when it starts
   * @return props of a proxy
   */
  public static Props props(String managerPath, ClusterSingletonProxySettings settings,
      SingletonMembership membership) {
    checkPath(managerPath);
    Objects.requireNonNull(settings, "settings");
    return Props.create(ProxyActor.class, () -> new ProxyActor(managerPath, settings, membership));
  }

  /**
   * @param managerPath a manager's path within its node
   * @throws IllegalArgumentException if it is not an absolute path such as {@code /user/boss}
   */
  public static void checkPath(String managerPath) {
    Objects.requireNonNull(managerPath, "singletonManagerPath");
    if (!managerPath.startsWith("/") || managerPath.length() < 2 || managerPath.endsWith("/")
        || managerPath.contains("//")) {
      throw new IllegalArgumentException("singletonManagerPath must be the manager's path within its node, such as"
          + " /user/boss; was '" + managerPath + "'");
    }
    for (String element : managerPath.substring(1).split("/")) {
      if (!ActorPath.isValidPathElement(element)) {
        throw new IllegalArgumentException("singletonManagerPath '" + managerPath + "' has an invalid element '"
            + element + "'");
      }
    }
  }

  @Override
  public void preStart() {
    managerLocalPath = getSelf().path().root().descendant(managerPath.substring(1));
    membership.subscribe(getSelf());
  }

  @Override
  public void postStop() {
    membership.unsubscribe(getSelf());
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(SingletonIs.class, this::onSingletonIs)
        .match(SingletonMoving.class, this::onSingletonMoving)
        .match(Terminated.class, t -> {
          if (t.actor().equals(singleton)) {
            lose("its instance stopped");
          }
        })
        .matchEquals(IDENTIFY, m -> identify())
        .matchAny(this::onOther)
        .build();
  }

  private void onOther(Object message) {
    if (members.apply(message)) {
      if (singleton != null) {
        Optional<Member> host = members.member(singletonNode);
        if (host.isEmpty() || host.get().status() == MemberStatus.DOWN) {
          lose("its node " + singletonNode + " is down or removed");
        }
      }
      if (singleton == null) {
        identify();
      }
      return;
    }
    if (message instanceof Protocol.Message) {
      unhandled(message);
    } else if (singleton != null) {
      singleton.forward(message, getContext());
    } else {
      hold(message, getSender());
    }
  }

  private void onSingletonIs(SingletonIs m) {
    if (singleton != null || retired.contains(m.instance())) {
      return;
    }
    singleton = m.instance();
    singletonNode = m.node();
    getContext().watch(singleton);
    getTimers().cancel(IDENTIFY);
    log().debug("singleton proxy: the singleton is {}; sending the {} held messages", singleton.path(),
        buffer.size());
    while (!buffer.isEmpty()) {
      Held h = buffer.poll();
      singleton.tell(h.message(), h.sender());
    }
  }

  private void onSingletonMoving(SingletonMoving m) {
    retire(m.instance());
    if (m.instance().equals(singleton)) {
      lose("it is moving");
    }
    getSender().tell(new ProxyStopped(), getSelf());
  }

  private void retire(ActorRef instance) {
    if (retired.add(instance) && retired.size() > RETIRED_KEPT) {
      Iterator<ActorRef> it = retired.iterator();
      it.next();
      it.remove();
    }
  }

  private void lose(String why) {
    log().debug("singleton proxy: holding messages for the singleton: {}", why);
    getContext().unwatch(singleton);
    singleton = null;
    singletonNode = null;
    identify();
  }

  private void identify() {
    if (!members.known()) {
      return;
    }
    members.owner().ifPresent(owner -> getContext()
        .actorSelection(membership.locate(owner.uniqueAddress(), managerLocalPath))
        .tell(new RegisterProxy(), getSelf()));
    getTimers().startSingleTimer(IDENTIFY, IDENTIFY, settings.identificationInterval());
  }

  private void hold(Object message, ActorRef sender) {
    int max = settings.bufferSize();
    if (max == 0) {
      drop(message, sender);
      return;
    }
    if (buffer.size() >= max) {
      Held oldest = buffer.poll();
      drop(oldest.message(), oldest.sender());
    }
    buffer.add(new Held(message, sender));
  }

  private void drop(Object message, ActorRef sender) {
    dropped++;
    if (dropped == 1 || Long.bitCount(dropped) == 1) {
      log().warning("singleton proxy: {} messages dropped so far: the singleton is unknown or moving and"
          + " troupe.cluster.singleton.proxy.buffer-size ({}) is full", dropped, settings.bufferSize());
    }
    getContext().getSystem().eventStream().publish(new Dropped(message,
        "the singleton proxy's buffer is full (troupe.cluster.singleton.proxy.buffer-size = "
            + settings.bufferSize() + "): the oldest held message is dropped", sender, getSelf()));
  }
}
