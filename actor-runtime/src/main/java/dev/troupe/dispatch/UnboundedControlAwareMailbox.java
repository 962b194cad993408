package dev.troupe.dispatch;

/**
 * An unbounded mailbox that delivers messages implementing {@link ControlMessage} before the
 * ordinary messages waiting with them; each of the two groups stays in send order. Name it in
 * config as {@code mailbox-type = "dev.troupe.dispatch.UnboundedControlAwareMailbox"} (alias
 * {@code unbounded-control-aware}).
 *
 * <p>It is two lock-free queues of the default kind, so a send costs what it costs in the default
 * mailbox plus one type check; a control message sent while the actor is processing a message is
 * the next one it gets. System messages (stop, watch, supervision) are not queued here and still
 * come first.
 *
 * <p>This class only names the mailbox type for configuration; the runtime creates the queues.
 */
public final class UnboundedControlAwareMailbox {
  /** The value of {@code mailbox-type} that selects this mailbox. */
  public static final String TYPE = "dev.troupe.dispatch.UnboundedControlAwareMailbox";

  private UnboundedControlAwareMailbox() {}
}
