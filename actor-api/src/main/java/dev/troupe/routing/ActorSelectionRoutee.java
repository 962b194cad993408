package dev.troupe.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import java.util.Objects;

/**
 * A routee given by path; groups answer {@link GetRoutees} with these. Each send resolves the
 * selection against the live actor tree (in the sending thread); no actor behind it means dead
 * letters.
 *
 * @param selection the selection
 */
public record ActorSelectionRoutee(ActorSelection selection) implements Routee {
  /** @throws NullPointerException if {@code selection} is null */
  public ActorSelectionRoutee {
    Objects.requireNonNull(selection, "selection");
  }

  @Override
  public void send(Object message, ActorRef sender) {
    selection.tell(message, sender);
  }
}
