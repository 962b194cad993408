package dev.troupe.actor;

/** What a supervisor does with a failed child. */
public enum Directive {
  /** Keep the child's state and let it go on with the next message. */
  RESUME,
  /** Replace the child's instance with a fresh one; mailbox and ref survive. */
  RESTART,
  /** Stop the child for good. */
  STOP,
  /** Fail the supervisor itself with the same cause, handing the decision up. */
  ESCALATE
}
