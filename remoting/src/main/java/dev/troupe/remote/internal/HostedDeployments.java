package dev.troupe.remote.internal;

import dev.troupe.actor.Actor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.Creator;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.remote.internal.DeploymentMessages.DeployAck;
import dev.troupe.remote.internal.DeploymentMessages.DeployRefused;
import dev.troupe.remote.internal.DeploymentMessages.DeployRequest;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.internal.SerializerSetup;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The target side of remote deployment: creates the actors other nodes deploy here, each under
 * {@code /remote/<origin node>/<its path there>}, supervised by its parent on the origin node (see
 * {@link LocalActorRefProvider#actorOfSupervisedBy}), and stops them when their parent or the
 * parent's node is gone.
 *
 * <p>A request is accepted only when {@code troupe.remote.deployment.enabled = on}, untrusted mode
 * is off and the class is listed in {@code allowed-classes}, all checked by name before the class
 * is loaded or any constructor argument read; then the class must be a concrete actor, every
 * argument must deserialize and a constructor must match them. Anything else, and a constructor
 * that throws when the actor is first created, is answered with a {@link DeployRefused} (and
 * logged); success with a {@link DeployAck} once the actor exists.
 *
 * <p>Each parent with children here is watched (so its node is watched by the failure detector):
 * its death stops its children, and so does its node leaving or being declared gone.
 *
 * <p>Thread-safety: requests arrive on a network thread, children's deaths on their own threads;
 * the bookkeeping is guarded by this object's lock, never held while sending.
 */
final class HostedDeployments {
  private final RemoteActorRefProvider provider;
  private final DeploymentSettings settings;
  private final boolean untrustedMode;
  private final Logger log;
  private final RemoteDaemon daemon;
  // the paths (with uid) of each parent's children (one incarnation: refs compare by path and uid);
  // a child is entered before it starts, so that its death always finds its entry; guarded by this
  private final Map<ActorRef, Set<ActorPath>> byParent = new HashMap<>();

  HostedDeployments(
      RemoteActorRefProvider provider, DeploymentSettings settings, boolean untrustedMode, Logger log, RemoteDaemon daemon) {
    this.provider = provider;
    this.settings = settings;
    this.untrustedMode = untrustedMode;
    this.log = log;
    this.daemon = daemon;
  }

  /** A node asks this one to create an actor; on a network thread. */
  void deploy(DeployRequest r, Serialization registry) {
    InternalActorRef parent = r.parent();
    if (parent == null || parent.isLocal()) {
      log.warn("ignoring a deployment request for {} without a parent on another node", r.path());
      return;
    }
    String refusal = check(r);
    if (refusal != null) {
      refuse(r, refusal);
      return;
    }
    Class<? extends Actor> actorClass;
    try {
      actorClass = actorClass(r.className());
    } catch (IllegalArgumentException e) {
      refuse(r, e.getMessage());
      return;
    }
    Object[] args = new Object[r.args().size()];
    for (int i = 0; i < args.length; i++) {
      Serialized a = r.args().get(i);
      try {
        args[i] = a == null ? null : registry.deserialize(a.serializerId(), a.manifest(), a.bytes());
      } catch (RuntimeException e) {
        refuse(r, "constructor argument " + i + " cannot be read here: " + e.getMessage());
        return;
      }
    }
    Props props;
    try {
      props = Props.create(actorClass, args);
    } catch (IllegalArgumentException e) {
      refuse(r, e.getMessage());
      return;
    }
    FirstConstruction construction = new FirstConstruction(props);
    Props hosted = construction.props(actorClass);
    if (r.dispatcher() != null) {
      hosted = hosted.withDispatcher(r.dispatcher());
    }
    if (r.mailbox() != null) {
      hosted = hosted.withMailbox(r.mailbox());
    }
    boolean watchParent;
    synchronized (this) {
      watchParent = !byParent.containsKey(parent);
      byParent.computeIfAbsent(parent, p -> new HashSet<>()).add(r.path());
    }
    try {
      provider.local().actorOfSupervisedBy(hosted, r.path(), new RemoteSupervisor(this, parent, construction));
    } catch (RuntimeException e) {
      synchronized (this) {
        Set<ActorPath> children = byParent.get(parent);
        children.remove(r.path());
        if (children.isEmpty() && watchParent) {
          byParent.remove(parent);
        }
      }
      refuse(r, e.getMessage());
      return;
    }
    if (watchParent) {
      parent.sendSystemMessage(new Watch(parent, daemon)); // its death, or its node's, stops its children
    }
    log.debug("deployed {} ({}) for {}", r.path(), r.className(), parent.path());
    provider.outgoing().daemonAt(parent.path().address()).sendSystemMessage(new DeployAck(r.path()));
  }

  /** @return why the request is refused before its class is even loaded, or null */
  private String check(DeployRequest r) {
    if (untrustedMode) {
      return "troupe.remote.untrusted-mode = on on " + provider.address() + " refuses remote deployment";
    }
    if (!settings.enabled()) {
      return "remote deployment is not enabled on " + provider.address() + " (troupe.remote.deployment.enabled = off)";
    }
    if (!settings.allows(r.className())) {
      return "class " + r.className() + " is not in troupe.remote.deployment.allowed-classes on " + provider.address();
    }
    List<String> elements = r.path().elements();
    Address origin = r.parent().path().address();
    if (!r.path().address().equals(provider.address())
        || elements.size() < 3
        || !elements.get(0).equals(RemoteDaemon.NAME)
        || !elements.get(1).equals(origin.system() + "@" + origin.host().orElse("") + ":" + origin.port().orElse(0))) {
      return "the path " + r.path() + " is not one under /remote of " + provider.address() + " for " + origin;
    }
    if (r.path().uid() == ActorPath.UNDEFINED_UID) {
      return "the path " + r.path() + " has no uid";
    }
    return null;
  }

  private static Class<? extends Actor> actorClass(String name) {
    Class<?> c;
    try {
      c = Class.forName(name, false, SerializerSetup.classLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException("class " + name + " is not on the class path here");
    }
    if (!Actor.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers())) {
      throw new IllegalArgumentException("class " + name + " is not a concrete actor class");
    }
    return c.asSubclass(Actor.class);
  }

  private void refuse(DeployRequest r, String reason) {
    log.warn("refused to deploy {} ({}) for {}: {}", r.path(), r.className(), r.parent(), reason);
    if (r.parent() != null) {
      provider.outgoing()
          .daemonAt(r.parent().path().address())
          .sendSystemMessage(new DeployRefused(r.path(), r.parent(), reason));
    }
  }

  /**
   * The constructor of {@code child} failed the first time: the deployment is refused after all;
   * the child is stopped (its death notice follows the refusal to the parent).
   */
  void constructorFailed(InternalActorRef child, InternalActorRef parent, Throwable cause) {
    String reason = "the constructor of " + child.path() + " failed: " + cause;
    log.warn("deployment of {} for {} failed: {}", child.path(), parent, reason);
    provider.outgoing()
        .daemonAt(parent.path().address())
        .sendSystemMessage(new DeployRefused(child.path(), parent, reason));
    child.stop();
  }

  /**
   * A hosted child terminated. Its parent stays watched (an entry with no children) until it dies:
   * an unwatch here could overtake the watch of the next child's deployment.
   */
  synchronized void childTerminated(ActorRef child, InternalActorRef parent) {
    Set<ActorPath> children = byParent.get(parent);
    if (children != null) {
      children.remove(child.path());
    }
  }

  /** A watched parent terminated: its children here stop. */
  void parentTerminated(ActorRef parent) {
    List<ActorPath> children;
    synchronized (this) {
      Set<ActorPath> set = byParent.remove(parent);
      children = set == null ? List.of() : new ArrayList<>(set);
    }
    if (!children.isEmpty()) {
      log.debug("{} terminated: stopping its {} children deployed here", parent.path(), children.size());
    }
    stop(children);
  }

  /**
   * A node is gone: the children of its parents stop. Their death notices still go there: should
   * the node have been declared gone while it lives (a long pause), its parents must hear.
   */
  void addressTerminated(Address node) {
    List<ActorPath> children = new ArrayList<>();
    synchronized (this) {
      for (var it = byParent.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<ActorRef, Set<ActorPath>> e = it.next();
        if (e.getKey().path().address().equals(node)) {
          children.addAll(e.getValue());
          it.remove();
        }
      }
    }
    if (!children.isEmpty()) {
      log.info("{} is gone: stopping the {} actors its parents deployed here", node, children.size());
    }
    stop(children);
  }

  /** Stops the hosted actors at {@code paths} (one already gone is left alone). */
  private void stop(List<ActorPath> paths) {
    for (ActorPath p : paths) {
      provider.local().resolveLocal(p).stop();
    }
  }

  /** @return the children hosted now (terminated ones are forgotten), for tests */
  synchronized int hostedCount() {
    return byParent.values().stream().mapToInt(Set::size).sum();
  }

  /**
   * Builds the hosted props around the real ones, to tell the first construction's failure (a
   * refused deployment) from a later one (a failure for the parent's supervisor strategy).
   */
  static final class FirstConstruction implements Creator<Actor> {
    private final Props props;
    private volatile boolean constructed;
    private volatile Throwable firstFailure;

    FirstConstruction(Props props) {
      this.props = props;
    }

    @SuppressWarnings("unchecked")
    Props props(Class<? extends Actor> actorClass) {
      return Props.create((Class<Actor>) actorClass, this);
    }

    @Override
    public Actor create() throws Exception {
      try {
        Actor a = props.newActor();
        constructed = true;
        return a;
      } catch (Exception | Error e) {
        if (!constructed && firstFailure == null) {
          firstFailure = e;
        }
        throw e;
      }
    }

    /** @return the failure of the first construction, once (null if it succeeded or was taken) */
    Throwable takeFirstFailure() {
      Throwable t = firstFailure;
      if (t != null && !constructed) {
        constructed = true; // one refusal; later failures are the supervisor's
        return t;
      }
      return null;
    }
  }
}
