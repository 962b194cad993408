package dev.troupe.cluster.pubsub;

import dev.troupe.actor.ActorRef;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the publish-subscribe mediator ({@link DistributedPubSub#mediator()}) understands and
 * answers. Every message is sent to this node's mediator; it reaches actors on every member.
 *
 * <ul>
 *   <li>{@link Subscribe} an actor to a topic (optionally in a group), {@link Unsubscribe} it; the
 *       sender of either gets {@link SubscribeAck} / {@link UnsubscribeAck}. A subscriber that
 *       stops is unsubscribed.
 *   <li>{@link Publish} a message to a topic: every subscriber outside groups gets it once, on
 *       whatever member it runs; with {@code sendOneMessageToEachGroup}, one subscriber of each
 *       group gets it instead (and subscribers outside groups do not).
 *   <li>{@link Put} an actor of this node under its path ({@code /user/orders}); {@link Send} a
 *       message to one actor put under a path on any member (this node's first with {@code
 *       localAffinity}), {@link SendToAll} of them; {@link Remove} the path.
 *   <li>{@link GetTopics} answers {@link CurrentTopics}; {@link CountSubscribers} answers an {@code
 *       Integer}, this node's subscribers to the topic.
 * </ul>
 *
 * <p>Messages keep the sender they were published or sent with. Those of one sender to one
 * subscriber arrive in the order they were sent. A message with no one to reach goes to the dead
 * letters ({@code troupe.cluster.pub-sub.send-to-dead-letters-when-no-subscribers}). Subscriptions
 * spread to the other members asynchronously: a message published right after a subscription on
 * another member may miss it (wait for the topic in {@link CurrentTopics} on the publishing
 * member when that matters).
 */
public final class DistributedPubSubMediator {
  private DistributedPubSubMediator() {}

  private static String named(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(what + " must not contain the character U+0000: " + value.replace('\0', '?'));
    }
    return value;
  }

  private static Optional<String> checkGroup(Optional<String> group) {
    Objects.requireNonNull(group, "group");
    group.ifPresent(g -> named(g, "group"));
    return group;
  }

  /**
   * Subscribes {@code ref} to {@code topic}, in {@code group} if one is given; the sender gets
   * {@link SubscribeAck}. Subscribing twice is one subscription.
   *
   * @param topic the topic; not empty
   * @param group the group, or empty for none
   * @param ref the subscriber
   */
  public record Subscribe(String topic, Optional<String> group, ActorRef ref) {
    public Subscribe {
      named(topic, "topic");
      checkGroup(group);
      Objects.requireNonNull(ref, "ref");
    }

    /**
     * @param topic the topic
     * @param ref the subscriber
     */
    public Subscribe(String topic, ActorRef ref) {
      this(topic, Optional.empty(), ref);
    }

    /**
     * @param topic the topic
     * @param group the group
     * @param ref the subscriber
     */
    public Subscribe(String topic, String group, ActorRef ref) {
      this(topic, Optional.of(group), ref);
    }
  }

  /**
   * Ends a subscription; the sender gets {@link UnsubscribeAck} (also when there was none).
   *
   * @param topic the topic
   * @param group the group it was subscribed in, or empty
   * @param ref the subscriber
   */
  public record Unsubscribe(String topic, Optional<String> group, ActorRef ref) {
    public Unsubscribe {
      named(topic, "topic");
      checkGroup(group);
      Objects.requireNonNull(ref, "ref");
    }

    /**
     * @param topic the topic
     * @param ref the subscriber
     */
    public Unsubscribe(String topic, ActorRef ref) {
      this(topic, Optional.empty(), ref);
    }

    /**
     * @param topic the topic
     * @param group the group
     * @param ref the subscriber
     */
    public Unsubscribe(String topic, String group, ActorRef ref) {
      this(topic, Optional.of(group), ref);
    }
  }

  /**
   * The answer to a {@link Subscribe}, once the subscription is in place on this node.
   *
   * @param subscribe what it answers
   */
  public record SubscribeAck(Subscribe subscribe) {}

  /**
   * The answer to an {@link Unsubscribe}.
   *
   * @param unsubscribe what it answers
   */
  public record UnsubscribeAck(Unsubscribe unsubscribe) {}

  /**
   * Publishes {@code msg} to the subscribers of {@code topic} on every member.
   *
   * @param topic the topic
   * @param msg the message; sent across the cluster, so it needs a serializer binding there
   * @param sendOneMessageToEachGroup false: every subscriber outside groups; true: one subscriber of
   *     each group
   */
  public record Publish(String topic, Object msg, boolean sendOneMessageToEachGroup) {
    public Publish {
      named(topic, "topic");
      Objects.requireNonNull(msg, "msg");
    }

    /**
     * @param topic the topic
     * @param msg the message, to every subscriber outside groups
     */
    public Publish(String topic, Object msg) {
      this(topic, msg, false);
    }

    /** @return the message published */
    public Object message() {
      return msg;
    }
  }

  /**
   * Sends {@code msg} to one actor put under {@code path} on some member.
   *
   * @param path the path without address, e.g. {@code /user/orders}
   * @param msg the message
   * @param localAffinity whether this node's actor, if there is one, is preferred
   */
  public record Send(String path, Object msg, boolean localAffinity) {
    public Send {
      named(path, "path");
      Objects.requireNonNull(msg, "msg");
    }

    /**
     * @param path the path without address
     * @param msg the message, to one of the actors put under it anywhere
     */
    public Send(String path, Object msg) {
      this(path, msg, false);
    }

    /** @return the message sent */
    public Object message() {
      return msg;
    }
  }

  /**
   * Sends {@code msg} to every actor put under {@code path}, one per member.
   *
   * @param path the path without address
   * @param msg the message
   * @param allButSelf whether this node's actor is left out
   */
  public record SendToAll(String path, Object msg, boolean allButSelf) {
    public SendToAll {
      named(path, "path");
      Objects.requireNonNull(msg, "msg");
    }

    /**
     * @param path the path without address
     * @param msg the message, to all of them, this node's included
     */
    public SendToAll(String path, Object msg) {
      this(path, msg, false);
    }

    /** @return the message sent */
    public Object message() {
      return msg;
    }
  }

  /**
   * Puts an actor of this node under its path without address, for {@link Send} and {@link
   * SendToAll} from any member; it replaces an actor put under the same path before, and leaves
   * when it stops. An actor of another node is refused with a warning.
   *
   * @param ref the actor
   */
  public record Put(ActorRef ref) {
    public Put {
      Objects.requireNonNull(ref, "ref");
    }
  }

  /**
   * Removes what was put under {@code path} on this node.
   *
   * @param path the path without address
   */
  public record Remove(String path) {
    public Remove {
      named(path, "path");
    }
  }

  /** Asks for the topics with subscribers anywhere in the cluster: answered with {@link CurrentTopics}. */
  public enum GetTopics {
    /** The one instance. */
    INSTANCE
  }

  /** @return {@link GetTopics#INSTANCE}, by Pekko's Java name */
  public static GetTopics getTopicsInstance() {
    return GetTopics.INSTANCE;
  }

  /**
   * The topics with subscribers (in groups or not) on this member or, as far as it has heard, on
   * another.
   *
   * @param topics their names
   */
  public record CurrentTopics(Set<String> topics) {
    public CurrentTopics {
      topics = Set.copyOf(topics);
    }

    /** @return {@link #topics()}, by Pekko's Java name */
    public Set<String> getTopics() {
      return topics;
    }
  }

  /**
   * Asks how many listings this member knows of: each topic, group and path with actors on a
   * member counts once for that member, this one included. Answered with an {@code Integer}; a test
   * polls it to wait until subscriptions made elsewhere have reached this member.
   */
  public enum Count {
    /** The one instance. */
    INSTANCE
  }

  /** @return {@link Count#INSTANCE}, by Pekko's Java name */
  public static Count getCountInstance() {
    return Count.INSTANCE;
  }

  /**
   * Asks for this node's number of subscribers to {@code topic} (in groups or not): answered with
   * an {@code Integer}.
   *
   * @param topic the topic
   */
  public record CountSubscribers(String topic) {
    public CountSubscribers {
      named(topic, "topic");
    }
  }
}
