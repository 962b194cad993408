package dev.troupe.actor;

/** The failure of an actor that did not handle the {@link Terminated} of an actor it watched. */
public class DeathPactException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient ActorRef deadActor;

  /** @param deadActor the watched actor that terminated */
  public DeathPactException(ActorRef deadActor) {
    super("monitored actor " + deadActor + " terminated");
    this.deadActor = deadActor;
  }

  /** @return the watched actor that terminated */
  public ActorRef getDeadActor() {
    return deadActor;
  }
}
