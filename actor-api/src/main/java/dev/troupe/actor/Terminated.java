package dev.troupe.actor;

/**
 * Tells a watcher that a watched actor terminated.
 *
 * @param actor the actor that terminated
 * @param existenceConfirmed {@code false} if the actor was never found (e.g. it was already gone
 *     when watched)
 * @param addressTerminated {@code true} if the actor's whole system became unreachable
 */
public record Terminated(ActorRef actor, boolean existenceConfirmed, boolean addressTerminated)
    implements java.io.Serializable {
  /** @return the actor that terminated */
  public ActorRef getActor() {
    return actor;
  }
}
