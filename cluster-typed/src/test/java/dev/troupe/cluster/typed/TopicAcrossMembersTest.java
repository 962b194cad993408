package dev.troupe.cluster.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.pubsub.Topic;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A topic across a two-member cluster in this JVM: on a cluster member the receptionist is
 * cluster-wide, so a message published on one member reaches the subscribers of the other, in the
 * publisher's order, and one that unsubscribes there is dropped here once the listing says so.
 */
@Timeout(60)
class TopicAcrossMembersTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  /** The topic's messages (Jackson writes them between the members). */
  record News(String text) {}

  private List<ActorSystem> members = List.of();

  @AfterEach
  void stop() {
    Members.stop(members);
  }

  /** Asks the topic for its stats until it counts {@code n} subscribers (no event announces it). */
  private static void awaitSubscribers(ActorSystem on, ActorRef<Topic.Command<News>> topic, int n) {
    TestProbe<Topic.TopicStats> stats = TestProbe.create(Adapter.toTyped(on));
    stats.awaitAssert(WAIT, () -> {
      topic.tell(Topic.getTopicStats(stats.getRef()));
      Topic.TopicStats seen = stats.receiveMessage(WAIT);
      assertEquals(n, seen.subscriberCount(), "subscribers seen (the listing crosses between the members): " + seen);
      return seen;
    });
  }

  @Test
  void aMessagePublishedOnOneMemberReachesTheSubscribersOfTheOther() {
    members = Members.start("topic", 2, News.class, WAIT);
    ActorSystem a = members.get(0);
    ActorSystem b = members.get(1);
    ActorRef<Topic.Command<News>> onA = Adapter.spawn(a, Topic.create(News.class, "news"), "news");
    ActorRef<Topic.Command<News>> onB = Adapter.spawn(b, Topic.create(News.class, "news"), "news");
    TestProbe<News> readerOnB = TestProbe.create(Adapter.toTyped(b));
    TestProbe<News> readerOnA = TestProbe.create(Adapter.toTyped(a));
    onB.tell(Topic.subscribe(readerOnB.getRef()));
    onA.tell(Topic.subscribe(readerOnA.getRef()));
    awaitSubscribers(a, onA, 2);
    for (int i = 0; i < 20; i++) {
      onA.tell(Topic.publish(new News("n" + i)));
    }
    for (int i = 0; i < 20; i++) {
      readerOnB.expectMessage(WAIT, new News("n" + i));
      readerOnA.expectMessage(WAIT, new News("n" + i));
    }
    onB.tell(Topic.unsubscribe(readerOnB.getRef()));
    awaitSubscribers(a, onA, 1);
    onA.tell(Topic.publish(new News("after")));
    readerOnA.expectMessage(WAIT, new News("after"));
    readerOnB.expectNoMessage(Duration.ofMillis(300));
  }
}
