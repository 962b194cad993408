package dev.troupe.runtime.spi;

/**
 * A message of the runtime's own protocol (create, suspend, resume, recreate, terminate, watch,
 * failure reports). System messages travel in a separate queue of the mailbox and are processed
 * before user messages, also while the mailbox is suspended.
 */
public interface SystemMessage {}
