package dev.troupe.cluster.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The endpoint over members of the in-memory engine in this JVM (remoting and HTTP on 127.0.0.1,
 * port 0), spoken to with plain sockets so that malformed and oversized requests can be sent too.
 */
@Timeout(90)
class ClusterHttpManagementTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<ActorSystem> systems = new ArrayList<>();

  @AfterEach
  void stop() {
    systems.forEach(ActorSystem::terminate);
    systems.forEach(TestKit::shutdownActorSystem);
  }

  /** A system of the test's cluster with {@code role}; {@code extra} wins over the test's settings. */
  private ActorSystem member(String role, String extra) {
    ActorSystem s = ActorSystem.create("mgmt", ConfigFactory.parseString("troupe.actor.provider = cluster\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.cluster.membership.provider = in-memory\n"
        + "troupe.cluster.seed-node-timeout = 300ms\n"
        + "troupe.cluster.leave-ack-timeout = 2s\n"
        + "troupe.cluster.roles = [\"" + role + "-role\"]\n"
        + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
        + "troupe.cluster.management.http.port = 0\n" + extra));
    systems.add(s);
    return s;
  }

  private static void awaitUp(ActorSystem s) {
    new TestKit(s).awaitCond(WAIT, Duration.ofMillis(20), s.address() + " is Up",
        () -> Cluster.get(s).selfMember().status() == MemberStatus.UP);
  }

  /** An answer: status code and body. */
  record Reply(int status, String headers, String body) {}

  /** Sends raw bytes on a new connection and reads the whole answer (the request asks to close). */
  private static Reply send(InetSocketAddress to, byte[] request) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(to, 5000);
      s.setSoTimeout(5000);
      s.getOutputStream().write(request);
      s.getOutputStream().flush();
      String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int end = all.indexOf("\r\n\r\n");
      assertTrue(all.startsWith("HTTP/1.1 ") && end > 0, "an HTTP answer: " + all);
      return new Reply(Integer.parseInt(all.substring(9, 12)), all.substring(0, end), all.substring(end + 4));
    }
  }

  private static Reply request(InetSocketAddress to, String method, String path, String body) throws IOException {
    String r = method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        + (body == null ? "" : "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
            + body.getBytes(StandardCharsets.UTF_8).length + "\r\n")
        + "\r\n" + (body == null ? "" : body);
    return send(to, r.getBytes(StandardCharsets.UTF_8));
  }

  private static String encoded(ActorSystem s) {
    return URLEncoder.encode(s.address().toString(), StandardCharsets.UTF_8);
  }

  /** Two members, {@code a} (the first, with {@code extraA}) and {@code b}, both Up. */
  private List<ActorSystem> pair(String extraA, String extraB) {
    ActorSystem a = member("a", extraA);
    ActorSystem b = member("b", extraB);
    Cluster.get(a).join(a.address());
    awaitUp(a);
    Cluster.get(b).join(a.address());
    awaitUp(b);
    return List.of(a, b);
  }

  @Test
  void membersAsJsonAndHealthForOrchestrators() throws Exception {
    List<ActorSystem> ab = pair("", "");
    ActorSystem a = ab.get(0);
    ActorSystem b = ab.get(1);
    new TestKit(a).awaitCond(WAIT, Duration.ofMillis(20), "a sees b Up", () -> Cluster.get(a).state().members().stream()
        .filter(m -> m.status() == MemberStatus.UP).count() == 2);
    InetSocketAddress http = ClusterHttpManagement.get(a).boundAddress();

    Reply members = request(http, "GET", "/cluster/members", null);
    assertEquals(200, members.status(), members.body());
    assertTrue(members.headers().contains("application/json"), members.headers());
    JsonNode json = JSON.readTree(members.body());
    assertEquals(a.address().toString(), json.get("selfNode").asText());
    assertEquals(a.address().toString(), json.get("oldest").asText(), "the first member is the oldest");
    assertEquals(2, json.get("members").size(), members.body());
    for (JsonNode m : json.get("members")) {
      assertEquals("Up", m.get("status").asText(), members.body());
    }
    assertEquals(0, json.get("unreachable").size());

    Reply one = request(http, "GET", "/cluster/members/" + encoded(b), null);
    assertEquals(200, one.status(), one.body());
    JsonNode bj = JSON.readTree(one.body());
    assertEquals(b.address().toString(), bj.get("node").asText());
    assertEquals("b-role", bj.get("roles").get(0).asText());
    assertEquals(Long.toString(Cluster.get(b).selfUniqueAddress().uid()), bj.get("nodeUid").asText());

    assertEquals(404, request(http, "GET", "/cluster/members/" + URLEncoder.encode("troupe://a@127.0.0.1:1",
        StandardCharsets.UTF_8), null).status(), "no such member");
    Reply malformed = request(http, "GET", "/cluster/members/nonsense", null);
    assertEquals(400, malformed.status());
    assertTrue(malformed.body().contains("malformed address"), malformed.body());
    assertEquals("OK", request(http, "GET", "/health/ready", null).body());
    assertEquals(200, request(http, "GET", "/health/alive", null).status());
    assertEquals(404, request(http, "GET", "/nowhere", null).status());
    Reply post = request(http, "POST", "/health/ready", "x=1");
    assertEquals(405, post.status());
    assertTrue(post.headers().contains("allow: GET") || post.headers().contains("Allow: GET"), post.headers());

    Reply refused = request(http, "PUT", "/cluster/members/" + encoded(b), "operation=leave");
    assertEquals(403, refused.status(), "read-only by default");
    assertEquals(403, request(http, "DELETE", "/cluster/members/" + encoded(b), null).status());
    assertEquals(MemberStatus.UP, Cluster.get(b).selfMember().status(), "b stays");
  }

  @Test
  void notReadyUntilUpAndGoneWithTheSystem() throws Exception {
    ActorSystem a = member("alone", "");
    InetSocketAddress http = ClusterHttpManagement.get(a).boundAddress();
    Reply ready = request(http, "GET", "/health/ready", null);
    assertEquals(503, ready.status(), "not a member yet: " + ready.body());
    assertEquals(200, request(http, "GET", "/health/alive", null).status(), "alive while it joins");
    Cluster.get(a).join(a.address());
    awaitUp(a);
    assertEquals(200, request(http, "GET", "/health/ready", null).status());

    TestKit.shutdownActorSystem(a);
    new TestKit(member("probe", "")).awaitCond(WAIT, Duration.ofMillis(50), "the endpoint closed with its system", () -> {
      try {
        request(http, "GET", "/health/alive", null);
        return false;
      } catch (ConnectException e) {
        return true;
      } catch (IOException | AssertionError e) {
        return false;
      }
    });
  }

  @Test
  void withReadOnlyOffAMemberCanBeMadeToLeaveAndABadOperationIsRefused() throws Exception {
    List<ActorSystem> ab = pair("", "troupe.cluster.management.http.read-only = off\n");
    ActorSystem a = ab.get(0);
    ActorSystem b = ab.get(1);
    InetSocketAddress http = ClusterHttpManagement.get(b).boundAddress();
    Reply bad = request(http, "PUT", "/cluster/members/" + encoded(b), "operation=dance");
    assertEquals(400, bad.status());
    assertTrue(bad.body().contains("operation=leave"), bad.body());
    Reply leave = request(http, "PUT", "/cluster/members/" + encoded(b), "operation=Leave");
    assertEquals(200, leave.status(), leave.body());
    new TestKit(a).awaitCond(WAIT, Duration.ofMillis(20), "b left", () -> Cluster.get(a).state().members().stream()
        .noneMatch(m -> m.address().equals(b.address())));
  }

  @Test
  void malformedOversizedIdleAndSurplusConnectionsAreBoundedAndOthersAreServedOn() throws Exception {
    ActorSystem a = member("bounded", "troupe.cluster.management.http { max-connections = 2, idle-timeout = 300ms }\n");
    Cluster.get(a).join(a.address());
    awaitUp(a);
    InetSocketAddress http = ClusterHttpManagement.get(a).boundAddress();

    Reply garbage = send(http, "\u0001\u0002 NOT HTTP AT ALL\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    assertEquals(400, garbage.status(), garbage.body());
    String longLine = "GET /" + "x".repeat(ClusterHttpManagement.MAX_INITIAL_LINE + 10) + " HTTP/1.1\r\nHost: h\r\n\r\n";
    assertTrue(send(http, longLine.getBytes(StandardCharsets.US_ASCII)).status() >= 400, "a request line past 4 KiB");
    String big = "PUT /cluster/members/x HTTP/1.1\r\nHost: h\r\nContent-Length: " + (ClusterHttpManagement.MAX_BODY + 1)
        + "\r\nConnection: close\r\n\r\n";
    assertEquals(413, send(http, big.getBytes(StandardCharsets.US_ASCII)).status(), "a body past 16 KiB");
    assertEquals(200, request(http, "GET", "/health/alive", null).status(), "served on after each");

    try (Socket one = new Socket(); Socket two = new Socket(); Socket three = new Socket()) {
      one.connect(http, 5000);
      two.connect(http, 5000);
      three.connect(http, 5000);
      assertEquals(-1, readBounded(three), "a third connection is closed as it opens");
      assertEquals(-1, readBounded(one), "an idle connection is closed after idle-timeout");
    }
    new TestKit(a).awaitCond(WAIT, Duration.ofMillis(20), "a new connection is served once the others closed", () -> {
      try {
        return request(http, "GET", "/health/alive", null).status() == 200;
      } catch (IOException | AssertionError e) {
        return false;
      }
    });
  }

  /** Reads one byte, waiting at most a few seconds: -1 when the server closed the connection. */
  private static int readBounded(Socket s) throws IOException {
    s.setSoTimeout(5000);
    InputStream in = s.getInputStream();
    try {
      return in.read();
    } catch (SocketTimeoutException e) {
      return -2;
    } catch (IOException e) {
      return -1; // reset by the server
    }
  }

  @Test
  void malformedSettingsNameTheirKeyAndABusyPortIsReportedWhereItIsStarted() {
    String path = ClusterHttpManagementSettings.PATH;
    for (String[] bad : new String[][] {{"port", "99999"}, {"port", "eighty"}, {"max-connections", "0"},
        {"idle-timeout", "soon"}, {"idle-timeout", "0s"}, {"hostname", "\"\""}, {"read-only", "maybe"}}) {
      ConfigurationException e = assertThrows(ConfigurationException.class, () -> ClusterHttpManagementSettings.fromConfig(
          ConfigFactory.parseString(path + "." + bad[0] + " = " + bad[1]).withFallback(ConfigFactory.load())));
      assertTrue(e.getMessage().contains(path + "." + bad[0]), e.getMessage());
    }
    ActorSystem a = member("first", "");
    int port = ClusterHttpManagement.get(a).boundAddress().getPort();
    ActorSystem b = member("second", "troupe.cluster.management.http.port = " + port + "\n");
    IllegalStateException busy = assertThrows(IllegalStateException.class, () -> ClusterHttpManagement.get(b));
    assertTrue(busy.getMessage().contains("troupe.cluster.management.http") && busy.getMessage().contains(":" + port),
        busy.getMessage());
  }

  /** An entity that answers what it is sent. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  @Test
  void aRegionsShardsAndTheirEntityCountsOfThisMember() throws Exception {
    ActorSystem a = member("sharded", "");
    Cluster.get(a).join(a.address());
    awaitUp(a);
    ActorRef region = ClusterSharding.get(a).start("echo box", Props.create(Echo.class),
        ClusterShardingSettings.create(a), new ShardRegion.HashCodeMessageExtractor(10) {
          @Override
          public String entityId(Object message) {
            return (String) message;
          }
        });
    TestKit kit = new TestKit(a);
    for (String id : List.of("one", "two", "three")) {
      region.tell(id, kit.getRef());
      kit.expectMsg(id);
    }
    InetSocketAddress http = ClusterHttpManagement.get(a).boundAddress();
    Reply shards = request(http, "GET", "/cluster/shards/" + URLEncoder.encode("echo box", StandardCharsets.UTF_8), null);
    assertEquals(200, shards.status(), shards.body());
    JsonNode json = JSON.readTree(shards.body());
    assertEquals("echo box", json.get("typeName").asText());
    assertEquals(3, json.get("entities").asInt(), shards.body());
    int sum = 0;
    for (JsonNode shard : json.get("shards")) {
      sum += shard.get("entities").asInt();
    }
    assertEquals(3, sum, "the shards' counts add up: " + shards.body());
    assertEquals(404, request(http, "GET", "/cluster/shards/nothing", null).status());
    assertEquals(405, request(http, "DELETE", "/cluster/shards/echo%20box", null).status());
    // two requests pipelined on one connection: the region's answer (later) still comes first
    try (Socket s = new Socket()) {
      s.connect(http, 5000);
      s.setSoTimeout(5000);
      s.getOutputStream().write(("GET /cluster/shards/echo%20box HTTP/1.1\r\nHost: h\r\n\r\n"
          + "GET /health/alive HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String both = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int first = both.indexOf("\"typeName\"");
      int second = both.lastIndexOf("\r\n\r\nOK");
      assertTrue(first > 0 && second > first, "answers in the requests' order: " + both);
    }
    // a client that pipelines more region queries than one connection may have waiting is cut off
    // (without the bound all would be answered on the kept-alive connection and the read would time out)
    try (Socket s = new Socket()) {
      s.connect(http, 5000);
      s.setSoTimeout(5000);
      String many = "GET /cluster/shards/echo%20box HTTP/1.1\r\nHost: h\r\n\r\n".repeat(RequestHandler.MAX_PENDING + 8);
      s.getOutputStream().write(many.getBytes(StandardCharsets.US_ASCII));
      String got = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int answers = got.split("HTTP/1.1 200", -1).length - 1;
      assertTrue(answers < RequestHandler.MAX_PENDING + 8, "closed before answering all: " + answers + " answers");
    } catch (java.net.SocketException reset) {
      // closed with requests unread: a reset is the same answer
    }
    assertEquals(200, request(http, "GET", "/health/alive", null).status(), "other connections are served on");
  }

  @Test
  void listedInTroupeExtensionsItStartsWithTheSystem() throws Exception {
    ActorSystem s = member("listed", "troupe.extensions = [\"" + ClusterHttpManagement.class.getName() + "\"]\n");
    assertTrue(s.hasExtension(ClusterHttpManagement.ID), "started by ActorSystem.create");
    assertEquals(200, request(ClusterHttpManagement.get(s).boundAddress(), "GET", "/health/alive", null).status());
  }

  @Test
  void aSystemThatIsNoClusterMemberIsRefused() {
    ActorSystem plain = ActorSystem.create("plain", ConfigFactory.parseString("troupe.actor.provider = local"));
    systems.add(plain);
    assertThrows(RuntimeException.class, () -> ClusterHttpManagement.get(plain));
  }
}
