package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.internal.inmemory.InMemoryCluster;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.cluster.singleton.ClusterSingletonManager;
import dev.troupe.cluster.singleton.ClusterSingletonManagerSettings;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sharding and singletons when members go, end to end over three actor systems in this JVM
 * (remoting on 127.0.0.1, port 0): a node that terminates hands its shards and its singleton over
 * before its engine leaves (coordinated shutdown's {@code cluster-sharding-shutdown-region}), with
 * every message answered exactly once; a crashed node's shards and singleton move only after its
 * removal; a role keeps entities off the members without it; and the graceful path over the JGroups
 * engine.
 *
 * <p>Entities and singletons write their starts and stops, with their host, to one {@link Log}, and
 * a subscriber on a surviving node writes the member events it hears: the order of the log follows
 * the runtime's happens-before (an entity's stop is written in its {@code postStop}, before its
 * shard and region learn it stopped, hence before any successor can start it).
 */
@Timeout(120)
class ClusterShardingHandOverTest {
  private static final Duration CHANGE = ClusterInMemoryTest.CHANGE;
  private static final int IDS = 30;

  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  /** One global, ordered record of what happened: "start e3 @host", "stop e3 @host", "exited @host". */
  static final class Log {
    /**
     * {@code members}: for a start, the members its host's cluster state held then; {@code inEngine}:
     * for a stop, whether its host was still in the in-memory engine's group then.
     */
    record Entry(long seq, String what, String id, String host, Set<String> members, boolean inEngine) {}

    private final AtomicLong seq = new AtomicLong();
    private final List<Entry> entries = new ArrayList<>();

    synchronized void add(String what, String id, String host) {
      add(what, id, host, Set.of());
    }

    synchronized void add(String what, String id, String host, Set<String> members) {
      entries.add(new Entry(seq.incrementAndGet(), what, id, host, members, false));
    }

    synchronized void stopped(String id, ActorSystem system) {
      boolean inEngine = InMemoryCluster.members(system.name()).contains(Cluster.get(system).selfUniqueAddress());
      entries.add(new Entry(seq.incrementAndGet(), "stop", id, host(system), Set.of(), inEngine));
    }

    synchronized List<Entry> snapshot() {
      return List.copyOf(entries);
    }

    /** @return the first entry matching, or null */
    Entry first(Predicate<Entry> p) {
      return snapshot().stream().filter(p).findFirst().orElse(null);
    }

    /** Fails if an id started on one host while its life on another (or the same) host was still open. */
    void assertNoOverlap(String kind) {
      Map<String, String> live = new HashMap<>();
      for (Entry e : snapshot()) {
        if (!e.what().equals("start") && !e.what().equals("stop")) {
          continue;
        }
        if (!e.id().startsWith(kind)) {
          continue;
        }
        if (e.what().equals("start")) {
          String other = live.put(e.id(), e.host());
          if (other != null) {
            fail(e.id() + " started on " + e.host() + " while alive on " + other + ": " + snapshot());
          }
        } else {
          live.remove(e.id(), e.host());
        }
      }
    }
  }

  static final Map<String, Log> LOGS = new java.util.concurrent.ConcurrentHashMap<>();

  static String host(ActorSystem system) {
    return Cluster.get(system).selfAddress().toString();
  }

  /** @return the members in {@code system}'s cluster state now (published before the events that follow) */
  static Set<String> members(ActorSystem system) {
    Set<String> m = new HashSet<>();
    for (Member x : Cluster.get(system).state().members()) {
      m.add(x.address().toString());
    }
    return m;
  }

  /**
   * An entity: answers {@code "<message>@<host>"}; logs its start and stop; on its hand-off message
   * {@code "hand-off"} it stops only after {@code stopDelay} (as an entity saving its state would).
   */
  static final class Entity extends AbstractActor {
    private final String test;
    private final Duration stopDelay;

    Entity(String test, Duration stopDelay) {
      this.test = test;
      this.stopDelay = stopDelay;
    }

    private String id() {
      return java.net.URLDecoder.decode(getSelf().path().name(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void preStart() {
      LOGS.get(test).add("start", id(), host(getContext().getSystem()), members(getContext().getSystem()));
    }

    @Override
    public void postStop() {
      LOGS.get(test).stopped(id(), getContext().getSystem());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("hand-off", m -> getContext().getSystem().scheduler().scheduleOnce(stopDelay, getSelf(),
              PoisonPill.getInstance(), getContext().dispatcher(), ActorRef.noSender()))
          .match(String.class, m -> getSender().tell(m + "@" + host(getContext().getSystem()), getSelf()))
          .build();
    }
  }

  /** A singleton: logs its start and stop as id "boss". */
  static final class Boss extends AbstractActor {
    private final String test;

    Boss(String test) {
      this.test = test;
    }

    @Override
    public void preStart() {
      LOGS.get(test).add("start", "boss", host(getContext().getSystem()), members(getContext().getSystem()));
    }

    @Override
    public void postStop() {
      LOGS.get(test).stopped("boss", getContext().getSystem());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("who", m -> getSender().tell(host(getContext().getSystem()), getSelf()))
          .build();
    }
  }

  /** Writes the member events a node hears into the log: "left", "exited", "downed", "removed". */
  static final class Watcher extends AbstractActor {
    private final String test;

    Watcher(String test) {
      this.test = test;
    }

    @Override
    public void preStart() {
      Cluster.get(getContext().getSystem()).subscribe(getSelf(), ClusterEvent.initialStateAsEvents(),
          ClusterEvent.MemberEvent.class);
    }

    @Override
    public Receive createReceive() {
      String self = host(getContext().getSystem());
      return receiveBuilder()
          .match(ClusterEvent.MemberLeft.class, e -> LOGS.get(test).add("left@" + self, "", e.member().address().toString()))
          .match(ClusterEvent.MemberExited.class, e -> LOGS.get(test).add("exited@" + self, "",
              e.member().address().toString()))
          .match(ClusterEvent.MemberDowned.class, e -> LOGS.get(test).add("downed@" + self, "",
              e.member().address().toString()))
          .match(ClusterEvent.MemberRemoved.class, e -> LOGS.get(test).add("removed@" + self, "",
              e.member().address().toString()))
          .matchAny(m -> {})
          .build();
    }
  }

  /** Messages {@code "<id>:<n>"} go to entity {@code <id>}. */
  static ShardRegion.MessageExtractor extractor() {
    return new ShardRegion.HashCodeMessageExtractor(60) {
      @Override
      public String entityId(Object message) {
        return message instanceof String s && s.indexOf(':') > 0 ? s.substring(0, s.indexOf(':')) : null;
      }
    };
  }

  /** Three nodes of {@code name} on {@code engine}, each with its own extra settings, all Up everywhere. */
  List<ActorSystem> cluster(String name, String engine, List<String> extras) {
    List<ActorSystem> s = new ArrayList<>();
    for (String extra : extras) {
      s.add(nodes.start(name, engine, extra));
    }
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    List<Address> seeds = s.stream().map(ActorSystem::address).toList();
    for (ActorSystem sys : s) {
      Cluster.get(sys).joinSeedNodes(seeds);
    }
    for (TestKit p : probes) {
      ClusterInMemoryTest.ups(p, 3);
    }
    return s;
  }

  static Member oldest(ActorSystem viewer, Set<Address> except) {
    return Cluster.get(viewer).state().members().stream().filter(m -> !except.contains(m.address()))
        .min(Member.ageOrdering()).orElseThrow();
  }

  /**
   * Sends {@code "<id>:<round>"} for every id through {@code region}; checks one answer per message.
   *
   * @return entity id -> the host that answered
   */
  static Map<String, String> round(TestKit probe, ActorRef region, String round) {
    for (int i = 0; i < IDS; i++) {
      region.tell("e" + i + ":" + round, probe.getRef());
    }
    Map<String, String> where = new HashMap<>();
    for (Object o : probe.receiveN(IDS, CHANGE)) {
      String reply = (String) o;
      String id = reply.substring(0, reply.indexOf(':'));
      assertEquals(round, reply.substring(reply.indexOf(':') + 1, reply.indexOf('@')), "reply of round " + round);
      assertTrue(where.put(id, reply.substring(reply.indexOf('@') + 1)) == null, "one answer per message: " + reply);
    }
    return where;
  }

  /**
   * Terminates the oldest node (which runs the singleton) while messages flow through a survivor's
   * region, then checks the log: the leaver's entities stopped before its engine left, no id was
   * alive twice, the singleton moved.
   */
  private void gracefulLeaveHandsOverBeforeTheEngineLeaves(String name, String engine, String extra) {
    Log log = new Log();
    LOGS.put(name, log);
    String settings = "troupe.cluster.sharding.hand-over-timeout = 10s\n" + extra;
    List<ActorSystem> s = cluster(name, engine, List.of(settings, settings, settings));
    // longer than the leave's acknowledgements may take (leave-ack-timeout = 2s): without the
    // hand-over phase the engine would leave while the entities still run
    Duration stopDelay = Duration.ofMillis(2500);
    List<ActorRef> regions = new ArrayList<>();
    for (ActorSystem sys : s) {
      regions.add(ClusterSharding.get(sys).start("Entity", Props.create(Entity.class, () -> new Entity(name, stopDelay)),
          ClusterShardingSettings.create(sys), extractor(), "hand-off"));
      sys.actorOf(ClusterSingletonManager.props(Props.create(Boss.class, () -> new Boss(name)), PoisonPill.getInstance(),
          ClusterSingletonManagerSettings.create(sys)), "boss");
    }
    ActorSystem leaverSystem = s.stream().filter(x -> x.address().equals(oldest(s.get(0), Set.of()).address()))
        .findFirst().orElseThrow();
    String leaver = host(leaverSystem);
    int viaIndex = s.indexOf(leaverSystem) == 0 ? 1 : 0;
    ActorSystem via = s.get(viaIndex);
    via.actorOf(Props.create(Watcher.class, () -> new Watcher(name)), "watcher");
    ActorRef region = regions.get(viaIndex);
    TestKit probe = new TestKit(via);

    Map<String, String> first = round(probe, region, "0");
    assertEquals(3, new HashSet<>(first.values()).size(), "entities on all three nodes: " + first);
    assertTrue(first.containsValue(leaver));
    probe.awaitCond(CHANGE, () -> log.first(e -> e.what().equals("start") && e.id().equals("boss")) != null);
    assertEquals(leaver, log.first(e -> e.what().equals("start") && e.id().equals("boss")).host(),
        "the singleton runs on the oldest node");

    leaverSystem.terminate();
    // messages keep going while the node leaves: each is answered exactly once
    int r = 0;
    long deadline = System.nanoTime() + CHANGE.multipliedBy(2).toNanos();
    while (!leaverSystem.getWhenTerminated().toCompletableFuture().isDone()
        || Cluster.get(via).state().member(leaverSystem.address()).isPresent()) {
      round(probe, region, "leave" + r++);
      assertTrue(System.nanoTime() < deadline, "the leaving node was removed and terminated within "
          + CHANGE.multipliedBy(2) + " (" + r + " rounds)");
    }
    Map<String, String> after = round(probe, region, "after");
    assertFalse(after.containsValue(leaver), "no entity answers from the node that left: " + after);
    probe.expectNoMessage(Duration.ofMillis(200)); // no duplicate answer came late

    List<Log.Entry> entries = log.snapshot();
    Log.Entry exited = log.first(e -> e.what().startsWith("exited@") && e.host().equals(leaver));
    assertNotNull(exited, "the survivor heard the leaver exit: " + entries);
    for (Log.Entry e : entries) {
      if (e.what().equals("start") && e.host().equals(leaver)) {
        Log.Entry stop = log.first(x -> x.what().equals("stop") && x.id().equals(e.id()) && x.host().equals(leaver)
            && x.seq() > e.seq());
        assertNotNull(stop, e.id() + " stopped on the leaver");
        assertTrue(stop.seq() < exited.seq(), e.id() + " stopped on the leaver (" + stop.seq()
            + ") before a survivor heard it exit (" + exited.seq() + "): " + entries);
        if (engine.equals("in-memory")) {
          assertTrue(stop.inEngine(), e.id() + " stopped while the leaver was still in the engine's group");
        }
      }
    }
    log.assertNoOverlap("e");
    log.assertNoOverlap("boss");
    Log.Entry nextBoss = log.first(e -> e.what().equals("start") && e.id().equals("boss") && !e.host().equals(leaver));
    assertNotNull(nextBoss, "the singleton started again on a survivor: " + entries);
  }

  @Test
  void aTerminatingNodeHandsItsShardsAndSingletonOverBeforeItsEngineLeavesAndEveryMessageIsAnsweredOnce() {
    gracefulLeaveHandsOverBeforeTheEngineLeaves("handover", "in-memory", "");
  }

  @Test
  void theGracefulHandOverRunsOverTheJGroupsEngineToo() {
    // this is no crash: the engine's default failure detection and join timeout, and a patient
    // downing, so that a machine whose cores are busy elsewhere cannot make a slow heartbeat look
    // like a failure while the cluster forms or hands over (as in ClusterJGroupsTest)
    gracefulLeaveHandsOverBeforeTheEngineLeaves("handoverjgroups", "jgroups",
        "troupe.cluster.failure-detector.heartbeat-interval = 1s\n"
            + "troupe.cluster.failure-detector.acceptable-heartbeat-pause = 5s\n"
            + "troupe.cluster.jgroups.join-timeout = 2s\n"
            + "troupe.cluster.downing.stable-after = 20s\n");
  }

  /**
   * A fourth node joins while messages flow (its region started at once, before it is Up, as an
   * application starts it): it takes its share of the shards, each message is answered exactly once
   * throughout, no id is alive on two nodes at once, the entities that stay keep running, and the
   * move is done long before the hand-over timeout (30 s here; a round gives up after 15 s). The
   * joiner's feeder counts views from its own start, so its numbering differs from the others'.
   */
  @Test
  void aJoiningNodeTakesItsShareUnderLoadWithEveryMessageAnsweredOnce() {
    String name = "join";
    Log log = new Log();
    LOGS.put(name, log);
    String settings = "troupe.cluster.sharding.hand-over-timeout = 30s\n";
    List<ActorSystem> s = new ArrayList<>(cluster(name, "in-memory", List.of(settings, settings, settings)));
    List<ActorRef> regions = new ArrayList<>();
    for (ActorSystem sys : s) {
      regions.add(ClusterSharding.get(sys).start("Entity", Props.create(Entity.class, () -> new Entity(name,
          Duration.ZERO)), ClusterShardingSettings.create(sys), extractor(), "hand-off"));
    }
    ActorRef region = regions.get(1);
    TestKit probe = new TestKit(s.get(1));
    TestKit members = ClusterInMemoryTest.probe(s.get(0));
    ClusterInMemoryTest.ups(members, 3);
    Map<String, String> before = round(probe, region, "0");

    ActorSystem joiner = nodes.start(name, "in-memory", settings);
    Cluster.get(joiner).joinSeedNodes(s.stream().map(ActorSystem::address).toList());
    ClusterSharding.get(joiner).start("Entity", Props.create(Entity.class, () -> new Entity(name, Duration.ZERO)),
        ClusterShardingSettings.create(joiner), extractor(), "hand-off");
    s.add(joiner);
    String joinerHost = host(joiner);
    // the owners once the joiner is Up: the same function every region computes
    List<dev.troupe.cluster.UniqueAddress> four = s.stream().map(x -> Cluster.get(x).selfUniqueAddress()).toList();
    Map<String, String> expected = new HashMap<>();
    for (int i = 0; i < IDS; i++) {
      String shard = extractor().shardId("e" + i + ":x");
      expected.put("e" + i, dev.troupe.cluster.internal.sharding.Placement.owner(shard, four).address().toString());
    }
    assertTrue(expected.containsValue(joinerHost), "the joiner owns a share: " + expected);

    // messages keep going through the join; each round is answered exactly once
    int r = 0;
    Map<String, String> now;
    long deadline = System.nanoTime() + CHANGE.toNanos();
    do {
      now = round(probe, region, "join" + r++);
      assertTrue(System.nanoTime() < deadline, "the joiner took its share within " + CHANGE + " (" + r
          + " rounds; last " + now + ")");
    } while (!now.equals(expected));
    Map<String, String> after = round(probe, regions.get(2), "after");
    assertEquals(expected, after, "another region agrees on the owners");
    probe.expectNoMessage(Duration.ofMillis(200)); // no duplicate answer came late

    log.assertNoOverlap("e");
    for (int i = 0; i < IDS; i++) {
      String id = "e" + i;
      long starts = log.snapshot().stream().filter(e -> e.what().equals("start") && e.id().equals(id)).count();
      assertEquals(before.get(id).equals(expected.get(id)) ? 1 : 2, starts,
          id + " started once, or once more on the joiner if it moved there: " + log.snapshot());
    }
  }

  @Test
  void aCrashedNodesShardsAndSingletonMoveToTheSurvivorsOnlyAfterItsRemoval() {
    String name = "crash";
    Log log = new Log();
    LOGS.put(name, log);
    List<ActorSystem> s = cluster(name, "in-memory", List.of("", "", ""));
    List<ActorRef> regions = new ArrayList<>();
    for (ActorSystem sys : s) {
      regions.add(ClusterSharding.get(sys).start("Entity", Props.create(Entity.class, () -> new Entity(name,
          Duration.ZERO)), ClusterShardingSettings.create(sys), extractor()));
      sys.actorOf(ClusterSingletonManager.props(Props.create(Boss.class, () -> new Boss(name)), PoisonPill.getInstance(),
          ClusterSingletonManagerSettings.create(sys)), "boss");
    }
    Member crashed = oldest(s.get(0), Set.of());
    ActorSystem crashedSystem = s.stream().filter(x -> x.address().equals(crashed.address())).findFirst().orElseThrow();
    List<ActorSystem> survivors = s.stream().filter(x -> x != crashedSystem).toList();
    ActorRef region = regions.get(s.indexOf(survivors.get(0)));
    TestKit probe = new TestKit(survivors.get(0));
    Map<String, String> first = round(probe, region, "0");
    String gone = crashed.address().toString();
    assertTrue(first.containsValue(gone), "some entities live on the node that crashes: " + first);
    probe.awaitCond(CHANGE, () -> log.first(e -> e.what().equals("start") && e.id().equals("boss")) != null);

    InMemoryCluster.crash(name, crashed.uniqueAddress());
    for (ActorSystem sys : survivors) {
      probe.awaitCond(CHANGE, () -> Cluster.get(sys).state().member(crashed.address()).isEmpty());
    }
    // after the removal, every entity answers from a survivor (started again by its next message)
    Map<String, String> after = new HashMap<>();
    probe.awaitCond(CHANGE, () -> {
      after.clear();
      after.putAll(round(probe, region, "after"));
      return !after.containsValue(gone);
    });
    assertEquals(after, round(probe, regions.get(s.indexOf(survivors.get(1))), "after1"),
        "both survivors agree on the owners");
    TestKit bossProbe = new TestKit(survivors.get(1));
    String next = oldest(survivors.get(0), Set.of(crashed.address())).address().toString();
    bossProbe.awaitCond(CHANGE, () -> log.first(e -> e.what().equals("start") && e.id().equals("boss")
        && e.host().equals(next)) != null);

    List<Log.Entry> entries = log.snapshot();
    int moved = 0;
    for (Log.Entry e : entries) {
      boolean wasOnCrashed = gone.equals(first.get(e.id())) || e.id().equals("boss");
      if (e.what().equals("start") && !e.host().equals(gone) && wasOnCrashed) {
        moved++;
        assertFalse(e.members().contains(gone), e.id() + " started on " + e.host() + " only once the crashed node was"
            + " removed there (members then: " + e.members() + ")");
      }
    }
    assertTrue(moved > 1, "the crashed node's entities and its singleton started on survivors: " + entries);
    // before the removal an id lived on one member only; the crashed node's own actors live on in this
    // JVM (it hears nothing more), but it is no member any more
    Map<String, String> live = new HashMap<>();
    for (Log.Entry e : entries) {
      if (e.id().startsWith("e") && e.what().equals("start") && !e.host().equals(gone)) {
        String other = live.put(e.id(), e.host());
        assertTrue(other == null, e.id() + " alive on two survivors: " + entries);
      } else if (e.id().startsWith("e") && e.what().equals("stop")) {
        live.remove(e.id(), e.host());
      }
    }
  }

  @Test
  void entitiesLiveOnlyOnMembersWithTheRoleAndAProxyOnAnotherMemberReachesThem() {
    String name = "roles";
    Log log = new Log();
    LOGS.put(name, log);
    String shard = "troupe.cluster.roles = [shard]\n";
    List<ActorSystem> s = cluster(name, "in-memory", List.of(shard, shard, ""));
    List<ActorRef> regions = new ArrayList<>();
    for (ActorSystem sys : s.subList(0, 2)) {
      regions.add(ClusterSharding.get(sys).start("Entity", Props.create(Entity.class, () -> new Entity(name,
          Duration.ZERO)), ClusterShardingSettings.create(sys).withRole("shard"), extractor()));
    }
    ActorRef proxy = ClusterSharding.get(s.get(2)).startProxy("Entity", Optional.of("shard"), extractor());
    TestKit probe = new TestKit(s.get(2));
    Map<String, String> where = round(probe, proxy, "p");
    Set<String> withRole = Set.of(host(s.get(0)), host(s.get(1)));
    assertEquals(withRole, new HashSet<>(where.values()), "entities on both members with the role, none elsewhere");
    assertEquals(where, round(new TestKit(s.get(0)), regions.get(0), "r"), "a region reaches the same entities");
    for (Log.Entry e : log.snapshot()) {
      assertTrue(withRole.contains(e.host()), "an entity started only on a member with the role: " + e);
    }
  }
}
