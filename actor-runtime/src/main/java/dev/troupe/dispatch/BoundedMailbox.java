package dev.troupe.dispatch;

/**
 * A mailbox with a fixed capacity ({@code mailbox-capacity}): a sender finding it full waits up to {@code mailbox-push-timeout-time}, then the message goes to dead letters. Name it in config as {@code mailbox-type = "dev.troupe.dispatch.BoundedMailbox"} (alias {@code bounded}); the default config has a {@code bounded-mailbox} section for {@code Props.withMailbox("bounded-mailbox")}.
 *
 * <p>This class only names the mailbox type for configuration; the runtime creates the queues.
 */
public final class BoundedMailbox {
  /** The value of {@code mailbox-type} that selects this mailbox. */
  public static final String TYPE = "dev.troupe.dispatch.BoundedMailbox";

  private BoundedMailbox() {}
}
