package dev.troupe.cluster.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine against a ZooKeeper server in this JVM, listening on 127.0.0.1 only: views in join
 * order on every member, leave and close, a seed on another ensemble refused, an ensemble out of
 * reach failing the join in its time, a node that is not a member left out, a digest that keeps
 * clients without it from adding or removing members, a suspended connection
 * suspecting the others, and an expired session reporting a view without this member. Each test has its own server, its own root, and stops everything it started.
 */
@Timeout(90)
class ZooKeeperMembershipProviderTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final AtomicInteger PORTS = new AtomicInteger(25520);

  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  /** A server on 127.0.0.1 with short ticks (sessions of 1..10 s). */
  private TestingServer server() throws Exception {
    InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1,
        Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
    TestingServer s = new TestingServer(spec, true);
    toClose.add(s);
    return s;
  }

  private static MembershipContext context(String name, String connect, String sessionTimeout, String... roles) {
    return guarded(name, connect, sessionTimeout, "", roles);
  }

  private static MembershipContext guarded(String name, String connect, String sessionTimeout, String digest,
      String... roles) {
    UniqueAddress self = new UniqueAddress(Address.remote("zk", "127.0.0.1", PORTS.incrementAndGet()),
        PORTS.get() * 31L);
    return new MembershipContext(self, Set.of(roles), name, Duration.ofSeconds(1), Duration.ofSeconds(5),
        withDefaults("zookeeper { connect = \"" + connect + "\", root = /engine-test,"
            + " session-timeout = " + sessionTimeout + ", connection-timeout = 5s, auth-digest = \"" + digest + "\" }"));
  }

  /** The test's settings over the module's reference.conf, as a system would read them. */
  private static com.typesafe.config.Config withDefaults(String hocon) {
    return ConfigFactory.parseString(hocon).withFallback(ConfigFactory.defaultReference().getConfig("troupe.cluster"));
  }

  private MembershipProvider engine(MembershipContext context) {
    MembershipProvider e = new ZooKeeperProviderFactory().create(context);
    toClose.add(e);
    return e;
  }

  /** What a listener heard, for the test's thread. */
  record Heard(String kind, MembershipView view, UniqueAddress member) {}

  static final class Recorder implements MembershipListener {
    final BlockingQueue<Heard> heard = new LinkedBlockingQueue<>();

    @Override
    public void viewChanged(MembershipView view) {
      heard.add(new Heard("view", view, null));
    }

    @Override
    public void suspected(UniqueAddress member) {
      heard.add(new Heard("suspected", null, member));
    }

    @Override
    public void unsuspected(UniqueAddress member) {
      heard.add(new Heard("unsuspected", null, member));
    }

    /** Takes until {@code p} holds; fails after {@link #WAIT} naming what came. */
    Heard await(String what, Predicate<Heard> p) throws InterruptedException {
      List<Heard> seen = new ArrayList<>();
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (true) {
        Heard h = heard.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (h == null) {
          return fail(what + " not heard within " + WAIT + "; heard " + seen);
        }
        seen.add(h);
        if (p.test(h)) {
          return h;
        }
      }
    }

    MembershipView awaitView(String what, List<EngineMember> members) throws InterruptedException {
      return await(what, h -> h.view() != null && h.view().members().equals(members)).view();
    }
  }

  /** Joins {@code a}, then {@code b}; returns once {@code a} reports both; {@code a}'s recorder. */
  private Recorder joinBoth(MembershipContext a, MembershipContext b) throws Exception {
    Recorder ra = new Recorder();
    engine(a).join(List.of(), ra);
    engine(b).join(List.of(), new Recorder());
    ra.awaitView("a view of both members", List.of(member(a), member(b)));
    return ra;
  }

  private static EngineMember member(MembershipContext c) {
    return new EngineMember(c.self(), c.roles());
  }

  @Test
  void everyMemberSeesTheSameViewsOldestFirstAndLeaveAndCloseTakeAMemberOut() throws Exception {
    String connect = server().getConnectString();
    MembershipContext a = context("views", connect, "5s", "backend");
    MembershipContext b = context("views", connect, "5s");
    MembershipContext c = context("views", connect, "5s", "frontend", "web");
    Recorder ra = new Recorder();
    Recorder rb = new Recorder();
    Recorder rc = new Recorder();
    MembershipProvider ea = engine(a);
    String endpoint = ea.join(List.of(), ra);
    MembershipView first = ra.heard.poll(WAIT.toSeconds(), TimeUnit.SECONDS).view();
    assertEquals(List.of(member(a)), first.members(), "the first report holds this node");
    MembershipProvider eb = engine(b);
    assertEquals(endpoint, eb.join(List.of(endpoint), rb), "one endpoint for one ensemble and cluster");
    engine(c).join(List.of(endpoint), rc);

    List<EngineMember> all = List.of(member(a), member(b), member(c));
    long va = ra.awaitView("all three on a", all).version();
    rb.awaitView("all three on b", all);
    rc.awaitView("all three on c", all);
    assertTrue(va > first.version(), "versions increase");

    eb.leave();
    List<EngineMember> withoutB = List.of(member(a), member(c));
    ra.awaitView("b gone on a", withoutB);
    rc.awaitView("b gone on c", withoutB);
    assertTrue(rb.heard.stream().noneMatch(h -> h.view() != null && h.view().members().equals(withoutB)),
        "a member that left hears nothing more");

    toClose.remove(eb);
    MembershipProvider ec = (MembershipProvider) toClose.get(toClose.size() - 1);
    ec.close(); // its session ends with the client: its node goes at once
    ra.awaitView("c gone on a", List.of(member(a)));
  }

  @Test
  void aSeedOnAnotherEnsembleOrRootIsRefusedAndTheEngineCanStillJoin() throws Exception {
    String connect = server().getConnectString();
    MembershipProvider e = engine(context("seeds", connect, "5s"));
    Recorder r = new Recorder();
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> e.join(List.of("zookeeper:127.0.0.1:1/elsewhere/seeds/members"), r));
    assertTrue(refused.getMessage().contains("troupe.cluster.zookeeper.connect"), refused.getMessage());
    e.join(List.of(), r);
    r.await("a view after the refused join", h -> h.view() != null);
  }

  @Test
  void anEnsembleOutOfReachFailsTheJoinWithinTheConnectionTimeout() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    MembershipContext ctx = new MembershipContext(
        new UniqueAddress(Address.remote("zk", "127.0.0.1", 1), 1), Set.of(), "nobody", Duration.ofSeconds(1),
        Duration.ofSeconds(5), withDefaults("zookeeper { connect = \"127.0.0.1:" + closedPort
            + "\", root = /t, session-timeout = 2s, connection-timeout = 500ms }"));
    MembershipProvider e = engine(ctx);
    long start = System.nanoTime();
    IOException failed = assertThrows(IOException.class, () -> e.join(List.of(), new Recorder()));
    long took = System.nanoTime() - start;
    assertTrue(failed.getMessage().contains("connection-timeout"), failed.getMessage());
    assertTrue(took < TimeUnit.SECONDS.toNanos(10), "failed in " + took / 1_000_000 + " ms");
  }

  @Test
  void aNodeThatIsNotAMemberRecordIsLeftOutOfTheViews() throws Exception {
    TestingServer s = server();
    MembershipContext a = context("garbage", s.getConnectString(), "5s");
    MembershipContext b = context("garbage", s.getConnectString(), "5s");
    Recorder ra = new Recorder();
    engine(a).join(List.of(), ra);
    ra.awaitView("a alone", List.of(member(a)));
    try (CuratorFramework raw = CuratorFrameworkFactory.newClient(s.getConnectString(), new RetryOneTime(100))) {
      raw.start();
      raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
          .forPath("/engine-test/garbage/members/m-", "not a member\n".getBytes(StandardCharsets.UTF_8));
      raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
          .forPath("/engine-test/garbage/members/m-", new byte[MemberRecord.MAX_BYTES + 1]);
      engine(b).join(List.of(), new Recorder());
      ra.awaitView("a and b, no garbage", List.of(member(a), member(b)));
    }
  }

  @Test
  void withADigestOnlyClientsWithTheCredentialsAddOrRemoveMembers() throws Exception {
    TestingServer s = server();
    MembershipContext a = guarded("guarded", s.getConnectString(), "5s", "troupe:a-long-shared-secret");
    MembershipContext b = guarded("guarded", s.getConnectString(), "5s", "troupe:a-long-shared-secret");
    Recorder ra = joinBoth(a, b);
    String members = "/engine-test/guarded/members";
    byte[] intruder = MemberRecord.encode(new EngineMember(
        new UniqueAddress(Address.remote("zk", "127.0.0.1", 1), 1), Set.of()));
    for (String who : new String[] {"", "troupe:a-wrong-secret"}) {
      CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder().connectString(s.getConnectString())
          .retryPolicy(new RetryOneTime(100));
      if (!who.isEmpty()) {
        builder.authorization("digest", who.getBytes(StandardCharsets.UTF_8));
      }
      try (CuratorFramework raw = builder.build()) {
        raw.start();
        assertEquals(2, raw.getChildren().forPath(members).size(), "anyone may read");
        assertThrows(KeeperException.NoAuthException.class,
            () -> raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(members + "/m-", intruder),
            "no member added by " + (who.isEmpty() ? "a client without credentials" : "a wrong secret"));
        String first = raw.getChildren().forPath(members).get(0);
        assertThrows(KeeperException.NoAuthException.class, () -> raw.delete().forPath(members + "/" + first));
        assertThrows(KeeperException.NoAuthException.class, () -> raw.delete().forPath("/engine-test/guarded"));
      }
    }
    ra.heard.clear();
    assertTrue(ra.heard.poll(300, TimeUnit.MILLISECONDS) == null, "the view did not change");
  }

  @Test
  void aSuspendedConnectionSuspectsTheOthers() throws Exception {
    TestingServer s = server();
    MembershipContext a = context("suspend", s.getConnectString(), "8s");
    MembershipContext b = context("suspend", s.getConnectString(), "8s");
    Recorder ra = joinBoth(a, b);
    s.stop(); // the ensemble out of reach: the sessions may live on, so the others are suspected, not gone
    ra.await("b suspected", h -> h.kind().equals("suspected") && h.member().equals(b.self()));
  }

  @Test
  void anExpiredSessionReportsAViewWithoutThisMember() throws Exception {
    TestingServer s = server();
    MembershipContext a = context("expiry", s.getConnectString(), "1s");
    Recorder ra = new Recorder();
    engine(a).join(List.of(), ra);
    ra.awaitView("a alone", List.of(member(a)));
    s.stop(); // out of reach longer than the session's 1 s: the client gives the session up
    MembershipView after = ra.awaitView("a view without a", List.of());
    assertTrue(after.version() > 1, "a new version");
  }

  @Test
  void malformedSettingsNameTheirKey() {
    for (String[] bad : new String[][] {
        {"connect = \"\"", "troupe.cluster.zookeeper.connect"},
        {"connect = \"localhost\"", "troupe.cluster.zookeeper.connect"},
        {"connect = \"h:99999\"", "troupe.cluster.zookeeper.connect"},
        {"root = \"troupe\"", "troupe.cluster.zookeeper.root"},
        {"root = \"/troupe/\"", "troupe.cluster.zookeeper.root"},
        {"session-timeout = forever", "troupe.cluster.zookeeper.session-timeout"},
        {"connection-timeout = 0s", "troupe.cluster.zookeeper.connection-timeout"},
        {"auth-digest = \"no-colon\"", "troupe.cluster.zookeeper.auth-digest"},
        {"auth-digest = \":password\"", "troupe.cluster.zookeeper.auth-digest"}}) {
      MembershipContext ctx = new MembershipContext(new UniqueAddress(Address.remote("zk", "127.0.0.1", 1), 1),
          Set.of(), "bad", Duration.ofSeconds(1), Duration.ofSeconds(5), withDefaults(
              "zookeeper { connect = \"127.0.0.1:2181\", root = /troupe, session-timeout = 6s,"
                  + " connection-timeout = 5s }\nzookeeper." + bad[0]));
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> new ZooKeeperProviderFactory().create(ctx), bad[0]);
      assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
      assertTrue(!e.getMessage().contains("password") || !bad[0].contains("password") || e.getMessage().contains(
          "user:password"), "a secret is never echoed: " + e.getMessage());
    }
  }
}
