package dev.troupe.actor;

/**
 * An {@link AbstractActor} that can set messages aside and take them back later, e.g. while it
 * waits for a resource. Stashed messages survive a restart and go to dead letters when the actor
 * stops.
 */
public abstract class AbstractActorWithStash extends AbstractActor {

  /** Binds the instance to its cell. */
  protected AbstractActorWithStash() {}

  /** Sets the current message aside. A message may be stashed at most once. */
  public final void stash() {
    cell().stash();
  }

  /** Puts the oldest stashed message back in front of the mailbox. */
  public final void unstash() {
    cell().unstash();
  }

  /** Puts all stashed messages back in front of the mailbox, oldest first. */
  public final void unstashAll() {
    cell().unstashAll();
  }
}
