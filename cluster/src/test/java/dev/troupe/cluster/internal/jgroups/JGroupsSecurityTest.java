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
import dev.troupe.cluster.spi.MembershipView;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import org.jgroups.JChannel;
import org.jgroups.Version;
import org.jgroups.blocks.cs.Connection;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.stack.IpAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JGroups engine's ports against strangers (issue 31): with {@code auth-secret}, only holders of
 * the secret take part; with remoting's TLS, only holders of a trusted certificate connect at all
 * (see {@link JGroupsTlsTest}); garbage and oversized messages on either port harm no member.
 */
@Timeout(90)
class JGroupsSecurityTest {
  private static final String THREAD = "troupe-cluster-jgroups-";
  private static final String SECRET = "a-shared-secret-of-the-cluster";
  private static final Duration CHANGE = Duration.ofSeconds(15);

  private final List<MembershipProvider> engines = new ArrayList<>();
  private final List<JChannel> channels = new ArrayList<>();

  @AfterEach
  void closeAll() {
    engines.forEach(MembershipProvider::close);
    channels.forEach(JChannel::close);
  }

  private static String conf(String secret) {
    return "troupe.cluster.jgroups { join-timeout = 1s, auth-secret = \"" + secret + "\" }";
  }

  private JGroupsMembershipProvider engine(UniqueAddress self, String hocon) {
    return engine(Contexts.context(self, Set.of(), hocon));
  }

  private JGroupsMembershipProvider engine(MembershipContext context) {
    JGroupsMembershipProvider e = (JGroupsMembershipProvider) new JGroupsProviderFactory().create(context);
    engines.add(e);
    return e;
  }

  @Test
  void onlyNodesWithTheSecretJoin() throws Exception {
    UniqueAddress a = Contexts.node("secret", 25520, 1);
    UniqueAddress b = Contexts.node("secret", 25521, 2);
    JGroupsMembershipProvider founder = engine(a, conf(SECRET));
    Recorder ra = new Recorder(THREAD);
    String seed = founder.join(List.of(), ra);
    Recorder rb = new Recorder(THREAD);
    engine(b, conf(SECRET)).join(List.of(seed), rb);
    for (Recorder r : List.of(ra, rb)) {
      r.awaitView("of the two holders of the secret", v -> nodes(v).equals(List.of(a, b)), CHANGE);
    }

    UniqueAddress wrong = Contexts.node("secret", 25522, 3);
    UniqueAddress none = Contexts.node("secret", 25523, 4);
    for (var node : List.of(
        new Object[] {wrong, conf("another-secret-of-sixteen+")}, new Object[] {none, conf("")})) {
      JGroupsMembershipProvider e = engine((UniqueAddress) node[0], (String) node[1]);
      Recorder r = new Recorder(THREAD);
      assertThrows(ConnectException.class, () -> e.join(List.of(seed), r), "refused: " + node[0]);
    }

    // refused joins have run their course (3 attempts each): no view ever held either node
    Predicate<MembershipView> stranger = v -> nodes(v).contains(wrong) || nodes(v).contains(none);
    for (Recorder r : List.of(ra, rb)) {
      assertFalse(r.views().stream().anyMatch(stranger), "a view with a refused node: " + r.views());
      assertEquals(List.of(a, b), nodes(r.lastView()));
      r.assertPromisesKept();
    }
    assertEquals(2, founder.channel().getView().size(), "JGroups' own view: " + founder.channel().getView());

    // and a later holder of the secret still joins
    UniqueAddress c = Contexts.node("secret", 25524, 5);
    Recorder rc = new Recorder(THREAD);
    engine(c, conf(SECRET)).join(List.of(seed), rc);
    for (Recorder r : List.of(ra, rb, rc)) {
      r.awaitView("of three", v -> nodes(v).equals(List.of(a, b, c)), CHANGE);
    }
  }

  @Test
  void aStrangerSpeakingJGroupsGetsNoAnswerFromAGroupWithASecret() throws Exception {
    UniqueAddress a = Contexts.node("stranger", 25520, 1);
    JGroupsMembershipProvider founder = engine(a, conf(SECRET));
    Recorder ra = new Recorder(THREAD);
    String seed = founder.join(List.of(), ra);

    // a channel on Troupe's own stack, joining through the founder, with a Troupe identity but no
    // signature: what an outsider who knows the protocol would run
    JGroupsSettings s = JGroupsSettings.from(Contexts.context(Contexts.node("stranger", 25530, 9), Set.of(), conf("")));
    byte[] identity = MemberIdentity.encode(Contexts.node("stranger", 25530, 9), Set.of());
    JChannel ch = new JChannel(JGroupsStack.build(s, JGroupsMembershipProvider.freePort(s.bindAddress()), List.of(Endpoints.parse(seed)), new SuspicionTap(new SuspicionTap.Sink() {
      @Override
      public void suspected(List<org.jgroups.Address> members) {}

      @Override
      public void unsuspected(org.jgroups.Address member) {}
    })));
    channels.add(ch);
    ch.addAddressGenerator(() -> MemberIdentity.address(identity));
    ch.connect(JGroupsMembershipProvider.CLUSTER_PREFIX + "stranger");

    assertEquals(1, ch.getView().size(), "the stranger found no one and is alone: " + ch.getView());
    assertEquals(1, founder.channel().getView().size(), "the founder's group never took it in: " + founder.channel().getView());
    assertTrue(ra.views().stream().allMatch(v -> nodes(v).equals(List.of(a))), "views: " + ra.views());
    SecretGate gate = founder.channel().getProtocolStack().findProtocol(SecretGate.class);
    assertTrue(gate.refused() > 0, "the stranger's discovery was dropped at the gate");
  }

  @Test
  void anOversizedMessageOnTheFailureDetectorsPortClosesItsConnection() throws Exception {
    JGroupsMembershipProvider founder = engine(Contexts.node("fdcap", 25520, 1), conf(""));
    founder.join(List.of(), new Recorder(THREAD));
    FD_SOCK2 fd = founder.channel().getProtocolStack().findProtocol(FD_SOCK2.class);
    int port = fd.getActualBindPort();

    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      s.setSoTimeout(5_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      writePeerHandshake(out, s);
      // announces 100 MiB: without a cap, the member allocates a buffer that large and waits for it
      out.writeInt(100 << 20);
      out.write(new byte[1024]);
      out.flush();
      assertClosedByPeer(s, "the failure detector's port");
    }
  }

  @Test
  void garbageOnTheEnginesPortsHarmsNoMember() throws Exception {
    UniqueAddress a = Contexts.node("garbage", 25520, 1);
    UniqueAddress b = Contexts.node("garbage", 25521, 2);
    JGroupsMembershipProvider founder = engine(a, conf(SECRET));
    Recorder ra = new Recorder(THREAD);
    String seed = founder.join(List.of(), ra);
    Recorder rb = new Recorder(THREAD);
    engine(b, conf(SECRET)).join(List.of(seed), rb);
    MembershipView formed = ra.awaitView("of two", v -> v.members().size() == 2, CHANGE);

    int tcpPort = Integer.parseInt(seed.substring(seed.lastIndexOf(':') + 1));
    int fdPort = founder.channel().getProtocolStack().<FD_SOCK2>findProtocol(FD_SOCK2.class).getActualBindPort();
    Random random = new Random(31);
    for (int port : new int[] {tcpPort, fdPort}) {
      // random bytes, then the right handshake followed by a length over the cap, then the right
      // handshake followed by a well-sized message of garbage
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        s.setSoTimeout(5_000);
        byte[] junk = new byte[64 << 10];
        random.nextBytes(junk);
        try {
          s.getOutputStream().write(junk);
        } catch (SocketException closedEarly) {
          // the member closed the connection after the first bytes: as it should
        }
        assertClosedByPeer(s, "port " + port + " after random bytes");
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        s.setSoTimeout(5_000);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        writePeerHandshake(out, s);
        out.writeInt(Integer.MAX_VALUE);
        out.flush();
        assertClosedByPeer(s, "port " + port + " after an oversized length");
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        writePeerHandshake(out, s);
        byte[] junk = new byte[4096];
        random.nextBytes(junk);
        out.writeInt(junk.length);
        out.write(junk);
        out.flush();
      }
    }

    // a later holder of the secret still joins, and the garbage cost no one their place
    UniqueAddress c = Contexts.node("garbage", 25522, 3);
    Recorder rc = new Recorder(THREAD);
    engine(c, conf(SECRET)).join(List.of(seed), rc);
    for (Recorder r : List.of(ra, rb, rc)) {
      r.awaitView("of three", v -> nodes(v).equals(List.of(a, b, c)), CHANGE);
      r.assertPromisesKept();
    }
    for (Recorder r : List.of(ra, rb)) {
      assertTrue(
          r.reports().stream().noneMatch(x -> x instanceof Recorder.Suspected),
          "no member was suspected: " + r.reports());
      assertTrue(
          r.views().stream().filter(v -> v.version() >= formed.version()).allMatch(v -> nodes(v).containsAll(List.of(a, b))),
          "no view lost a member: " + r.views());
    }
  }

  /** What a JGroups peer sends first on a connection: the cookie, the version, its address. */
  static void writePeerHandshake(DataOutputStream out, Socket s) throws IOException {
    out.write(peerHandshake(s));
  }

  /**
   * @return the bytes of JGroups' peer handshake from {@code s}'s local address, to be written at
   *     once (a member that refuses the first bytes may close the connection before a later write)
   */
  static byte[] peerHandshake(Socket s) throws IOException {
    IpAddress self = new IpAddress(s.getLocalAddress(), s.getLocalPort());
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(64);
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(Connection.cookie);
    out.writeShort(Version.version);
    out.writeShort(self.serializedSize());
    self.writeTo(out);
    out.flush();
    return bytes.toByteArray();
  }

  /** Fails unless the peer closes {@code s} within its read timeout (reads until end of stream). */
  static void assertClosedByPeer(Socket s, String what) throws IOException {
    InputStream in = s.getInputStream();
    byte[] buf = new byte[4096];
    try {
      while (in.read(buf) >= 0) {
        // the member may answer something before closing; read on until it closes
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError(what + ": the member kept the connection open for " + s.getSoTimeout() + " ms", e);
    } catch (SocketException reset) {
      // reset by the member: closed as well
    }
  }

  /** A context whose node runs TLS with {@code tls}. */
  static MembershipContext tlsContext(UniqueAddress self, String hocon, SSLContext tls) {
    MembershipContext c = Contexts.context(self, Set.of(), hocon);
    return new MembershipContext(
        c.self(), c.roles(), c.clusterName(), c.heartbeatInterval(), c.acceptableHeartbeatPause(), c.config(),
        Optional.of(tls));
  }
}
