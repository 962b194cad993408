package dev.troupe.actor.typed;

import java.util.Objects;

/**
 * The signal that an actor this one watches ({@code getContext().watch(ref)}) has stopped. If the
 * watcher's behaviour leaves it unhandled, the watcher fails with a {@link
 * dev.troupe.actor.DeathPactException}: an actor that watches another must say what its death
 * means. A child that failed and was stopped gives the subclass {@link ChildFailed}.
 */
public class Terminated implements Signal {
  private final ActorRef<Void> ref;

  /**
   * The signal for one actor.
   *
   * @param ref the actor that stopped
   */
  public Terminated(ActorRef<Void> ref) {
    this.ref = Objects.requireNonNull(ref, "ref");
  }

  /** @return the actor that stopped */
  public ActorRef<Void> getRef() {
    return ref;
  }

  @Override
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && ((Terminated) o).ref.equals(ref);
  }

  @Override
  public int hashCode() {
    return ref.hashCode();
  }

  @Override
  public String toString() {
    return "Terminated(" + ref + ")";
  }
}
