package dev.troupe.cluster.spi;

import dev.troupe.cluster.UniqueAddress;

/** Where an engine reports. Called one call at a time; must not block (it runs on the engine). */
public interface MembershipListener {
  /** The engine installed a new view; versions increase from one call to the next. */
  void viewChanged(MembershipView view);

  /** The engine's failure detection suspects this member (it is still in the view). */
  void suspected(UniqueAddress member);

  /** A suspected member answers again. */
  void unsuspected(UniqueAddress member);
}
