package dev.troupe.dispatch;

/**
 * Marks a message that an {@link UnboundedControlAwareMailbox} delivers before every ordinary
 * message waiting in it. Control messages keep their send order among themselves, as ordinary
 * ones do among themselves. In any other mailbox the marker means nothing.
 */
public interface ControlMessage {}
