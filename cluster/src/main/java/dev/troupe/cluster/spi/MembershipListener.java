package dev.troupe.cluster.spi;

import dev.troupe.cluster.UniqueAddress;

/** Where an engine reports. Called one call at a time; must not block (it runs on the engine). */
public interface MembershipListener {
  /** The engine installed a new view; versions increase from one call to the next. */
  void viewChanged(MembershipView view);

  /** The engine's failure detection suspects this member (it is still in the view). */
  void suspected(UniqueAddress member);

  /**
   * The engine is sure that this member's process is gone, not merely silent: evidence that a
   * partition or a paused process cannot give, such as its host closing the engine's connection to
   * it, confirmed by the member not answering. The cluster removes such a member without waiting
   * for {@code troupe.cluster.downing.stable-after}, so an engine must never report silence this
   * way. The member may already be gone from the last reported view (the engine may be sure only
   * once its view dropped it). Listeners that do not tell the two apart treat it as a suspicion.
   */
  default void confirmedDead(UniqueAddress member) {
    suspected(member);
  }

  /** A suspected member answers again. */
  void unsuspected(UniqueAddress member);
}
