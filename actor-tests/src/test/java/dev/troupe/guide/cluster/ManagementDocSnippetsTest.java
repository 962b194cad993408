package dev.troupe.guide.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.management.ClusterHttpManagement;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The management block of {@code docs/cluster.md}, compiled and run on one member (in-memory
 * engine, loopback, the endpoint on port 0): the address it gives answers the readiness route.
 */
@Timeout(60)
class ManagementDocSnippetsTest {
  private ActorSystem system;

  @AfterEach
  void stop() {
    if (system != null) {
      TestKit.shutdownActorSystem(system);
    }
  }

  @Test
  void theEndpointListensWhereItSaysAndAnswersReadiness() throws IOException {
    system = ActorSystem.create("management-docs", ConfigFactory.parseString("troupe.actor.provider = cluster\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.cluster.membership.provider = in-memory\n"
        + "troupe.cluster.management.http.port = 0\n"
        + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n").withFallback(ConfigFactory.load()));
    Cluster.get(system).join(system.address());
    new TestKit(system).awaitCond(Duration.ofSeconds(15), Duration.ofMillis(20), "Up",
        () -> Cluster.get(system).selfMember().status() == MemberStatus.UP);

    // tag::cluster-management[]
    ClusterHttpManagement http = ClusterHttpManagement.get(system); // binds now (or list it in troupe.extensions)
    InetSocketAddress where = http.boundAddress();                   // 127.0.0.1:8558 by default
    // end::cluster-management[]

    assertEquals("127.0.0.1", where.getHostString());
    try (Socket s = new Socket(where.getHostString(), where.getPort())) {
      s.setSoTimeout(5000);
      s.getOutputStream().write("GET /health/ready HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 200") && answer.endsWith("OK"), answer);
    }
  }
}
