package dev.troupe.cluster.internal.jgroups;

import static dev.troupe.cluster.internal.Recorder.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.internal.Recorder;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JGroups engine under remoting's TLS: its TCP connections run TLS 1.3 with the node's key and
 * trust store and require the peer's certificate, so a node whose certificate the members do not
 * trust, or one without TLS, cannot connect at all, and the views never hold it.
 */
@Timeout(120)
class JGroupsTlsTest {
  private static final String THREAD = "troupe-cluster-jgroups-";
  /**
   * A node that can never join fails after join-timeout x 3 attempts: 1 s keeps those quick. A
   * trusted node's join is bounded by the same setting, and under load (a TLS handshake and the
   * view's installation on a busy machine) can take more than 3 s: it gets 10 s x 3, a bound, not
   * a wait (it returns as soon as the coordinator answers).
   */
  private static final String REFUSED_CONF = "troupe.cluster.jgroups.join-timeout = 1s";

  private static final String TRUSTED_CONF = "troupe.cluster.jgroups.join-timeout = 10s";

  /**
   * The failure detector's pause here: the test is about who may join, not about detecting a
   * member that went silent, and {@link Contexts#PAUSE}'s 1 s of silence is what a member of a
   * loaded machine can go through while alive (the view would then drop it, and the test would
   * fail for a reason it does not test).
   */
  private static final Duration PAUSE = Duration.ofSeconds(15);
  private static final String PASSWORD = "changeit";
  private static final Duration CHANGE = Duration.ofSeconds(15);

  @TempDir static Path dir;
  private static SSLContext nodeA;
  private static SSLContext nodeB;
  private static SSLContext rogue;

  private final List<MembershipProvider> engines = new ArrayList<>();

  /** Three self-signed identities made by the JDK's keytool; the trust store holds node-a's and node-b's. */
  @BeforeAll
  static void stores() throws Exception {
    List<Process> runs = new ArrayList<>();
    for (String name : List.of("node-a", "node-b", "rogue")) {
      runs.add(new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias", name,
              "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name, "-ext", "san=ip:127.0.0.1",
              "-validity", "30", "-storetype", "PKCS12", "-keystore", dir.resolve(name + ".p12").toString(),
              "-storepass", PASSWORD)
          .redirectErrorStream(true)
          .start());
    }
    for (Process p : runs) {
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool finished within a minute");
      String out;
      try (InputStream in = p.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertEquals(0, p.exitValue(), "keytool: " + out);
    }
    java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    for (String name : List.of("node-a", "node-b")) {
      trust.setCertificateEntry(name, load(name).getCertificate(name));
    }
    try (OutputStream out = Files.newOutputStream(dir.resolve("trust.p12"))) {
      trust.store(out, PASSWORD.toCharArray());
    }
    nodeA = context("node-a");
    nodeB = context("node-b");
    rogue = context("rogue");
  }

  private static java.security.KeyStore load(String name) throws Exception {
    return java.security.KeyStore.getInstance(dir.resolve(name + ".p12").toFile(), PASSWORD.toCharArray());
  }

  /** As the cluster provider builds it from {@code troupe.remote.tls}: this key, the common trust store. */
  private static SSLContext context(String name) throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(load(name), PASSWORD.toCharArray());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(java.security.KeyStore.getInstance(dir.resolve("trust.p12").toFile(), PASSWORD.toCharArray()));
    SSLContext c = SSLContext.getInstance("TLSv1.3");
    c.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return c;
  }

  @AfterEach
  void closeAll() {
    engines.forEach(MembershipProvider::close);
  }

  /** @param conf {@link #TRUSTED_CONF} for a node that must join, {@link #REFUSED_CONF} for one that must not */
  private JGroupsMembershipProvider engine(UniqueAddress self, SSLContext tls, String conf) {
    JGroupsProviderFactory f = new JGroupsProviderFactory();
    MembershipContext c =
        tls == null ? Contexts.context(self, Set.of(), conf) : JGroupsSecurityTest.tlsContext(self, conf, tls);
    MembershipProvider e = f.create(new MembershipContext(
        c.self(), c.roles(), c.clusterName(), c.heartbeatInterval(), PAUSE, c.config(), c.tls()));
    engines.add(e);
    return (JGroupsMembershipProvider) e;
  }

  @Test
  void trustedNodesJoinAndOthersCannotConnect() throws Exception {
    UniqueAddress a = Contexts.node("tls", 25520, 1);
    UniqueAddress b = Contexts.node("tls", 25521, 2);
    JGroupsMembershipProvider founder = engine(a, nodeA, TRUSTED_CONF);
    Recorder ra = new Recorder(THREAD);
    String seed = founder.join(List.of(), ra);
    Recorder rb = new Recorder(THREAD);
    engine(b, nodeB, TRUSTED_CONF).join(List.of(seed), rb);
    for (Recorder r : List.of(ra, rb)) {
      r.awaitView("of the two trusted nodes", v -> nodes(v).equals(List.of(a, b)), CHANGE);
    }

    UniqueAddress untrusted = Contexts.node("tls", 25522, 3);
    UniqueAddress plain = Contexts.node("tls", 25523, 4);
    JGroupsMembershipProvider withRogueCertificate = engine(untrusted, rogue, REFUSED_CONF);
    assertThrows(ConnectException.class, () -> withRogueCertificate.join(List.of(seed), new Recorder(THREAD)));
    JGroupsMembershipProvider withoutTls = engine(plain, null, REFUSED_CONF);
    assertThrows(ConnectException.class, () -> withoutTls.join(List.of(seed), new Recorder(THREAD)));

    for (Recorder r : List.of(ra, rb)) {
      assertFalse(
          r.views().stream().anyMatch(v -> nodes(v).contains(untrusted) || nodes(v).contains(plain)),
          "a view with a node that has no trusted certificate: " + r.views());
      assertEquals(List.of(a, b), nodes(r.lastView()));
      r.assertPromisesKept();
    }
    assertEquals(2, founder.channel().getView().size(), "JGroups' own view: " + founder.channel().getView());

    // a plain JGroups handshake on the TLS port is no TLS handshake: the member closes it
    int port = Integer.parseInt(seed.substring(seed.lastIndexOf(':') + 1));
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      s.setSoTimeout(5_000);
      try {
        s.getOutputStream().write(JGroupsSecurityTest.peerHandshake(s)); // in one write: the member may close after the first bytes
      } catch (SocketException closedEarly) {
        // the member read enough to refuse it and closed the connection before the write ended: as it should
      }
      JGroupsSecurityTest.assertClosedByPeer(s, "the TLS port after a plain handshake");
    }

    // and a trusted node still joins after all that
    UniqueAddress c = Contexts.node("tls", 25524, 5);
    Recorder rc = new Recorder(THREAD);
    engine(c, nodeB, TRUSTED_CONF).join(List.of(seed), rc);
    for (Recorder r : List.of(ra, rb, rc)) {
      r.awaitView("of three", v -> nodes(v).equals(List.of(a, b, c)), CHANGE);
    }
  }
}
