package dev.troupe.dispatch;

import java.util.Comparator;
import java.util.Objects;

/**
 * A {@linkplain UnboundedStablePriorityMailbox stable priority mailbox} with a fixed capacity, like
 * {@link BoundedMailbox}: a sender finding it full waits up to {@code mailbox-push-timeout-time}
 * for room, then the message goes to dead letters (an interrupted sender stops waiting, keeps its
 * interrupt, and the message goes to dead letters too).
 *
 * <p>Subclass it with a public no-argument constructor that passes the order; the bounds come from
 * the mailbox section:
 *
 * <pre>{@code
 * public final class BoundedUrgentFirst extends BoundedStablePriorityMailbox {
 *   public BoundedUrgentFirst() {
 *     super(Comparator.comparingInt(m -> m instanceof Urgent ? 0 : 1));
 *   }
 * }
 * // troupe.actor.urgent-first-mailbox {
 * //   mailbox-type = "com.example.BoundedUrgentFirst"
 * //   mailbox-capacity = 1000
 * //   mailbox-push-timeout-time = 0s
 * // }
 * }</pre>
 *
 * <p>The comparator is shared and runs on senders' threads, as in {@link
 * UnboundedStablePriorityMailbox}; the queue takes a lock per send and per receive, so it is slower
 * than the default lock-free mailbox.
 */
public abstract class BoundedStablePriorityMailbox {
  private final Comparator<Object> order;

  /**
   * @param order the delivery order of messages, smallest first; not null
   */
  protected BoundedStablePriorityMailbox(Comparator<Object> order) {
    this.order = Objects.requireNonNull(order, "order");
  }

  /** @return the delivery order of messages, smallest first */
  public final Comparator<Object> order() {
    return order;
  }
}
