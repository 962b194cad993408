package dev.troupe.dispatch;

/**
 * The unbounded mailbox under the name of a deque-based one, for configurations written for a
 * stash that needs one. Name it in config as {@code mailbox-type =
 * "dev.troupe.dispatch.UnboundedDequeMailbox"} (alias {@code unbounded-deque}).
 *
 * <p>Troupe's stash does not need a deque-based mailbox: {@code unstash}/{@code unstashAll} put
 * the messages back in front through a small deque of the mailbox itself, which only the actor's
 * own thread touches, and that works with every mailbox type (bounded, priority and control-aware
 * ones included). So this mailbox is the default lock-free queue: messages in send order, and
 * unstashed ones before them.
 *
 * <p>This class only names the mailbox type for configuration; the runtime creates the queues.
 */
public final class UnboundedDequeMailbox {
  /** The value of {@code mailbox-type} that selects this mailbox. */
  public static final String TYPE = "dev.troupe.dispatch.UnboundedDequeMailbox";

  private UnboundedDequeMailbox() {}
}
