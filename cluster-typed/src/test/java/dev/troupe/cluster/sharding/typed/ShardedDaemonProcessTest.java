package dev.troupe.cluster.sharding.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.cluster.typed.Members;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * A sharded daemon process on a three-member cluster in this JVM (the in-memory engine, remoting on
 * 127.0.0.1, port 0; the reminders cross the wire between the members): every instance runs once,
 * on some member, while the members stay; when a member leaves, its instances get the stop message
 * and run again on the others; bad names, counts and settings are refused where they are given.
 * The test with a leaving member runs last: the others need all three members.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(120)
class ShardedDaemonProcessTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int INSTANCES = 12;

  /** Every message of this test that goes between the members (Jackson writes them). */
  interface Wire {}

  /** What an instance accepts. */
  interface Command extends Wire {}

  /** The process's stop message. */
  record Stop() implements Command {}

  /** What instances report to the test's probe. */
  record Report(String what, int instance, String node) {}

  private List<dev.troupe.actor.ActorSystem> members;
  private TestProbe<Report> reports; // on the first member

  private static Behavior<Command> instance(int i, ActorRef<Report> reports) {
    return Behaviors.setup(ctx -> {
      String node = Cluster.get(Adapter.toClassic(ctx.getSystem())).selfAddress().toString();
      reports.tell(new Report("started", i, node));
      return Behaviors.receive(Command.class)
          .onMessage(Stop.class, m -> {
            reports.tell(new Report("stop message", i, node));
            return Behaviors.stopped();
          })
          .build();
    });
  }

  @BeforeAll
  void cluster() {
    members = Members.start("daemons", 3, Wire.class, WAIT,
        "troupe.cluster.sharded-daemon-process.keep-alive-interval = 300ms");
    reports = TestProbe.create(Adapter.toTyped(members.get(0)));
    ActorRef<Report> to = reports.getRef();
    IntFunction<Behavior<Command>> factory = i -> instance(i, to);
    for (dev.troupe.actor.ActorSystem s : members) {
      ShardedDaemonProcess.get(s).init(Command.class, "workers", INSTANCES, factory,
          ShardedDaemonProcessSettings.create(s), Optional.of(new Stop()));
    }
  }

  @AfterAll
  void stop() {
    Members.stop(members);
  }

  /** Reports until {@code n} of {@code what} arrived; other reports fail the test. */
  private Map<Integer, String> collect(String what, int n) {
    Map<Integer, String> where = new HashMap<>();
    while (where.size() < n) {
      Report r = reports.receiveMessage(WAIT);
      assertEquals(what, r.what(), "expected only '" + what + "' reports now, got " + r);
      assertNull(where.put(r.instance(), r.node()), "instance " + r.instance() + " " + what + " twice: " + r);
    }
    return where;
  }

  @Test
  @Order(Integer.MAX_VALUE)
  void everyInstanceRunsOnceAndThoseOfALeavingMemberRunAgainOnTheOthers() {
    Map<Integer, String> where = collect("started", INSTANCES);
    assertEquals(INSTANCES, where.size());
    for (int i = 0; i < INSTANCES; i++) {
      assertTrue(where.containsKey(i), "instance " + i + " runs: " + where);
    }
    // more reminders (every 300 ms, from every member) start nothing more while the members stay
    reports.expectNoMessage(Duration.ofSeconds(1));

    // the later member hosting the most instances leaves; the probe's member (the first) stays
    dev.troupe.actor.ActorSystem leaver = members.get(1);
    for (dev.troupe.actor.ActorSystem m : members.subList(1, 3)) {
      if (count(where, m) > count(where, leaver)) {
        leaver = m;
      }
    }
    String gone = leaver.address().toString();
    List<Integer> moving = new ArrayList<>();
    where.forEach((i, node) -> {
      if (node.equals(gone)) {
        moving.add(i);
      }
    });
    assertFalse(moving.isEmpty(), "with " + INSTANCES + " instances on 3 members, the busier of two hosts some: " + where);
    Cluster.get(leaver).leave(leaver.address());

    Set<Integer> stopped = new HashSet<>();
    Map<Integer, String> restarted = new HashMap<>();
    while (stopped.size() < moving.size() || restarted.size() < moving.size()) {
      Report r = reports.receiveMessage(WAIT);
      assertTrue(moving.contains(r.instance()), "only the leaver's instances move: " + r + ", moving " + moving);
      if (r.what().equals("stop message")) {
        assertEquals(gone, r.node(), "the stop message reaches the instance on the leaver");
        assertTrue(stopped.add(r.instance()), "stopped once: " + r);
      } else {
        assertEquals("started", r.what());
        assertFalse(r.node().equals(gone), "an instance runs again on a member that stays: " + r);
        assertTrue(stopped.contains(r.instance()), "started again only after it stopped on the leaver: " + r);
        assertNull(restarted.put(r.instance(), r.node()), "started again once: " + r);
      }
    }
    reports.expectNoMessage(Duration.ofSeconds(1));
  }

  private static int count(Map<Integer, String> where, dev.troupe.actor.ActorSystem member) {
    String a = member.address().toString();
    return (int) where.values().stream().filter(a::equals).count();
  }

  /**
   * The reminders of one member start instances hosted on the others: a region forwards a {@code
   * StartEntity} across the wire (a type with the process's extractor and no keep-alive of its own,
   * reminded from the last member only).
   */
  @Test
  void remindersFromOneMemberStartInstancesOnEveryMember() {
    TestProbe<Report> crossing = TestProbe.create(Adapter.toTyped(members.get(0)));
    ActorRef<Report> to = crossing.getRef();
    dev.troupe.actor.ActorRef last = null;
    for (dev.troupe.actor.ActorSystem s : members) {
      dev.troupe.actor.Props props = Adapter.props(Behaviors.<Command>setup(ctx -> {
        int i = Integer.parseInt(ctx.getSelf().path().name());
        return instance(i, to);
      }));
      last = dev.troupe.cluster.sharding.ClusterSharding.get(s).start("crossing", props,
          dev.troupe.cluster.sharding.ClusterShardingSettings.create(s),
          new ShardedDaemonProcess.InstanceExtractor(INSTANCES), dev.troupe.actor.PoisonPill.getInstance());
    }
    for (int i = 0; i < INSTANCES; i++) {
      last.tell(new ShardRegion.StartEntity(Integer.toString(i)), dev.troupe.actor.ActorRef.noSender());
    }
    Set<String> nodes = new HashSet<>();
    Set<Integer> started = new HashSet<>();
    while (started.size() < INSTANCES) {
      Report r = crossing.receiveMessage(WAIT);
      assertTrue(started.add(r.instance()), "started once: " + r);
      nodes.add(r.node());
    }
    String reminder = members.get(2).address().toString();
    assertTrue(nodes.stream().anyMatch(n -> !n.equals(reminder)),
        "some of " + INSTANCES + " instances live on the two other members, reminded across the wire: " + nodes);
  }

  @Test
  void badNamesCountsAndASecondInitWithAnotherCountAreRefused() {
    ShardedDaemonProcess p = ShardedDaemonProcess.get(members.get(0));
    IntFunction<Behavior<Command>> factory = i -> Behaviors.empty();
    for (String bad : List.of("", "a b", "a/b", "x".repeat(101))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> p.init(Command.class, bad, 1, factory), "name '" + bad + "'");
      assertTrue(e.getMessage().contains("name"), e.getMessage());
    }
    for (int bad : new int[] {0, -1, ShardedDaemonProcess.MAX_INSTANCES + 1}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> p.init(Command.class, "counted", bad, factory));
      assertTrue(e.getMessage().contains("numberOfInstances"), e.getMessage());
    }
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> p.init(Command.class, "workers", INSTANCES + 1, factory));
    assertTrue(other.getMessage().contains(INSTANCES + " instances"), other.getMessage());
    p.init(Command.class, "workers", INSTANCES, factory); // the same count again: nothing happens
  }

  @Test
  void settingsAreReadFromConfigurationAndMalformedValuesNameTheirKey() {
    ShardedDaemonProcessSettings s = ShardedDaemonProcessSettings.create(members.get(0));
    assertEquals(Duration.ofMillis(300), s.keepAliveInterval());
    assertTrue(s.role().isEmpty());
    assertEquals(Optional.of("w"), s.withRole("w").role());
    String key = "troupe.cluster.sharded-daemon-process.keep-alive-interval";
    for (String bad : List.of("soon", "0s", "-1s")) {
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> ShardedDaemonProcessSettings.fromConfig(ConfigFactory.parseString(key + " = " + bad)));
      assertTrue(e.getMessage().contains(key), e.getMessage());
    }
    assertEquals(Duration.ofSeconds(10), ShardedDaemonProcessSettings.fromConfig(ConfigFactory.load()).keepAliveInterval(),
        "the default");
    assertThrows(IllegalArgumentException.class, () -> s.withKeepAliveInterval(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> s.withRole(" w"));
  }

  @Test
  void onlyRemindersForAnInstanceReachTheSharding() {
    ShardedDaemonProcess.InstanceExtractor x = new ShardedDaemonProcess.InstanceExtractor(12);
    for (String id : List.of("0", "7", "11")) {
      assertEquals(id, x.entityId(new ShardRegion.StartEntity(id)));
      assertEquals(id, x.shardId(new ShardRegion.StartEntity(id)));
    }
    for (String id : List.of("12", "-1", "01", "1x", "", "999999", "x")) {
      assertNull(x.entityId(new ShardRegion.StartEntity(id)), id);
      assertNull(x.shardId(new ShardRegion.StartEntity(id)), id);
    }
    assertNull(x.entityId(new Stop()), "a message for an instance through the sharding");
  }
}
