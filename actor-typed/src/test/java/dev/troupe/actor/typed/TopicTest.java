package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.pubsub.Topic;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Topics in one system: every subscriber gets every message in the publisher's order, an
 * unsubscribed or stopped subscriber gets no more, topic actors of one name and message class share
 * their subscribers (through the receptionist), and other names or classes are other topics.
 */
class TopicTest {
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("topic");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private <T> ActorRef<Topic.Command<T>> topic(Class<T> type, String name) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), Topic.create(type, name));
  }

  /**
   * Asks {@code topic} for its stats until they are {@code expected}: the receptionist's listing
   * reaches the topic in its own time, and nothing announces it; fails after {@link Probe#WAIT}.
   */
  private void awaitStats(ActorRef<? extends Topic.Command<?>> topic, Topic.TopicStats expected) {
    Probe<Topic.TopicStats> stats = new Probe<>(system);
    new TestKit(Adapter.toClassic(system)).awaitAssert(Probe.WAIT, () -> {
      topic.unsafeUpcast().tell(Topic.getTopicStats(stats.ref()));
      assertEquals(expected, stats.expectClass(Topic.TopicStats.class), "the topic's stats");
      return null;
    });
  }

  @Test
  void everySubscriberGetsEveryMessageInOrderUntilItUnsubscribes() {
    ActorRef<Topic.Command<String>> news = topic(String.class, "news");
    Probe<String> one = new Probe<>(system);
    Probe<String> two = new Probe<>(system);
    news.tell(Topic.subscribe(one.ref()));
    news.tell(Topic.subscribe(two.ref()));
    news.tell(Topic.subscribe(two.ref())); // twice: still one subscription
    for (int i = 0; i < 100; i++) {
      news.tell(Topic.publish("m" + i));
    }
    for (int i = 0; i < 100; i++) {
      one.expect("m" + i);
      two.expect("m" + i);
    }
    awaitStats(news, new Topic.TopicStats(2, 2));
    news.tell(Topic.unsubscribe(one.ref()));
    news.tell(Topic.publish("after"));
    two.expect("after");
    one.expectNothing(Duration.ofMillis(200));
    awaitStats(news, new Topic.TopicStats(1, 1));
    news.tell(Topic.publish("later")); // after the receptionist's listing dropped it too
    two.expect("later");
    one.expectNothing(Duration.ofMillis(100));
  }

  @Test
  void aSubscriberThatStopsLeavesTheTopic() {
    ActorRef<Topic.Command<String>> news = topic(String.class, "news");
    Probe<String> two = new Probe<>(system);
    ActorRef<String> quitter = Adapter.spawnAnonymous(Adapter.toClassic(system),
        Behaviors.<String>receiveMessage(m -> m.equals("quit") ? Behaviors.stopped() : Behaviors.same()));
    news.tell(Topic.subscribe(quitter));
    news.tell(Topic.subscribe(two.ref()));
    awaitStats(news, new Topic.TopicStats(2, 2));
    news.tell(Topic.publish("quit"));
    two.expect("quit");
    awaitStats(news, new Topic.TopicStats(1, 1));
  }

  @Test
  void topicActorsOfOneNameAndClassShareSubscribersAndOthersAreOtherTopics() {
    ActorRef<Topic.Command<String>> here = topic(String.class, "shared");
    ActorRef<Topic.Command<String>> there = topic(String.class, "shared");
    ActorRef<Topic.Command<String>> otherName = topic(String.class, "elsewhere");
    ActorRef<Topic.Command<Integer>> otherClass = topic(Integer.class, "shared");
    Probe<String> subscriber = new Probe<>(system);
    Probe<Integer> numbers = new Probe<>(system);
    here.tell(Topic.subscribe(subscriber.ref()));
    otherClass.tell(Topic.subscribe(numbers.ref()));
    awaitStats(there, new Topic.TopicStats(0, 1));
    there.tell(Topic.publish("through the other topic actor"));
    subscriber.expect("through the other topic actor");
    otherName.tell(Topic.publish("not for it"));
    otherClass.tell(Topic.publish(7));
    numbers.expect(7);
    subscriber.expectNothing(Duration.ofMillis(200));
  }

  @Test
  void badArgumentsAreRefusedWhereTheyAreGiven() {
    assertThrows(IllegalArgumentException.class, () -> Topic.create(String.class, " "));
    assertThrows(NullPointerException.class, () -> Topic.create(null, "news"));
    assertThrows(NullPointerException.class, () -> Topic.publish(null));
    assertThrows(NullPointerException.class, () -> Topic.subscribe(null));
  }
}
