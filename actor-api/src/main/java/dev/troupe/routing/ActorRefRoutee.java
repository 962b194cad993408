package dev.troupe.routing;

import dev.troupe.actor.ActorRef;
import java.util.Objects;

/**
 * A routee that is an actor ref; pools answer {@link GetRoutees} with these.
 *
 * @param ref the routee's ref
 */
public record ActorRefRoutee(ActorRef ref) implements Routee {
  /** @throws NullPointerException if {@code ref} is null */
  public ActorRefRoutee {
    Objects.requireNonNull(ref, "ref");
  }

  @Override
  public void send(Object message, ActorRef sender) {
    ref.tell(message, sender);
  }
}
