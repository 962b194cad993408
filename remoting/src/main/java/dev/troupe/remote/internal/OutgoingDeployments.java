package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.remote.internal.DeploymentMessages.DeployAck;
import dev.troupe.remote.internal.DeploymentMessages.DeployRefused;
import dev.troupe.remote.internal.DeploymentMessages.DeployRequest;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * The deploying side of remote deployment: turns {@code actorOf} of props deployed elsewhere into
 * a {@link DeployRequest} to the target's {@code /remote} and a {@link DeployedActorRef} for the
 * parent, and settles each request when the answer comes back.
 *
 * <p>Everything that makes a request impossible fails {@code actorOf} itself with a {@link
 * ConfigurationException}: props with a {@code Creator} (a lambda cannot be sent), a router, an
 * argument no serializer is bound for, a request above the maximum frame size, or this node in
 * untrusted mode (it would refuse the child's failure reports and death notice). What the target
 * refuses comes back as a {@link DeployRefused}: logged with its reason here, and the child's ref
 * terminates (the parent and every watcher get {@code Terminated}). While a request waits for its
 * answer the target's node is watched by the failure detector, so that an answer that never comes
 * because the node is gone ends the same way.
 *
 * <p>Thread-safety: any thread.
 */
final class OutgoingDeployments {
  private final RemoteActorRefProvider provider;
  private final RemoteSettings settings;
  private final Logger log;
  // requests not answered yet, by the child's path with uid
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();

  private record Pending(DeployedActorRef child, InternalActorRef parent) {}

  OutgoingDeployments(RemoteActorRefProvider provider, RemoteSettings settings, Logger log) {
    this.provider = provider;
    this.settings = settings;
    this.log = log;
  }

  /**
   * Sends the request to create the child at {@code path} on {@code target}; see {@link
   * dev.troupe.runtime.spi.ActorRefProvider#actorOf}.
   */
  InternalActorRef deploy(InternalActorRef parent, Props props, ActorPath path, Address target, Serialization registry) {
    String what = "cannot deploy " + path.toStringWithoutAddress() + " (" + props.actorClass().getName() + ") to " + target;
    if (!target.hasGlobalScope()) {
      throw new ConfigurationException(what + ": the target address has no host and port");
    }
    if (props.usesCreator()) {
      throw new ConfigurationException(
          what + ": its Props were made with a Creator, which cannot be sent to another node; create them with"
              + " Props.create(" + props.actorClass().getSimpleName() + ".class, constructor arguments...) instead");
    }
    if (props.routerConfig() != null) {
      throw new ConfigurationException(
          what + ": a router cannot be deployed to another node as a whole; keep the router here and deploy its"
              + " routees with target.nodes = [...] in the router's deployment section");
    }
    if (settings.untrustedMode()) {
      throw new ConfigurationException(
          what + ": troupe.remote.untrusted-mode = on on this node refuses the system messages through which a"
              + " deployed child reports its failures and its termination to its parent");
    }
    Object[] args = props.args();
    List<Serialized> serializedArgs = new ArrayList<>(args.length);
    for (int i = 0; i < args.length; i++) {
      if (args[i] == null) {
        serializedArgs.add(null);
        continue;
      }
      try {
        serializedArgs.add(registry.serialize(args[i]));
      } catch (SerializationException e) {
        throw new ConfigurationException(
            what + ": constructor argument " + i + " (" + args[i].getClass().getName() + ") cannot be sent: "
                + e.getMessage(),
            e);
      }
    }
    ActorPath remotePath = remotePath(path, target);
    DeployRequest request =
        new DeployRequest(remotePath, parent, props.actorClass().getName(), serializedArgs, props.dispatcher(), props.mailbox());
    int size = registry.serialize(request).bytes().length;
    if (size > settings.maximumFrameSize()) {
      throw new ConfigurationException(
          what + ": the request with its constructor arguments is " + size + " bytes, above"
              + " troupe.remote.maximum-frame-size (" + settings.maximumFrameSize() + " bytes)");
    }
    DeployedActorRef child = new DeployedActorRef(provider, remotePath, settings.messageQueueSize());
    pending.put(remotePath.toSerializationFormat(), new Pending(child, parent));
    provider.watchedNodes().watched(child, parent); // the parent hears if the target's node goes
    daemonAt(target).sendSystemMessage(request);
    log.debug("deploying {} ({}) as {}", path.toStringWithoutAddress(), props.actorClass().getName(), remotePath);
    return child;
  }

  /**
   * Where a child of this node lives on {@code target}: {@code /remote/<this system>@<host>:<port>}
   * followed by the child's own path elements, with its uid.
   */
  private ActorPath remotePath(ActorPath path, Address target) {
    Address self = provider.address();
    ActorPath p =
        ActorPath.root(target)
            .child(RemoteDaemon.NAME)
            .child(self.system() + "@" + self.host().orElseThrow() + ":" + self.port().orElseThrow());
    for (String e : path.elements()) {
      p = p.child(e);
    }
    return p.withUid(path.uid());
  }

  /** The {@code /remote} of {@code node}. */
  InternalActorRef daemonAt(Address node) {
    return provider.resolveActorRef(ActorPath.root(node).child(RemoteDaemon.NAME));
  }

  /** The target created the child. */
  void acknowledged(DeployAck ack) {
    Pending p = pending.remove(ack.path().toSerializationFormat());
    if (p != null) {
      p.child().deployed();
    }
  }

  /** The target refused the child, or its constructor failed there. */
  void refused(DeployRefused r) {
    Pending p = pending.remove(r.path().toSerializationFormat());
    log.warn("deployment of {} refused: {}", r.path(), r.reason());
    InternalActorRef child = p != null ? p.child() : provider.resolveActorRef(r.path());
    if (p != null) {
      p.child().refused(r.reason());
    }
    provider.watchedNodes().unwatched(child, r.parent());
    r.parent().sendSystemMessage(new DeathWatchNotification(child, false, false));
  }

  /**
   * {@code node} is gone: requests to it that wait for an answer never get one. The parents hear
   * from death watch (a child on a node that is gone counts as terminated); here the held messages
   * are dropped.
   */
  void addressTerminated(Address node) {
    for (Map.Entry<String, Pending> e : pending.entrySet()) {
      Pending p = e.getValue();
      if (p.child().path().address().equals(node) && pending.remove(e.getKey(), p)) {
        log.warn("deployment of {} got no answer: {} is gone", p.child().path(), node);
        p.child().refused(node + " is gone");
      }
    }
  }

  /** @return how many requests wait for an answer, for tests */
  int pendingCount() {
    return pending.size();
  }
}
