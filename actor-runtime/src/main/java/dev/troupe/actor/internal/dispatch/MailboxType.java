package dev.troupe.actor.internal.dispatch;

import dev.troupe.runtime.spi.ConfigReader;
import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.dispatch.BoundedStablePriorityMailbox;
import dev.troupe.dispatch.UnboundedStablePriorityMailbox;
import java.time.Duration;

/** A parsed mailbox section: which queue a mailbox of this kind gets. */
public sealed interface MailboxType {
  /** Config value of the unbounded default. */
  String UNBOUNDED = dev.troupe.dispatch.UnboundedMailbox.TYPE;

  /** Config value of the bounded mailbox. */
  String BOUNDED = dev.troupe.dispatch.BoundedMailbox.TYPE;

  /** Config value of the control-aware mailbox. */
  String CONTROL_AWARE = dev.troupe.dispatch.UnboundedControlAwareMailbox.TYPE;

  /** Config value of the deque mailbox. */
  String DEQUE = dev.troupe.dispatch.UnboundedDequeMailbox.TYPE;

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

  /** {@code UnboundedControlAwareMailbox}: control messages first, see {@link ControlAwareQueue}. */
  record ControlAware() implements MailboxType {
    @Override
    public MessageQueue newQueue() {
      return new ControlAwareQueue();
    }
  }

  /**
   * {@code UnboundedDequeMailbox}: the default queue; the mailbox's own front deque serves the
   * stash for every mailbox type.
   */
  record Deque() implements MailboxType {
    @Override
    public MessageQueue newQueue() {
      return new NodeQueue();
    }
  }

  /**
   * A subclass of {@code UnboundedStablePriorityMailbox} or {@code BoundedStablePriorityMailbox}.
   *
   * @param order the subclass's order of messages
   * @param capacity the bound, {@code Integer.MAX_VALUE} for none
   * @param pushTimeout how long a sender waits for room; zero = not at all
   */
  record StablePriority(java.util.Comparator<Object> order, int capacity, Duration pushTimeout)
      implements MailboxType {
    @Override
    public MessageQueue newQueue() {
      return new PriorityMessageQueue(order, capacity, pushTimeout.toNanos());
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
    String type = ConfigReader.string(section, id, "mailbox-type");
    switch (type) {
      case UNBOUNDED:
      case "unbounded":
        return new Unbounded();
      case BOUNDED:
      case "bounded":
        return new Bounded(capacity(id, section), pushTimeout(id, section));
      case CONTROL_AWARE:
      case "unbounded-control-aware":
        return new ControlAware();
      case DEQUE:
      case "unbounded-deque":
        return new Deque();
      default:
        return priority(id, section, type);
    }
  }

  private static int capacity(String id, Config section) {
    return ConfigReader.intAtLeast(section, id, "mailbox-capacity", 1);
  }

  private static Duration pushTimeout(String id, Config section) {
    return ConfigReader.durationAtLeastZero(section, id, "mailbox-push-timeout-time");
  }

  /** A user's subclass of one of the stable priority mailboxes, named by its class. */
  private static MailboxType priority(String id, Config section, String className) {
    String key = id + ".mailbox-type";
    Class<?> c;
    try {
      ClassLoader l = Thread.currentThread().getContextClassLoader();
      c = Class.forName(className, true, l != null ? l : MailboxType.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException(
          "unknown mailbox type '" + className + "' at " + key + ": expected " + UNBOUNDED + ", "
              + BOUNDED + ", " + CONTROL_AWARE + ", " + DEQUE
              + " (or their aliases), or the class name of a subclass of "
              + UnboundedStablePriorityMailbox.class.getName() + " or "
              + BoundedStablePriorityMailbox.class.getName(), e);
    }
    boolean bounded = BoundedStablePriorityMailbox.class.isAssignableFrom(c);
    if (!bounded && !UnboundedStablePriorityMailbox.class.isAssignableFrom(c)) {
      throw new ConfigurationException(
          "invalid mailbox type '" + className + "' at " + key + ": a mailbox class must extend "
              + UnboundedStablePriorityMailbox.class.getName() + " or "
              + BoundedStablePriorityMailbox.class.getName());
    }
    Object instance;
    try {
      instance = c.getConstructor().newInstance();
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw new ConfigurationException(
          key + " = " + className + ": its constructor failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ConfigurationException(
          key + " = " + className + ": needs to be a public, non-abstract class with a public "
              + "no-argument constructor that passes its Comparator to super (" + e + ")", e);
    }
    if (bounded) {
      return new StablePriority(
          ((BoundedStablePriorityMailbox) instance).order(),
          capacity(id, section),
          pushTimeout(id, section));
    }
    return new StablePriority(
        ((UnboundedStablePriorityMailbox) instance).order(), Integer.MAX_VALUE, Duration.ZERO);
  }
}
