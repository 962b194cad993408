package dev.troupe.cluster.internal.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.sharding.Journal.Cmd;
import dev.troupe.cluster.internal.sharding.Journal.Msg;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.remote.Dropped;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regions of one type in one actor system, each standing for a node (its own fake address on
 * 127.0.0.x), fed the same views by a {@link ManualShardingTopology}: routing, hosting, passivation,
 * and the hand-over protocol between regions, without remoting.
 */
class ShardingTest {
  private static final int SHARDS = 30;
  private static final Duration WAIT = Duration.ofSeconds(15);

  private ActorSystem system;
  private TestKit kit;
  private Journal journal;
  private ManualShardingTopology topology;
  private final ShardRegion.MessageExtractor extractor = Journal.extractor(SHARDS);
  private ClusterShardingSettings settings;

  /** One fake node: its address and its region. */
  record Node(String name, UniqueAddress address, ActorRef region) {}

  @BeforeEach
  void setUp() {
    system = ActorSystem.create("sharding", ConfigFactory.load());
    kit = new TestKit(system);
    journal = new Journal();
    topology = new ManualShardingTopology();
    settings = ClusterShardingSettings.create(system).withHandOverTimeout(Duration.ofSeconds(60));
  }

  @AfterEach
  void tearDown() {
    TestKit.shutdownActorSystem(system);
  }

  private Node node(int i) {
    UniqueAddress a = new UniqueAddress(Address.remote("sys", "127.0.0." + i, 2552), 100 + i);
    String name = "n" + i;
    ActorRef region = system.actorOf(
        RegionActor.props("T", journal.entityProps(), settings, extractor, a, topology), name);
    return new Node(name, a, region);
  }

  private ActorRef proxy() {
    return system.actorOf(RegionActor.proxyProps("T", settings, extractor, topology), "proxy");
  }

  private void publish(List<Node> members, Node... leaving) {
    Set<Node> l = Set.of(leaving);
    List<ShardingTopology.RegionMember> view = new ArrayList<>();
    for (Node n : members) {
      view.add(new ShardingTopology.RegionMember(n.address(), n.region(), l.contains(n)));
    }
    topology.publish(view);
  }

  private Protocol.Stats stats(ActorRef region) {
    kit.send(region, Protocol.GetStats.INSTANCE);
    return kit.expectMsgClass(Protocol.Stats.class);
  }

  /** The node that must host {@code id} when {@code owners} may host shards. */
  private String expectedNode(String id, List<Node> owners) {
    List<UniqueAddress> addresses = new ArrayList<>();
    Map<UniqueAddress, String> names = new HashMap<>();
    for (Node n : owners) {
      addresses.add(n.address());
      names.put(n.address(), n.name());
    }
    return names.get(Placement.owner(extractor.shardId(new Msg(id, 0)), addresses));
  }

  private void awaitTotal(long n) {
    kit.awaitCond(WAIT, Duration.ofMillis(10), "entities received " + n + " messages (so far " + journal.total.get() + ")",
        () -> journal.total.get() == n);
  }

  @Test
  void entitiesAreSpreadOverTheNodesByPlacementWithExactCounts() {
    List<Node> nodes = List.of(node(1), node(2), node(3));
    publish(nodes);
    for (int i = 0; i < 300; i++) {
      nodes.get(i % 3).region().tell(new Msg("e" + i, 1), ActorRef.noSender());
    }
    awaitTotal(300);
    Map<String, Integer> expected = new TreeMap<>();
    Map<String, Integer> actual = new TreeMap<>();
    Map<String, Map<String, Set<String>>> expectedShards = new HashMap<>();
    for (int i = 0; i < 300; i++) {
      String id = "e" + i;
      String node = expectedNode(id, nodes);
      expected.merge(node, 1, Integer::sum);
      actual.merge(journal.nodeOf(id), 1, Integer::sum);
      assertEquals(node, journal.nodeOf(id), id);
      expectedShards.computeIfAbsent(node, k -> new HashMap<>())
          .computeIfAbsent(extractor.shardId(new Msg(id, 0)), k -> new HashSet<>()).add(id);
    }
    assertEquals(expected, actual);
    assertEquals(3, actual.size(), "every node hosts entities: " + actual);
    for (Node n : nodes) {
      kit.send(n.region(), ShardRegion.getShardRegionStateInstance());
      ShardRegion.CurrentShardRegionState state = kit.expectMsgClass(ShardRegion.CurrentShardRegionState.class);
      Map<String, Set<String>> got = new HashMap<>();
      state.shards().forEach(s -> got.put(s.shardId(), s.entityIds()));
      assertEquals(expectedShards.get(n.name()), got, n.name());
      kit.send(n.region(), ShardRegion.getCurrentRegionsInstance());
      assertEquals(new ShardRegion.CurrentRegions(Set.of(nodes.get(0).address().address(),
          nodes.get(1).address().address(), nodes.get(2).address().address())),
          kit.expectMsgClass(ShardRegion.CurrentRegions.class));
    }
    assertEquals(List.of(), journal.overlaps());
  }

  @Test
  void aPassivatingEntitysMessagesWaitAndStartItAgain() throws Exception {
    Node n1 = node(1);
    publish(List.of(n1));
    n1.region().tell(new Msg("p", 1), ActorRef.noSender());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    n1.region().tell(new Cmd("p", new Journal.PassivateAndBlock(entered, release)), ActorRef.noSender());
    assertTrue(entered.await(10, TimeUnit.SECONDS), "the entity asked for passivation");
    // the shard has the Passivate before these: it holds them until the entity stopped
    n1.region().tell(new Msg("p", 2), ActorRef.noSender());
    n1.region().tell(new Msg("p", 3), ActorRef.noSender());
    String sameShard = sameShardAs("p");
    n1.region().tell(new Msg(sameShard, 1), ActorRef.noSender());
    awaitTotal(2); // the shard has handled the messages for p, which came before the one for sameShard
    release.countDown();
    awaitTotal(4);
    assertEquals(List.of(1L, 2L, 3L), journal.receivedBy("p"));
    assertEquals(2, journal.starts("p"), "stopped, then started again by the held messages");
    assertEquals(List.of("p"), new ArrayList<>(journal.stopsReceived), "it got its stop message");
    assertEquals(List.of(), journal.overlaps());
  }

  /** @return another entity id in the shard of {@code id} */
  private String sameShardAs(String id) {
    String shard = extractor.shardId(new Msg(id, 0));
    for (int i = 0; ; i++) {
      if (extractor.shardId(new Msg("o" + i, 0)).equals(shard)) {
        return "o" + i;
      }
    }
  }

  @Test
  void anIdleEntityIsPassivatedAndItsNextMessageStartsItAgain() {
    settings = settings.withPassivateIdleAfter(Duration.ofMillis(200));
    Node n1 = node(1);
    publish(List.of(n1));
    n1.region().tell(new Msg("idle", 1), ActorRef.noSender());
    awaitTotal(1);
    kit.awaitCond(WAIT, Duration.ofMillis(20), "the idle entity stopped", () -> !journal.alive("idle"));
    n1.region().tell(new Msg("idle", 2), ActorRef.noSender());
    awaitTotal(2);
    assertEquals(2, journal.starts("idle"));
    assertTrue(journal.alive("idle"));
  }

  @Test
  void aCrashedNodesEntitiesStartOnTheNewOwnersOnTheirNextMessage() {
    List<Node> nodes = List.of(node(1), node(2), node(3));
    publish(nodes);
    for (int i = 0; i < 90; i++) {
      nodes.get(0).region().tell(new Msg("c" + i, 1), ActorRef.noSender());
    }
    awaitTotal(90);
    Set<String> onN3 = new HashSet<>();
    for (int i = 0; i < 90; i++) {
      if (journal.nodeOf("c" + i).equals("n3")) {
        onN3.add("c" + i);
      }
    }
    assertTrue(!onN3.isEmpty() && onN3.size() < 90, "n3 hosted a share: " + onN3.size());
    kit.watch(nodes.get(2).region());
    system.stop(nodes.get(2).region()); // the crash: its entities are gone, it reports nothing
    kit.expectTerminated(nodes.get(2).region());
    List<Node> survivors = List.of(nodes.get(0), nodes.get(1));
    publish(survivors); // n3 removed
    for (int i = 0; i < 90; i++) {
      survivors.get(i % 2).region().tell(new Msg("c" + i, 2), ActorRef.noSender());
    }
    awaitTotal(180); // well within the 60 s hand-over timeout: a removed node is not waited for
    for (int i = 0; i < 90; i++) {
      String id = "c" + i;
      assertEquals(List.of(1L, 2L), journal.receivedBy(id), id);
      assertEquals(expectedNode(id, survivors), journal.nodeOf(id), id);
      assertEquals(onN3.contains(id) ? 2 : 1, journal.starts(id), id + " kept its state unless it was on n3");
    }
    assertEquals(List.of(), journal.overlaps());
  }

  @Test
  void theNewOwnerHoldsMessagesUntilTheOldOwnerHasStoppedTheEntity() {
    Node n1 = node(1);
    publish(List.of(n1));
    n1.region().tell(new Msg("x", 1), ActorRef.noSender());
    awaitTotal(1);
    CountDownLatch release = new CountDownLatch(1);
    n1.region().tell(new Cmd("x", new Journal.Block(release)), ActorRef.noSender()); // x cannot stop yet
    Node n2 = node(2);
    publish(List.of(n1, n2), n1); // n1 leaves gracefully: every shard moves to n2
    n2.region().tell(new Msg("x", 2), ActorRef.noSender());
    kit.awaitCond(WAIT, Duration.ofMillis(10), "n2 holds the message for x", () -> stats(n2.region()).bufferedMessages() == 1);
    assertEquals(0, journal.starts("x", "n2"), "not started on n2 while alive on n1");
    release.countDown();
    awaitTotal(2);
    assertEquals(List.of(1L, 2L), journal.receivedBy("x"));
    assertEquals(1, journal.starts("x", "n2"));
    assertEquals(List.of(), journal.overlaps());
    Protocol.Stats s2 = stats(n2.region());
    assertEquals(0, s2.bufferedMessages());
    assertEquals(0, stats(n1.region()).hostedShards(), "the leaving node hosts nothing");
  }

  @Test
  void afterTheHandOverTimeoutTheNewOwnerStartsTheShardAnyway() {
    settings = settings.withHandOverTimeout(Duration.ofMillis(300));
    Node n1 = node(1);
    publish(List.of(n1));
    n1.region().tell(new Msg("x", 1), ActorRef.noSender());
    awaitTotal(1);
    CountDownLatch release = new CountDownLatch(1);
    try {
      n1.region().tell(new Cmd("x", new Journal.Block(release)), ActorRef.noSender()); // n1 never reports
      Node n2 = node(2);
      publish(List.of(n1, n2), n1);
      n2.region().tell(new Msg("x", 2), ActorRef.noSender());
      // n1's entity is blocked for 10 s: only the timeout can let n2 start it within 5 s
      kit.awaitCond(Duration.ofSeconds(5), Duration.ofMillis(10), "x started on n2 after the timeout",
          () -> journal.total.get() == 2);
      assertEquals(1, journal.starts("x", "n2"));
      assertEquals(List.of(1L, 2L), journal.receivedBy("x"));
    } finally {
      release.countDown();
    }
  }

  @Test
  void aFullBufferDropsWithADroppedEventAndDeliversTheRestInOrder() {
    settings = settings.withBufferSize(5);
    ActorRef proxy = proxy();
    publish(List.of()); // no member hosts the type yet
    system.getEventStream().subscribe(kit.getRef(), Dropped.class);
    for (int i = 0; i < 8; i++) {
      proxy.tell(new Msg("a", i), ActorRef.noSender());
    }
    for (int i = 5; i < 8; i++) {
      Dropped d = kit.expectMsgClass(Dropped.class);
      assertEquals(new Msg("a", i), d.message());
      assertEquals(proxy, d.recipient());
      assertTrue(d.reason().contains("buffer-size = 5"), d.reason());
    }
    assertEquals(new Protocol.Stats(0, 0, 5, 3, 0), stats(proxy));
    Node n1 = node(1);
    publish(List.of(n1));
    awaitTotal(5);
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), journal.receivedBy("a"));
    assertEquals(new Protocol.Stats(0, 0, 0, 3, 0), stats(proxy));
  }

  /**
   * A leaving region lets its node exit (answers {@code WhenHandedOver}) only once every peer's view
   * no longer has it as an owner: a peer whose view lags behind still routes the leaver's shards to
   * the leaver, and those messages would be lost once its node is gone.
   */
  @Test
  void aLeavingRegionIsHandedOverOnlyOnceNoPeerStillRoutesToIt() {
    Node a = node(1);
    Node b = node(2);
    // views told region by region (not published to all at once): a peer may lag behind the leaver
    ShardingTopology.View both = new ShardingTopology.View(1, List.of(
        new ShardingTopology.RegionMember(a.address(), a.region(), false),
        new ShardingTopology.RegionMember(b.address(), b.region(), false)));
    a.region().tell(both, ActorRef.noSender());
    b.region().tell(both, ActorRef.noSender());
    for (int i = 0; i < 20; i++) {
      a.region().tell(new Msg("x" + i, 1), ActorRef.noSender());
    }
    awaitTotal(20);
    String onB = null;
    for (int i = 0; i < 20 && onB == null; i++) {
      onB = b.name().equals(journal.nodeOf("x" + i)) ? "x" + i : null;
    }
    assertTrue(onB != null, "some entity lives on the leaver");

    ShardingTopology.View bLeaves = new ShardingTopology.View(2, List.of(
        new ShardingTopology.RegionMember(a.address(), a.region(), false),
        new ShardingTopology.RegionMember(b.address(), b.region(), true)));
    b.region().tell(bLeaves, ActorRef.noSender()); // only the leaver knows it leaves so far
    kit.send(b.region(), RegionActor.WhenHandedOver.INSTANCE);
    kit.expectNoMessage(Duration.ofMillis(500)); // a's view still has b as an owner: b may not exit yet
    assertEquals(0, stats(b.region()).hostedShards(), "the leaver has stopped its shards meanwhile");

    a.region().tell(bLeaves, ActorRef.noSender());
    kit.expectMsgClass(WAIT, RegionActor.HandedOver.class);
    a.region().tell(new Msg(onB, 2), ActorRef.noSender());
    awaitTotal(21);
    assertEquals(a.name(), journal.nodeOf(onB), "the entity moved to the staying node");
  }

  /**
   * A peer that cannot answer the leave check (gone, or cut off: it cannot send the leaver anything
   * either) holds the leaver up for {@code leave-check-timeout} only.
   */
  @Test
  void aPeerThatCannotAnswerTheLeaveCheckHoldsTheLeaverUpForTheLeaveCheckTimeoutOnly() {
    settings = settings.withLeaveCheckTimeout(Duration.ofMillis(300));
    Node a = node(1);
    Node b = node(2);
    publish(List.of(a, b));
    // b's answer shows it has started, and so subscribed to the topology: the view published below
    // reaches its mailbox before the question does (a region that has seen no view yet has no peer
    // to wait for, and answers at once)
    stats(b.region());
    kit.watch(a.region());
    system.stop(a.region());
    kit.expectTerminated(WAIT, a.region());
    publish(List.of(a, b), b); // a is gone but still in the view (not removed yet)
    long start = System.nanoTime();
    kit.send(b.region(), RegionActor.WhenHandedOver.INSTANCE);
    kit.expectMsgClass(WAIT, RegionActor.HandedOver.class);
    assertTrue(System.nanoTime() - start >= Duration.ofMillis(300).toNanos(), "it waited for the silent peer first");
  }

  /**
   * A node that joins later numbers the same views otherwise than the others (each node's feeder
   * counts the changes it saw since it started, from its own first view): it takes its share as soon
   * as the previous owners have stopped those shards (well within the 60 s hand-over timeout), never
   * while one still runs there, and every message arrives once, in order.
   */
  @ParameterizedTest(name = "joiner numbers its views from {0}, the others from 10")
  @ValueSource(longs = {50, 1})
  void aJoinerWhoseViewsAreNumberedOtherwiseTakesItsShareAsSoonAsTheOldOwnersStopped(long joinerFirst) {
    Node n1 = node(1);
    Node n2 = node(2);
    List<ShardingTopology.RegionMember> two = List.of(
        new ShardingTopology.RegionMember(n1.address(), n1.region(), false),
        new ShardingTopology.RegionMember(n2.address(), n2.region(), false));
    n1.region().tell(new ShardingTopology.View(10, two), ActorRef.noSender());
    n2.region().tell(new ShardingTopology.View(10, two), ActorRef.noSender());
    int ids = 90;
    for (int i = 0; i < ids; i++) {
      n1.region().tell(new Msg("j" + i, 1), ActorRef.noSender());
    }
    awaitTotal(ids);
    Node n3 = node(3);
    List<Node> three = List.of(n1, n2, n3);
    Set<String> moving = new HashSet<>();
    String blocked = null;
    for (int i = 0; i < ids; i++) {
      if (expectedNode("j" + i, three).equals("n3")) {
        moving.add("j" + i);
        blocked = blocked == null && journal.nodeOf("j" + i).equals("n1") ? "j" + i : blocked;
      }
    }
    assertTrue(moving.size() > 5 && moving.size() < ids && blocked != null, "the joiner takes a share: " + moving);
    String stuck = blocked;
    CountDownLatch release = new CountDownLatch(1);
    try {
      n1.region().tell(new Cmd(stuck, new Journal.Block(release)), ActorRef.noSender()); // it cannot stop yet

      // the joiner's first view, before it is Up, then the view with it; the others see only the latter
      n3.region().tell(new ShardingTopology.View(joinerFirst, two), ActorRef.noSender());
      List<ShardingTopology.RegionMember> withN3 = new ArrayList<>(two);
      withN3.add(new ShardingTopology.RegionMember(n3.address(), n3.region(), false));
      n3.region().tell(new ShardingTopology.View(joinerFirst + 1, withN3), ActorRef.noSender());
      n1.region().tell(new ShardingTopology.View(11, withN3), ActorRef.noSender());
      n2.region().tell(new ShardingTopology.View(11, withN3), ActorRef.noSender());

      for (int i = 0; i < ids; i++) {
        three.get(i % 3).region().tell(new Msg("j" + i, 2), ActorRef.noSender());
      }
      kit.awaitCond(WAIT, Duration.ofMillis(10), "n3 holds the message for " + stuck,
          () -> stats(n3.region()).bufferedMessages() >= 1);
      assertEquals(0, journal.starts(stuck, "n3"), "not started on n3 while alive on n1");
    } finally {
      release.countDown();
    }
    awaitTotal(2L * ids); // within 15 s: the hand-over timeout (60 s) plays no part
    for (int i = 0; i < ids; i++) {
      String id = "j" + i;
      assertEquals(List.of(1L, 2L), journal.receivedBy(id), id);
      assertEquals(expectedNode(id, three), journal.nodeOf(id), id);
    }
    assertEquals(List.of(), journal.overlaps());
    assertEquals(0, stats(n3.region()).bufferedMessages());
  }

  /**
   * Hand-over queries from nodes outside a region's view (a peer naming ever new nodes, or joiners
   * that never showed up) cannot grow the region's memory: it keeps at most {@link
   * RegionActor#MAX_EARLY_QUERIES} of them, each through one more view only. A joiner's query that
   * came before the view that holds the joiner is still among them, and answered by that view.
   */
  @Test
  void queriesFromNodesOutsideTheViewAreBoundedAndAnEarlyJoinersQueryIsStillAnswered() {
    Node n1 = node(1);
    Node n2 = node(2);
    publish(List.of(n1, n2));
    assertEquals(0, stats(n1.region()).pendingQueries());
    UniqueAddress joiner = new UniqueAddress(Address.remote("sys", "127.0.0.3", 2552), 103);
    TestKit joinerRegion = new TestKit(system);
    joinerRegion.send(n1.region(), new Protocol.HandOverQuery(7, joiner, List.of(n1.address(), n2.address(), joiner)));

    for (int i = 0; i < 2_000; i++) { // each from a node no view holds, none answerable
      UniqueAddress stranger = new UniqueAddress(Address.remote("sys", "10.0." + (i >> 8) + "." + (i & 0xFF), 2552), i + 1);
      kit.send(n1.region(), new Protocol.HandOverQuery(Long.MAX_VALUE - i, stranger, List.of(stranger, n1.address())));
    }
    int pending = stats(n1.region()).pendingQueries();
    assertTrue(pending <= RegionActor.MAX_EARLY_QUERIES,
        pending + " queries from nodes outside the view kept (at most " + RegionActor.MAX_EARLY_QUERIES + ")");

    List<ShardingTopology.RegionMember> withJoiner = List.of(
        new ShardingTopology.RegionMember(n1.address(), n1.region(), false),
        new ShardingTopology.RegionMember(n2.address(), n2.region(), false),
        new ShardingTopology.RegionMember(joiner, joinerRegion.getRef(), false));
    topology.publish(withJoiner);
    Object done = joinerRegion.fishForMessage(WAIT, "n1's answer to the joiner's early query",
        m -> m instanceof Protocol.HandOverDone);
    assertEquals(new Protocol.HandOverDone(7, n1.address()), done);
    topology.publish(withJoiner); // the strangers were in neither view: forgotten
    assertEquals(0, stats(n1.region()).pendingQueries(), "queries left after two views without their askers");
  }

  /**
   * A region's hand-over question can reach a peer before the peer's region runs (the member is Up,
   * its region not started yet): lost. When the peer's region starts and asks in turn, the region
   * asks it again, so neither waits for the hand-over timeout (60 s here).
   */
  @Test
  void aQuestionLostBeforeThePeersRegionRanIsAskedAgainWhenThePeerAsks() {
    Node n1 = node(1);
    Node n2 = node(2);
    ActorRef notYet = new TestKit(system).getRef(); // takes the question and never answers, as dead letters
    // n1's view has n2's region at a ref where it does not run yet: its question to n2 is lost
    n1.region().tell(new ShardingTopology.View(1, List.of(
        new ShardingTopology.RegionMember(n1.address(), n1.region(), false),
        new ShardingTopology.RegionMember(n2.address(), notYet, false))), ActorRef.noSender());
    List<String> onN1 = new ArrayList<>();
    for (int i = 0; onN1.size() < 10; i++) {
      if (expectedNode("q" + i, List.of(n1, n2)).equals("n1")) {
        onN1.add("q" + i);
      }
    }
    for (String id : onN1) {
      n1.region().tell(new Msg(id, 1), ActorRef.noSender());
    }
    kit.awaitCond(WAIT, Duration.ofMillis(10), "n1 holds its shards' messages: it has no answer from n2 yet",
        () -> stats(n1.region()).bufferedMessages() == onN1.size());
    // n2's region starts and asks n1; n1 answers and asks n2 again
    n2.region().tell(new ShardingTopology.View(1, List.of(
        new ShardingTopology.RegionMember(n1.address(), n1.region(), false),
        new ShardingTopology.RegionMember(n2.address(), n2.region(), false))), ActorRef.noSender());
    awaitTotal(onN1.size());
    for (String id : onN1) {
      assertEquals("n1", journal.nodeOf(id), id);
    }
  }

  @Test
  void aProxyRoutesToTheHostingRegionsAndHostsNothing() {
    List<Node> nodes = List.of(node(1), node(2));
    ActorRef proxy = proxy();
    publish(nodes);
    for (int i = 0; i < 100; i++) {
      proxy.tell(new Msg("q" + i, 1), ActorRef.noSender());
    }
    awaitTotal(100);
    for (int i = 0; i < 100; i++) {
      assertEquals(expectedNode("q" + i, nodes), journal.nodeOf("q" + i));
    }
    kit.send(proxy, ShardRegion.getShardRegionStateInstance());
    assertEquals(new ShardRegion.CurrentShardRegionState(Set.of()),
        kit.expectMsgClass(ShardRegion.CurrentShardRegionState.class));
    kit.send(proxy, ShardRegion.getCurrentRegionsInstance());
    assertEquals(Set.of(nodes.get(0).address().address(), nodes.get(1).address().address()),
        kit.expectMsgClass(ShardRegion.CurrentRegions.class).regions());
  }

  @Test
  void aMessageWithoutAnEntityIsDroppedVisiblyAndTheNextOneStillArrives() {
    Node n1 = node(1);
    publish(List.of(n1));
    system.getEventStream().subscribe(kit.getRef(), Dropped.class);
    n1.region().tell("not for an entity", ActorRef.noSender());
    Dropped d = kit.expectMsgClass(Dropped.class);
    assertEquals("not for an entity", d.message());
    assertTrue(d.reason().contains("no shard id"), d.reason());
    n1.region().tell(new Msg("ok", 1), ActorRef.noSender());
    awaitTotal(1);
  }

  @Test
  void startEntityStartsAnEntityWithoutAMessage() {
    Node n1 = node(1);
    publish(List.of(n1));
    n1.region().tell(new ShardRegion.StartEntity("s1"), ActorRef.noSender());
    kit.awaitCond(WAIT, Duration.ofMillis(10), "s1 started", () -> journal.alive("s1"));
    n1.region().tell(new ShardRegion.StartEntity("s1"), ActorRef.noSender());
    n1.region().tell(new Msg("s1", 1), ActorRef.noSender());
    awaitTotal(1);
    assertEquals(1, journal.starts("s1"), "a second StartEntity does not start another");
  }

  @RepeatedTest(5) // joiners subscribe at different moments: each run interleaves differently
  void noIdIsAliveTwiceAndNoMessageIsLostThroughGracefulJoinsAndLeaves() throws Exception {
    churn(1, 200, 6);
  }

  @RepeatedTest(3)
  void stressManySendersManyIdsThroughChurn() throws Exception {
    churn(8, 500, 8);
  }

  /**
   * Senders send numbered messages to {@code ids} ids through the regions of all nodes created so
   * far, while nodes join and leave gracefully {@code rounds} times; then every message must have
   * arrived exactly once, and no id may have been alive on two nodes at once.
   */
  private void churn(int senders, int ids, int rounds) throws Exception {
    List<Node> members = new ArrayList<>(List.of(node(1), node(2), node(3)));
    List<ActorRef> regions = new CopyOnWriteArrayList<>();
    members.forEach(n -> regions.add(n.region()));
    publish(members);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong sent = new AtomicLong();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<Thread> threads = new ArrayList<>();
    AtomicLong[] perSender = new AtomicLong[senders];
    for (int t = 0; t < senders; t++) {
      int me = t;
      perSender[t] = new AtomicLong();
      Thread th = new Thread(() -> {
        long n = 0;
        while (!stop.get() && System.nanoTime() < deadline && n < 100_000) {
          if (sent.get() - journal.total.get() > 5_000) {
            Thread.onSpinWait(); // at most 5,000 messages in flight: the test measures loss, not throughput
            Thread.yield();
            continue;
          }
          String id = "i" + ((n * 31 + me) % ids);
          // each sender numbers its messages itself: n * senders + me is unique over all senders
          regions.get((int) (n % regions.size())).tell(new Msg(id, n * senders + me), ActorRef.noSender());
          sent.incrementAndGet();
          n++;
        }
        perSender[me].set(n);
      }, "sender-" + t);
      threads.add(th);
      th.start();
    }
    int next = 4;
    for (int r = 0; r < rounds; r++) {
      long before = journal.total.get();
      kit.awaitCond(WAIT, Duration.ofMillis(5), "messages flow", () -> journal.total.get() > before + 500);
      if (r % 2 == 0) {
        Node joiner = node(next++);
        regions.add(joiner.region());
        members.add(joiner);
        publish(members);
      } else {
        Node leaver = members.get(0); // the oldest leaves
        publish(members, leaver);
        kit.send(leaver.region(), RegionActor.WhenHandedOver.INSTANCE); // what the wiring does before the exit
        kit.expectMsgClass(WAIT, RegionActor.HandedOver.class);
        members.remove(leaver);
        publish(members); // removed; its region stays and routes like a proxy
      }
    }
    stop.set(true);
    for (Thread th : threads) {
      th.join(TimeUnit.SECONDS.toMillis(30));
    }
    long total = sent.get();
    kit.awaitCond(Duration.ofSeconds(30), Duration.ofMillis(10),
        "all " + total + " messages arrived (so far " + journal.total.get() + ")", () -> journal.total.get() >= total);
    assertEquals(List.of(), journal.overlaps(), "an id alive on two nodes at once");
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < ids; i++) {
      for (long n : journal.receivedBy("i" + i)) {
        assertTrue(seen.add(n), "message " + n + " arrived twice");
      }
    }
    assertEquals(total, seen.size(), "every message arrived exactly once");
    for (Node n : members) {
      assertEquals(0, stats(n.region()).bufferedMessages(), n.name());
      assertEquals(0L, stats(n.region()).dropped(), n.name());
    }
  }
}
