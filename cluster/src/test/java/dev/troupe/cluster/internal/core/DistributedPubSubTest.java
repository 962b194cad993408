package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.pubsub.DistributedPubSub;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Count;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.CountSubscribers;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.CurrentTopics;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.GetTopics;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Publish;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Put;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Remove;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Send;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.SendToAll;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Subscribe;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.SubscribeAck;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Unsubscribe;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.UnsubscribeAck;
import dev.troupe.cluster.pubsub.DistributedPubSubSettings;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Publish-subscribe across a cluster (in-memory engine, members on 127.0.0.1 in this JVM): a
 * published message reaches every subscriber on every member once, in its sender's order and with
 * its sender; a group's message reaches one of the group; actors put under a path are sent to one
 * or all; subscribers that unsubscribe, stop, or whose member leaves are no longer reached; a
 * message that reaches no one goes to the dead letters; bad input is refused where it is made.
 */
@Timeout(120)
class DistributedPubSubTest {
  /** How long a change may take to reach another member on a loaded 2-core machine. */
  private static final Duration CHANGE = Duration.ofSeconds(15);
  private static final Duration POLL = Duration.ofMillis(50);

  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  private static ActorRef mediator(ActorSystem system) {
    return DistributedPubSub.get(system).mediator();
  }

  /** Hands every message to a probe as {@code tag:message}, keeping the sender. */
  static final class Tagged extends AbstractActor {
    private final String tag;
    private final ActorRef probe;

    Tagged(String tag, ActorRef probe) {
      this.tag = tag;
      this.probe = probe;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> probe.tell(tag + ":" + m, getSender())).build();
    }
  }

  private static ActorRef tagged(ActorSystem on, String name, ActorRef probe) {
    return on.actorOf(Props.create(Tagged.class, () -> new Tagged(name, probe)), name);
  }

  /** Subscribes {@code ref} on {@code system} and waits for the acknowledgement. */
  private static void subscribe(ActorSystem system, Subscribe s) {
    TestKit kit = new TestKit(system);
    kit.send(mediator(system), s);
    assertEquals(new SubscribeAck(s), kit.expectMsgClass(CHANGE, SubscribeAck.class));
  }

  private static int ask(ActorSystem system, Object query) {
    TestKit kit = new TestKit(system);
    kit.send(mediator(system), query);
    return kit.expectMsgClass(CHANGE, Integer.class);
  }

  /** Waits until {@code system}'s mediator knows of {@code n} listings (polled: no event announces it). */
  private static void awaitListings(ActorSystem system, int n, String what) {
    new TestKit(system).awaitCond(CHANGE, POLL, what + ": " + n + " listings known on " + system.address(),
        () -> ask(system, Count.INSTANCE) == n);
  }

  @Test
  void aPublishedMessageReachesEverySubscriberOnEveryMemberOnceInOrderWithItsSender() {
    List<ActorSystem> s = nodes.formInMemory("pubsub", 3);
    List<TestKit> subscribers = List.of(new TestKit(s.get(0)), new TestKit(s.get(0)), new TestKit(s.get(1)),
        new TestKit(s.get(2)));
    for (TestKit sub : subscribers) {
      subscribe(sub.getSystem(), new Subscribe("news", sub.getRef()));
    }
    for (ActorSystem member : s) {
      awaitListings(member, 3, "the topic listed by every member");
    }
    TestKit publisher = new TestKit(s.get(2));
    for (int i = 0; i < 100; i++) {
      publisher.send(mediator(s.get(2)), new Publish("news", "n" + i));
    }
    for (TestKit sub : subscribers) {
      for (int i = 0; i < 100; i++) {
        sub.expectMsg(CHANGE, "n" + i, "message " + i + " to the subscriber on " + sub.getSystem().address());
        assertEquals(publisher.getRef().path().toStringWithoutAddress(),
            sub.getLastSender().path().toStringWithoutAddress(), "the publisher is the sender");
      }
    }
    for (TestKit sub : subscribers) {
      sub.expectNoMessage(Duration.ofMillis(200)); // once each, not once per listing
    }

    TestKit topics = new TestKit(s.get(1));
    topics.send(mediator(s.get(1)), GetTopics.INSTANCE);
    assertEquals(Set.of("news"), topics.expectMsgClass(CurrentTopics.class).getTopics());
    assertEquals(2, ask(s.get(0), new CountSubscribers("news")), "A's own subscribers");
    assertEquals(0, ask(s.get(0), new CountSubscribers("sports")));
  }

  @Test
  void aGroupsMessageReachesOneOfTheGroupAndNotTheSubscribersOutsideGroups() {
    List<ActorSystem> s = nodes.formInMemory("groups", 3);
    TestKit inbox = new TestKit(s.get(0)); // every member's actors report here (across the cluster)
    subscribe(s.get(0), new Subscribe("jobs", "workers", tagged(s.get(0), "w-a1", inbox.getRef())));
    subscribe(s.get(0), new Subscribe("jobs", "workers", tagged(s.get(0), "w-a2", inbox.getRef())));
    subscribe(s.get(1), new Subscribe("jobs", "workers", tagged(s.get(1), "w-b", inbox.getRef())));
    subscribe(s.get(2), new Subscribe("jobs", "auditors", tagged(s.get(2), "audit-c", inbox.getRef())));
    subscribe(s.get(0), new Subscribe("jobs", tagged(s.get(0), "plain-a", inbox.getRef())));
    // on B: workers on A and B, auditors on C, the plain topic on A
    awaitListings(s.get(1), 4, "the groups and the topic listed on B");

    int n = 30;
    TestKit publisher = new TestKit(s.get(1));
    for (int i = 0; i < n; i++) {
      publisher.send(mediator(s.get(1)), new Publish("jobs", "j" + i, true));
    }
    Map<String, Integer> perGroup = new HashMap<>();
    for (Object o : inbox.receiveN(2 * n, CHANGE)) {
      String tag = ((String) o).substring(0, ((String) o).indexOf(':'));
      assertTrue(tag.startsWith("w-") || tag.equals("audit-c"), "only group members get a group's message: " + o);
      perGroup.merge(tag.startsWith("w-") ? "workers" : "auditors", 1, Integer::sum);
    }
    assertEquals(Map.of("workers", n, "auditors", n), perGroup, "each message once per group");

    publisher.send(mediator(s.get(1)), new Publish("jobs", "to-all"));
    assertEquals("plain-a:to-all", inbox.expectMsgClass(CHANGE, String.class), "only the subscriber outside groups");
    inbox.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void actorsPutUnderAPathAreSentToOneOrAllAndLeaveWhenRemoved() {
    List<ActorSystem> s = nodes.formInMemory("paths", 3);
    TestKit inbox = new TestKit(s.get(0));
    ActorRef onA = tagged(s.get(0), "orders", inbox.getRef());
    ActorRef onB = tagged(s.get(1), "orders", inbox.getRef());
    mediator(s.get(0)).tell(new Put(onA), ActorRef.noSender());
    mediator(s.get(1)).tell(new Put(onB), ActorRef.noSender());
    awaitListings(s.get(2), 2, "the path listed by A and B, on C");
    awaitListings(s.get(0), 2, "the path listed by A and B, on A");

    TestKit sender = new TestKit(s.get(2));
    sender.send(mediator(s.get(2)), new SendToAll("/user/orders", "all"));
    List<Object> both = inbox.receiveN(2, CHANGE);
    assertEquals(2, both.size());
    assertTrue(both.stream().allMatch("orders:all"::equals), both.toString());

    // with local affinity, A's own actor every time
    TestKit onASender = new TestKit(s.get(0));
    for (int i = 0; i < 10; i++) {
      onASender.send(mediator(s.get(0)), new Send("/user/orders", "near" + i, true));
    }
    for (int i = 0; i < 10; i++) {
      inbox.expectMsg(CHANGE, "orders:near" + i);
      assertEquals(onASender.getRef(), inbox.getLastSender(), "the sender kept");
    }

    // all but this node's own: only B's
    onASender.send(mediator(s.get(0)), new SendToAll("/user/orders", "others", true));
    inbox.expectMsg(CHANGE, "orders:others");
    inbox.expectNoMessage(Duration.ofMillis(200));

    // B removes its path: a Send from C reaches A every time
    mediator(s.get(1)).tell(new Remove("/user/orders"), ActorRef.noSender());
    awaitListings(s.get(2), 1, "only A's path left, on C");
    for (int i = 0; i < 10; i++) {
      sender.send(mediator(s.get(2)), new Send("/user/orders", "one" + i));
    }
    for (int i = 0; i < 10; i++) {
      inbox.expectMsg(CHANGE, "orders:one" + i);
    }
  }

  @Test
  void roundRobinTakesTheMembersInTurnAndTheirActorsInTurn() {
    List<ActorSystem> s = nodes.formInMemory("turns", 3, "troupe.cluster.pub-sub.routing-logic = round-robin");
    TestKit inbox = new TestKit(s.get(0));
    TestKit probeA = new TestKit(s.get(0));
    TestKit probeB = new TestKit(s.get(1));
    mediator(s.get(0)).tell(new Put(tagged(s.get(0), "counter", probeA.getRef())), ActorRef.noSender());
    mediator(s.get(1)).tell(new Put(tagged(s.get(1), "counter", probeB.getRef())), ActorRef.noSender());
    subscribe(s.get(1), new Subscribe("jobs", "g", tagged(s.get(1), "g1", inbox.getRef())));
    subscribe(s.get(1), new Subscribe("jobs", "g", tagged(s.get(1), "g2", inbox.getRef())));
    awaitListings(s.get(2), 3, "A's and B's counters and B's group, on C");

    // the two members in turn
    TestKit sender = new TestKit(s.get(2));
    for (int i = 0; i < 6; i++) {
      sender.send(mediator(s.get(2)), new Send("/user/counter", "c" + i));
    }
    List<String> onA = new ArrayList<>();
    List<String> onB = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      onA.add(probeA.expectMsgClass(CHANGE, String.class));
      onB.add(probeB.expectMsgClass(CHANGE, String.class));
    }
    probeA.expectNoMessage(Duration.ofMillis(200));
    probeB.expectNoMessage(Duration.ofMillis(10));
    boolean aFirst = onA.get(0).equals("counter:c0");
    assertEquals(aFirst ? List.of("counter:c0", "counter:c2", "counter:c4") : List.of("counter:c1", "counter:c3", "counter:c5"),
        onA, "every other send on A");

    // B's two group members in turn, for messages published on B
    TestKit publisher = new TestKit(s.get(1));
    for (int i = 0; i < 4; i++) {
      publisher.send(mediator(s.get(1)), new Publish("jobs", "p" + i, true));
    }
    Map<String, Integer> perMemberOfGroup = new HashMap<>();
    for (Object o : inbox.receiveN(4, CHANGE)) {
      perMemberOfGroup.merge(((String) o).substring(0, 2), 1, Integer::sum);
    }
    assertEquals(Map.of("g1", 2, "g2", 2), perMemberOfGroup);
  }

  @Test
  void onlyMembersWithTheRoleRunAMediator() {
    String chat = "troupe.cluster.pub-sub.role = chat\ntroupe.cluster.roles = [chat]";
    List<ActorSystem> s = List.of(nodes.start("roles", "in-memory", chat), nodes.start("roles", "in-memory", chat),
        nodes.start("roles", "in-memory", "troupe.cluster.pub-sub.role = chat"));
    List<TestKit> ups = s.stream().map(ClusterInMemoryTest::probe).toList();
    for (ActorSystem member : s) {
      Cluster.get(member).join(s.get(0).address());
    }
    for (TestKit up : ups) {
      ClusterInMemoryTest.ups(up, 3);
    }
    DistributedPubSub onC = DistributedPubSub.get(s.get(2));
    assertTrue(onC.isTerminated(), "C lacks the role");
    assertEquals(s.get(2).deadLetters(), onC.mediator());
    assertTrue(!DistributedPubSub.get(s.get(0)).isTerminated());

    TestKit onA = new TestKit(s.get(0));
    TestKit onB = new TestKit(s.get(1));
    subscribe(s.get(0), new Subscribe("news", onA.getRef()));
    subscribe(s.get(1), new Subscribe("news", onB.getRef()));
    awaitListings(s.get(0), 2, "A's and B's topic, on A");
    mediator(s.get(1)).tell(new Publish("news", "hello"), ActorRef.noSender());
    onA.expectMsg(CHANGE, "hello");
    onB.expectMsg(CHANGE, "hello");
  }

  @Test
  void unsubscribedStoppedAndRemovedSubscribersAreReachedNoMore() {
    List<ActorSystem> s = nodes.formInMemory("leaving", 3);
    TestKit onA = new TestKit(s.get(0));
    TestKit onB = new TestKit(s.get(1));
    TestKit onC = new TestKit(s.get(2));
    ActorRef stopping = tagged(s.get(2), "stopping", onC.getRef());
    subscribe(s.get(0), new Subscribe("t", onA.getRef()));
    subscribe(s.get(1), new Subscribe("t", onB.getRef()));
    subscribe(s.get(2), new Subscribe("t", stopping));
    awaitListings(s.get(0), 3, "the topic on A, B and C");

    // C's only subscriber stops: C is unlisted
    onC.watch(stopping);
    stopping.tell(PoisonPill.getInstance(), ActorRef.noSender());
    onC.expectTerminated(CHANGE, stopping);
    awaitListings(s.get(0), 2, "C unlisted once its subscriber stopped");

    // B unsubscribes
    TestKit acks = new TestKit(s.get(1));
    Unsubscribe u = new Unsubscribe("t", onB.getRef());
    acks.send(mediator(s.get(1)), u);
    assertEquals(new UnsubscribeAck(u), acks.expectMsgClass(CHANGE, UnsubscribeAck.class));
    awaitListings(s.get(0), 1, "B unlisted once it unsubscribed");
    mediator(s.get(0)).tell(new Publish("t", "only-a"), ActorRef.noSender());
    onA.expectMsg(CHANGE, "only-a");
    onB.expectNoMessage(Duration.ofMillis(200));
    onC.expectNoMessage(Duration.ofMillis(10));

    // B subscribes again, then leaves the cluster: A forgets it
    subscribe(s.get(1), new Subscribe("t", onB.getRef()));
    awaitListings(s.get(0), 2, "B listed again");
    Cluster.get(s.get(1)).leave(s.get(1).address());
    awaitListings(s.get(0), 1, "B's listing dropped once it left");
  }

  @Test
  void aMessageThatReachesNoOneGoesToTheDeadLettersWithItsSender() {
    ActorSystem a = nodes.formInMemory("nobody", 1).get(0);
    TestKit dead = new TestKit(a);
    a.getEventStream().subscribe(dead.getRef(), DeadLetter.class);
    TestKit publisher = new TestKit(a);
    publisher.send(mediator(a), new Publish("nobody", "lost"));
    DeadLetter d = (DeadLetter) dead.fishForMessage(CHANGE, "the dead letter of the publish",
        m -> m instanceof DeadLetter l && "lost".equals(l.message()));
    assertEquals(publisher.getRef(), d.sender());
    publisher.send(mediator(a), new Send("/user/nobody", "unsent"));
    dead.fishForMessage(CHANGE, "the dead letter of the send", m -> m instanceof DeadLetter l && "unsent".equals(l.message()));
  }

  @Test
  void badInputIsRefusedWhereItIsMade() {
    ActorSystem a = nodes.formInMemory("bad", 2).get(0);
    ActorRef ref = new TestKit(a).getRef();
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new Subscribe("", ref)).getMessage().contains("topic"));
    assertThrows(IllegalArgumentException.class, () -> new Subscribe("a\0b", ref));
    assertThrows(IllegalArgumentException.class, () -> new Subscribe("a", "", ref));
    assertThrows(NullPointerException.class, () -> new Publish("a", null));
    assertThrows(IllegalArgumentException.class, () -> new Send("", "x"));

    // an actor of another member cannot be put here: nothing is listed
    ActorSystem b = nodes.start("other", "in-memory");
    ActorRef elsewhere = new TestKit(b).getRef();
    mediator(a).tell(new Put(elsewhere), ActorRef.noSender());
    assertEquals(0, ask(a, Count.INSTANCE));

    // the extension on a system that is no cluster member, and a malformed setting
    ActorSystem plain = ActorSystem.create("plain", ConfigFactory.parseString("troupe.test.shutdown-timeout = 30s"));
    try {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> DistributedPubSub.get(plain));
      assertTrue(e.getMessage().contains("troupe.actor.provider = cluster"), e.getMessage());
    } finally {
      TestKit.shutdownActorSystem(plain);
    }
    for (String malformed : List.of("routing-logic = smallest", "send-to-dead-letters-when-no-subscribers = maybe",
        "role = \" chat\"")) {
      ConfigurationException c = assertThrows(ConfigurationException.class, () -> DistributedPubSubSettings.create(
          ConfigFactory.parseString("troupe.cluster.pub-sub." + malformed).withFallback(ConfigFactory.load())));
      String key = malformed.substring(0, malformed.indexOf(' '));
      assertTrue(c.getMessage().contains("'troupe.cluster.pub-sub." + key + "'"), c.getMessage());
    }
    DistributedPubSubSettings defaults = DistributedPubSubSettings.create(ConfigFactory.load());
    assertEquals(DistributedPubSubSettings.RoutingLogic.RANDOM, defaults.routingLogic());
    assertTrue(defaults.sendToDeadLettersWhenNoSubscribers());
    assertEquals(DistributedPubSubSettings.RoutingLogic.ROUND_ROBIN, DistributedPubSubSettings.create(
        ConfigFactory.parseString("troupe.cluster.pub-sub.routing-logic = round-robin").withFallback(ConfigFactory.load()))
        .routingLogic());
  }

  @Test
  void listedInTheConfigurationTheMediatorStartsWithTheSystem() {
    ActorSystem a = nodes.start("listed", "in-memory",
        "troupe.extensions = [\"" + DistributedPubSub.class.getName() + "\"]");
    assertTrue(a.hasExtension(DistributedPubSub.ID));
    assertSame(a.extension(DistributedPubSub.ID), DistributedPubSub.get(a));
    assertEquals("/system/" + DistributedPubSub.MEDIATOR_NAME, mediator(a).path().toStringWithoutAddress());
  }
}
