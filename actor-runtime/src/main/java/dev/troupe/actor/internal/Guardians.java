package dev.troupe.actor.internal;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;

/** The actors at the top of every system. */
final class Guardians {
  private Guardians() {}

  /**
   * {@code /}: parent of {@code /user} and {@code /system}; when {@code /user} is gone it stops the
   * actors run for other nodes' parents (see {@link DetachedActors}), and then itself.
   */
  static final class Root extends AbstractActor {
    /** The last detached actor is gone. */
    private static final Object DETACHED_GONE = new Object();

    @Override
    public void preStart() {
      getContext().findChild("user").ifPresent(getContext()::watch);
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return SupervisorStrategy.stoppingStrategy(); // a failing guardian ends the system
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Terminated.class, t -> {
            ActorRef self = getSelf();
            ((ActorSystemImpl) getContext().getSystem())
                .localProvider()
                .stopDetached(() -> self.tell(DETACHED_GONE, ActorRef.noSender()));
          })
          .matchEquals(DETACHED_GONE, m -> getContext().stop(getSelf()))
          .build();
    }
  }

  /** {@code /user} and {@code /system}: parents of top-level actors, default supervision. */
  static final class Guardian extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }
}
