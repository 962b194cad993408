package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.runtime.spi.SystemMessages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor of the cluster's own actors outside the guardians' tree (the core, the
 * receptionist's directory): a failure is logged and the actor resumes (the core's membership state
 * and the directory's listings must survive a bad message; a restart would forget them). Everything
 * else it is sent is ignored.
 */
final class CoreSupervisor extends InternalActorRef {
  private static final Logger LOG = LoggerFactory.getLogger(CoreSupervisor.class);
  private final RuntimeSystem system;
  private final ActorPath path;

  CoreSupervisor(RuntimeSystem system, ActorPath path) {
    this.system = system;
    this.path = path;
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    // nothing is sent to the supervisor but system messages
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof SystemMessages.Failed f) {
      LOG.error("the cluster's actor {} failed; it resumes with its state", f.child().path(), f.cause());
      f.child().sendSystemMessage(new SystemMessages.Resume(f.cause()));
    }
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public RuntimeSystem system() {
    return system;
  }
}
