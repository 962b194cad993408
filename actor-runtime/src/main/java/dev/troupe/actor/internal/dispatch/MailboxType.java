package dev.troupe.actor.internal.dispatch;

import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import java.time.Duration;

/** A parsed mailbox section: which queue a mailbox of this kind gets. */
public sealed interface MailboxType {
  /** Config value of the unbounded default. */
  String UNBOUNDED = dev.troupe.dispatch.UnboundedMailbox.TYPE;

  /** Config value of the bounded mailbox. */
  String BOUNDED = dev.troupe.dispatch.BoundedMailbox.TYPE;

  /** @return a fresh queue */
  MessageQueue newQueue();

  /** The default: an intrusive unbounded MPSC queue. */
  record Unbounded() implements MailboxType {
    @Override
    public MessageQueue newQueue() {
      return new NodeQueue();
    }
  }

  /**
   * A bounded queue: a sender finding it full waits up to {@code pushTimeout}, then the message
   * goes to dead letters.
   *
   * @param capacity the bound
   * @param pushTimeout how long a sender waits for room; zero = not at all
   */
  record Bounded(int capacity, Duration pushTimeout) implements MailboxType {
    @Override
    public MessageQueue newQueue() {
      return new BoundedNodeQueue(capacity, pushTimeout.toNanos());
    }
  }

  /**
   * Parses a mailbox section.
   *
   * @param id the section's path, for error messages
   * @param section the section
   * @return the type
   * @throws ConfigurationException naming the key on any bad value
   */
  static MailboxType from(String id, Config section) {
    String type = Settings.string(section, id, "mailbox-type");
    switch (type) {
      case UNBOUNDED:
      case "unbounded":
        return new Unbounded();
      case BOUNDED:
      case "bounded":
        int capacity = Settings.intAtLeast(section, id, "mailbox-capacity", 1);
        Duration timeout = Settings.durationAtLeastZero(section, id, "mailbox-push-timeout-time");
        return new Bounded(capacity, timeout);
      default:
        throw new ConfigurationException(
            "unknown mailbox type '"
                + type
                + "' at "
                + id
                + ".mailbox-type: expected "
                + UNBOUNDED
                + " or "
                + BOUNDED);
    }
  }
}
