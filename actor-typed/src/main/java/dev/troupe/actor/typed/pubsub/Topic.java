package dev.troupe.actor.typed.pubsub;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Publish and subscribe by topic name: a topic actor ({@link #create}) takes subscriptions of local
 * actors and delivers each published message to every subscriber of the topic, in this system and,
 * on a cluster member, on every member that runs a topic actor of the same name and message class.
 *
 * <pre>{@code
 * ActorRef<Topic.Command<News>> news = ctx.spawn(Topic.create(News.class, "news"), "news-topic");
 * news.tell(Topic.subscribe(ctx.getSelf()));          // ctx.getSelf() is an ActorRef<News>
 * news.tell(Topic.publish(new News("hello")));        // to every subscriber, wherever it runs
 * }</pre>
 *
 * <p>How: the topic actor registers its subscribers with the receptionist under the topic's key and
 * follows the key's listing, which is cluster-wide on a cluster member; a message goes from the
 * publishing member's topic actor straight to each subscriber (one send per subscriber, remote ones
 * over remoting, so the topic's messages need a serialization binding). Its own subscribers it knows
 * at once; another member's become known when the receptionist's listing reaches this member. A
 * subscriber that stops leaves the topic; one that unsubscribes gets no later message published
 * through this topic actor. Order holds per publisher and subscriber (one sender, one receiver);
 * delivery is at most once, as for any message. The receptionist's bounds apply (a member lists
 * at most 2048 instances in all): a topic is for tens or hundreds of subscribers, not millions.
 */
public final class Topic {
  private Topic() {}

  /**
   * What a topic actor accepts.
   *
   * @param <T> the topic's messages
   */
  public interface Command<T> {}

  /**
   * A topic actor: spawn one per topic name (or several: they share the subscribers) on every member
   * that publishes or subscribes.
   *
   * @param messageClass the topic's messages
   * @param topicName the topic's name; not blank
   * @param <T> the topic's messages
   * @return the topic actor's behaviour
   */
  public static <T> Behavior<Command<T>> create(Class<T> messageClass, String topicName) {
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(topicName, "topicName");
    if (topicName.isBlank()) {
      throw new IllegalArgumentException("a topic's name must not be blank");
    }
    ServiceKey<T> key = ServiceKey.create(messageClass, "topic:" + topicName);
    return Behaviors.setup(ctx -> new State<>(ctx, key).behavior());
  }

  /**
   * @param message what every subscriber gets
   * @param <T> the topic's messages
   * @return the command
   */
  public static <T> Command<T> publish(T message) {
    return new Publish<>(Objects.requireNonNull(message, "message"));
  }

  /**
   * @param subscriber an actor of this system, to get the topic's messages until it stops or
   *     unsubscribes
   * @param <T> the topic's messages
   * @return the command
   */
  public static <T> Command<T> subscribe(ActorRef<T> subscriber) {
    return new Subscribe<>(Objects.requireNonNull(subscriber, "subscriber"));
  }

  /**
   * @param subscriber a subscriber
   * @param <T> the topic's messages
   * @return the command
   */
  public static <T> Command<T> unsubscribe(ActorRef<T> subscriber) {
    return new Unsubscribe<>(Objects.requireNonNull(subscriber, "subscriber"));
  }

  /**
   * @param replyTo gets the topic actor's {@link TopicStats}
   * @param <T> the topic's messages
   * @return the command
   */
  public static <T> Command<T> getTopicStats(ActorRef<TopicStats> replyTo) {
    return new GetTopicStats<>(Objects.requireNonNull(replyTo, "replyTo"));
  }

  /**
   * What a topic actor knows.
   *
   * @param localSubscriberCount the subscribers it took itself
   * @param subscriberCount all the subscribers it publishes to (its own and those the listing names)
   */
  public record TopicStats(int localSubscriberCount, int subscriberCount) {}

  record Publish<T>(T message) implements Command<T> {}

  record Subscribe<T>(ActorRef<T> subscriber) implements Command<T> {}

  record Unsubscribe<T>(ActorRef<T> subscriber) implements Command<T> {}

  record GetTopicStats<T>(ActorRef<TopicStats> replyTo) implements Command<T> {}

  /** The receptionist's listing of the topic's subscribers, through a message adapter. */
  record Listed<T>(Receptionist.Listing listing) implements Command<T> {}

  /** A subscriber of this topic actor stopped. */
  record SubscriberStopped<T>(ActorRef<T> subscriber) implements Command<T> {}

  /** One topic actor's subscribers. Actor thread only. */
  private static final class State<T> {
    private final ActorContext<Command<T>> ctx;
    private final ServiceKey<T> key;
    private final Set<ActorRef<T>> local = new HashSet<>();
    /** The listing's instances, less those in {@link #leaving}. */
    private Set<ActorRef<T>> listed = Set.of();
    /**
     * Subscribers that left here and that the last listing still named: kept out of the listings
     * until one comes without them (the receptionist has taken them out).
     */
    private final Set<ActorRef<T>> leaving = new HashSet<>();

    State(ActorContext<Command<T>> ctx, ServiceKey<T> key) {
      this.ctx = ctx;
      this.key = key;
      ActorRef<Receptionist.Listing> listings = ctx.messageAdapter(Receptionist.Listing.class, Listed::new);
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(key, listings));
    }

    Behavior<Command<T>> behavior() {
      return Behaviors.receiveMessage(m -> {
        if (m instanceof Publish<T> p) {
          publish(p.message());
        } else if (m instanceof Subscribe<T> s) {
          subscribe(s.subscriber());
        } else if (m instanceof Unsubscribe<T> u) {
          if (local.remove(u.subscriber())) {
            ctx.unwatch(u.subscriber());
            ctx.getSystem().receptionist().tell(Receptionist.deregister(key, u.subscriber()));
            left(u.subscriber());
          }
        } else if (m instanceof SubscriberStopped<T> s) {
          local.remove(s.subscriber());
          left(s.subscriber());
        } else if (m instanceof Listed<T> l) {
          listed(l.listing().getServiceInstances(key));
        } else if (m instanceof GetTopicStats<T> g) {
          g.replyTo().tell(new TopicStats(local.size(), subscribers().size()));
        }
        return Behaviors.same();
      });
    }

    private void publish(T message) {
      Set<ActorRef<T>> to = subscribers();
      for (ActorRef<T> s : to) {
        s.tell(message);
      }
      if (to.isEmpty()) {
        ctx.getLog().debug("{} has no subscribers: {} not delivered", key.id(), message.getClass().getName());
      }
    }

    private void subscribe(ActorRef<T> subscriber) {
      if (local.add(subscriber)) {
        leaving.remove(subscriber);
        ctx.watchWith(subscriber, new SubscriberStopped<>(subscriber));
        ctx.getSystem().receptionist().tell(Receptionist.register(key, subscriber));
      }
    }

    private void left(ActorRef<T> subscriber) {
      if (listed.contains(subscriber)) {
        Set<ActorRef<T>> rest = new HashSet<>(listed);
        rest.remove(subscriber);
        listed = rest;
        leaving.add(subscriber);
      }
    }

    private void listed(Set<ActorRef<T>> instances) {
      leaving.retainAll(instances); // those the receptionist has taken out need no filter any more
      if (leaving.isEmpty()) {
        listed = instances;
      } else {
        Set<ActorRef<T>> rest = new HashSet<>(instances);
        rest.removeAll(leaving);
        listed = rest;
      }
    }

    /** @return this actor's subscribers and the listing's, each once */
    private Set<ActorRef<T>> subscribers() {
      if (listed.containsAll(local)) {
        return listed;
      }
      Set<ActorRef<T>> all = new HashSet<>(listed);
      all.addAll(local);
      return all;
    }
  }
}
