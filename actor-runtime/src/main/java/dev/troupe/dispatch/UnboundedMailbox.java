package dev.troupe.dispatch;

/**
 * The default mailbox: an unbounded, lock-free multi-producer single-consumer queue (the message envelope is the queue node, so a send allocates one object). Name it in config as {@code mailbox-type = "dev.troupe.dispatch.UnboundedMailbox"} (alias {@code unbounded}).
 *
 * <p>This class only names the mailbox type for configuration; the runtime creates the queues.
 */
public final class UnboundedMailbox {
  /** The value of {@code mailbox-type} that selects this mailbox. */
  public static final String TYPE = "dev.troupe.dispatch.UnboundedMailbox";

  private UnboundedMailbox() {}
}
