package dev.troupe.actor.typed;

import java.util.Objects;

/**
 * The {@link Terminated} signal of a watched child that stopped because it failed (an exception its
 * own supervision did not handle): {@link #getCause()} is that exception. Like {@code Terminated}, it
 * reaches only a parent that watches the child; left unhandled, it fails the parent with a {@link
 * dev.troupe.actor.DeathPactException}.
 */
public final class ChildFailed extends Terminated {
  private final Throwable cause;

  /**
   * The signal for one child.
   *
   * @param ref the child
   * @param cause why it failed
   */
  public ChildFailed(ActorRef<Void> ref, Throwable cause) {
    super(ref);
    this.cause = Objects.requireNonNull(cause, "cause");
  }

  /** @return why the child failed */
  public Throwable getCause() {
    return cause;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o) && ((ChildFailed) o).cause.equals(cause);
  }

  @Override
  public int hashCode() {
    return 31 * super.hashCode() + cause.hashCode();
  }

  @Override
  public String toString() {
    return "ChildFailed(" + getRef() + ", " + cause + ")";
  }
}
