package dev.troupe.actor;

/** An {@link UntypedActor} with a stash; see {@link AbstractActorWithStash}. */
public abstract class UntypedActorWithStash extends UntypedActor {

  /** Binds the instance to its cell. */
  protected UntypedActorWithStash() {}

  /** Sets the current message aside. */
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
