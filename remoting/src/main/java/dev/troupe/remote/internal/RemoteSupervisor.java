package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Failed;
import dev.troupe.runtime.spi.SystemMessage;

/**
 * The parent a hosted (remote-deployed) actor sees on this node: it stands for the real parent on
 * the deploying node and passes everything on to it — the child's failures (which that parent's
 * supervisor strategy decides), its death notice, messages to {@code getParent()} — except that
 * a failure of the child's very first construction becomes a refused deployment
 * ({@link HostedDeployments#constructorFailed}), and the death notice also updates the
 * bookkeeping of {@link HostedDeployments}.
 */
final class RemoteSupervisor extends InternalActorRef {
  private final HostedDeployments hosted;
  private final InternalActorRef parent;
  private final HostedDeployments.FirstConstruction construction;

  RemoteSupervisor(HostedDeployments hosted, InternalActorRef parent, HostedDeployments.FirstConstruction construction) {
    this.hosted = hosted;
    this.parent = parent;
    this.construction = construction;
  }

  @Override
  public ActorPath path() {
    return parent.path();
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    parent.tell(message, sender);
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof Failed f) {
      Throwable first = construction.takeFirstFailure();
      if (first != null) {
        hosted.constructorFailed(f.child(), parent, first);
        return;
      }
    } else if (message instanceof DeathWatchNotification d) {
      hosted.childTerminated(d.actor(), parent);
    }
    parent.sendSystemMessage(message);
  }

  @Override
  public boolean isTerminated() {
    return parent.isTerminated();
  }

  @Override
  public RuntimeSystem system() {
    return parent.system();
  }

  @Override
  public boolean isLocal() {
    return false;
  }
}
