package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.DeadLetter;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessages.AddressTerminated;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.remote.internal.DeploymentMessages.DeployAck;
import dev.troupe.remote.internal.DeploymentMessages.DeployRefused;
import dev.troupe.remote.internal.DeploymentMessages.DeployRequest;
import dev.troupe.serialization.Serialization;
import java.util.function.Supplier;

/**
 * {@code /remote}: the address of remote deployment on every networked node. Not an actor but a
 * ref whose {@link #sendSystemMessage} acts at once, on the thread that delivers (a network
 * thread), so that a deployed actor exists before the next frame of its connection is read:
 *
 * <ul>
 *   <li>a {@link DeployRequest} creates an actor here ({@link HostedDeployments});
 *   <li>a {@link DeployAck} or {@link DeployRefused} settles a request of this node ({@link
 *       OutgoingDeployments});
 *   <li>a death notice is that of a parent whose children live here: they stop;
 *   <li>{@link AddressTerminated} (it is subscribed) is a node gone: the children of its parents
 *       stop, and requests to it wait no longer.
 * </ul>
 *
 * The deployed actors themselves live below it, at {@code /remote/<origin node>/<path there>}.
 */
final class RemoteDaemon extends InternalActorRef {
  /** The daemon's name, the first element of every deployed actor's path. */
  static final String NAME = "remote";

  private final RuntimeSystem system;
  private final ActorPath path;
  private final OutgoingDeployments outgoing;
  private final HostedDeployments hosted;
  private final Supplier<Serialization> registry;

  RemoteDaemon(
      RemoteActorRefProvider provider,
      RemoteSettings settings,
      DeploymentSettings deployment,
      org.slf4j.Logger log,
      Supplier<Serialization> registry) {
    this.system = provider.system();
    this.path = ActorPath.root(provider.address()).child(NAME);
    this.registry = registry;
    this.outgoing = new OutgoingDeployments(provider, settings, log);
    this.hosted = new HostedDeployments(provider, deployment, settings.untrustedMode(), log, this);
  }

  @Override
  public RuntimeSystem system() {
    return system;
  }

  OutgoingDeployments outgoing() {
    return outgoing;
  }

  HostedDeployments hosted() {
    return hosted;
  }

  /** @return whether {@code p} (of this node's address) names this daemon */
  static boolean isDaemonPath(ActorPath p) {
    return p.depth() == 1 && p.name().equals(NAME);
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to " + path + ")");
    }
    ActorRef deadLetters = system.actorSystem().deadLetters();
    deadLetters.tell(new DeadLetter(message, sender == null ? deadLetters : sender, this), sender);
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof DeployRequest r) {
      hosted.deploy(r, registry.get());
    } else if (message instanceof DeployAck a) {
      outgoing.acknowledged(a);
    } else if (message instanceof DeployRefused r) {
      outgoing.refused(r);
    } else if (message instanceof DeathWatchNotification d) {
      hosted.parentTerminated(d.actor());
    } else if (message instanceof AddressTerminated a) {
      hosted.addressTerminated(a.address());
      outgoing.addressTerminated(a.address());
    }
  }

  @Override
  public boolean isTerminated() {
    return false;
  }
}
