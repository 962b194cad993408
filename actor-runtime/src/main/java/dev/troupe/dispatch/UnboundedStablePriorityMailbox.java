package dev.troupe.dispatch;

import java.util.Comparator;
import java.util.Objects;

/**
 * An unbounded mailbox that delivers the waiting message that comes first in a {@link Comparator}
 * of messages; messages that compare equal keep their send order (stable).
 *
 * <p>Subclass it with a public no-argument constructor that passes the order, and name the
 * subclass in a mailbox section:
 *
 * <pre>{@code
 * public final class UrgentFirst extends UnboundedStablePriorityMailbox {
 *   public UrgentFirst() {
 *     super(Comparator.comparingInt(m -> m instanceof Urgent ? 0 : 1));
 *   }
 * }
 * // troupe.actor.urgent-first-mailbox { mailbox-type = "com.example.UrgentFirst" }
 * // Props.create(Worker.class).withMailbox("urgent-first-mailbox")
 * }</pre>
 *
 * <p>The runtime creates one instance per mailbox section, on first use, and shares its
 * comparator among all mailboxes of that section and all their senders: it must be thread-safe
 * (comparators that only read the messages are). It runs on the sender's thread; an exception it
 * throws reaches the sender's {@code tell}.
 *
 * <p>A priority queue needs a lock: a send and a receive each take it, and each message carries a
 * small node of its own, so this mailbox is slower than the default lock-free one under many
 * concurrent senders; use it where the order matters. Priority is among the messages waiting when
 * the actor takes the next one. System messages are not queued here and still come first.
 */
public abstract class UnboundedStablePriorityMailbox {
  private final Comparator<Object> order;

  /**
   * @param order the delivery order of messages, smallest first; not null
   */
  protected UnboundedStablePriorityMailbox(Comparator<Object> order) {
    this.order = Objects.requireNonNull(order, "order");
  }

  /** @return the delivery order of messages, smallest first */
  public final Comparator<Object> order() {
    return order;
  }
}
