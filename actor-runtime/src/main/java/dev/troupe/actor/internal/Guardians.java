package dev.troupe.actor.internal;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;

/** The actors at the top of every system. */
final class Guardians {
  private Guardians() {}

  /** {@code /}: parent of {@code /user} and {@code /system}; stops itself when {@code /user} is gone. */
  static final class Root extends AbstractActor {
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
          .match(Terminated.class, t -> getContext().stop(getSelf()))
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
