package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.internal.jgroups.JGroupsProviderFactory;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipProviderFactory;
import dev.troupe.testkit.TestKit;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster on the JGroups engine with remoting's TLS on: the engine gets its TLS context from
 * {@code troupe.remote.tls} (see {@code JGroupsTlsTest} for what that keeps out) and two nodes
 * with trusted certificates form the cluster through it. The engine is JGroups' own factory behind
 * one that records the context it is given.
 */
@Timeout(90)
class ClusterJGroupsTlsTest {
  private static final String PASSWORD = "changeit";
  private final ClusterNodes nodes = new ClusterNodes();
  @TempDir Path dir;

  @AfterEach
  void stop() {
    nodes.close();
    Recording.contexts.clear();
  }

  /** The JGroups engine, recording the context each node's cluster provider gives it. */
  public static final class Recording implements MembershipProviderFactory {
    static final List<MembershipContext> contexts = new CopyOnWriteArrayList<>();

    public Recording() {}

    @Override
    public String name() {
      return "recording-jgroups";
    }

    @Override
    public MembershipProvider create(MembershipContext context) {
      contexts.add(context);
      return new JGroupsProviderFactory().create(context);
    }
  }

  @Test
  void twoNodesWithTrustedCertificatesFormTheClusterUnderTls() throws Exception {
    Path key = dir.resolve("node.p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias", "node",
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=node", "-ext", "san=ip:127.0.0.1",
                "-validity", "30", "-storetype", "PKCS12", "-keystore", key.toString(), "-storepass", PASSWORD)
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool finished within a minute");
    try (InputStream in = p.getInputStream()) {
      assertEquals(0, p.exitValue(), "keytool: " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    Path trust = dir.resolve("trust.p12");
    KeyStore t = KeyStore.getInstance("PKCS12");
    t.load(null, null);
    t.setCertificateEntry("node", KeyStore.getInstance(key.toFile(), PASSWORD.toCharArray()).getCertificate("node"));
    try (OutputStream out = Files.newOutputStream(trust)) {
      t.store(out, PASSWORD.toCharArray());
    }
    String tls = "troupe.remote.tls { enabled = on, key-store = \"" + key + "\", key-store-password = " + PASSWORD
        + ", trust-store = \"" + trust + "\", trust-store-password = " + PASSWORD + " }\n"
        + "troupe.cluster.failure-detector.heartbeat-interval = 1s\n"
        + "troupe.cluster.failure-detector.acceptable-heartbeat-pause = 5s\n"
        + "troupe.cluster.downing.stable-after = 20s\n";

    String name = "jgroupstls";
    String engine = "\"" + Recording.class.getName() + "\""; // a nested class: its name has a $
    List<ActorSystem> s = List.of(nodes.start(name, engine, tls), nodes.start(name, engine, tls));
    assertEquals(2, Recording.contexts.size());
    for (MembershipContext c : Recording.contexts) {
      assertTrue(c.tls().isPresent(), "the engine is given remoting's TLS context: " + c.self());
      assertEquals("TLSv1.3", c.tls().get().getProtocol());
    }
    List<Address> seeds = s.stream().map(ActorSystem::address).toList();
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    for (ActorSystem sys : s) {
      Cluster.get(sys).joinSeedNodes(seeds);
    }
    List<Address> reference = ClusterInMemoryTest.ups(probes.get(0), 2);
    assertEquals(reference, ClusterInMemoryTest.ups(probes.get(1), 2), "the same members, in the same order");
    assertEquals(seeds.get(0), reference.get(0), "the first seed founds the cluster");
  }
}
