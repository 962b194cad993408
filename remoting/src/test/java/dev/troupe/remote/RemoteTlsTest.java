package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * {@code troupe.remote.tls.enabled = on}: nodes whose certificates chain to each other's trust
 * store talk as usual over TLS 1.3; a peer that is not trusted, a peer in plain TCP on a TLS port,
 * a TLS peer on a plain port, a client without a certificate or offering only TLS 1.2 are each
 * refused on that connection alone, with the reason in the log, while the node goes on serving
 * trusted peers; a store that cannot be used fails {@code ActorSystem.create} naming the key.
 *
 * <p>Every node listens on 127.0.0.1; the stores ({@link TestKeyStores}) are made once for the
 * class. Negative checks that read a node's log use a node of their own, so that no other test's
 * lines use up its rate-limited warnings.
 */
class RemoteTlsTest {

  /** Gives up on an unreachable peer quickly, so that refused links do not outlast their test. */
  private static final String QUICK_GIVE_UP =
      "troupe.remote.advanced { reconnect-attempts = 2, reconnect-min-backoff = 50ms, reconnect-max-backoff = 100ms }\n";

  /** How long a check waits before it concludes that something did not get through. */
  private static final Duration REFUSED = Duration.ofSeconds(2);

  private static final AtomicInteger NAMES = new AtomicInteger();

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE);

  @TempDir static Path dir;

  static TestKeyStores stores;
  /** TLS with node-a's key (a PKCS12 store, IP:127.0.0.1 in its certificate). */
  static ActorSystem a;
  /** TLS with node-b's key (a JKS store, a key password of its own, IP:127.0.0.1 in its certificate). */
  static ActorSystem b;

  private final List<Runnable> detach = new ArrayList<>();

  @BeforeAll
  static void nodes() throws Exception {
    stores = TestKeyStores.generate(dir);
    a = TROUPE.createSystem(stores.tls(stores.nodeA));
    b = TROUPE.createSystem(stores.tls(stores.nodeB));
    a.actorOf(TestActors.echoActorProps("echo:"), "echo");
    b.actorOf(TestActors.echoActorProps("echo:"), "echo");
  }

  @AfterEach
  void detachLogCaptures() {
    detach.forEach(Runnable::run);
    detach.clear();
  }

  // ------------------------------------------------------------------ trusted peers

  @Test
  void twoTlsNodesExchangeTellsAndAsksAndResolvePathsBothWays() {
    TestKit onA = new TestKit(a);
    ActorRef echoOnB = Nodes.lookup(a, b, "/user/echo");
    echoOnB.tell("hello", onA.getRef());
    onA.expectMsg(Nodes.WAIT, "echo:hello");
    assertEquals(echoOnB, onA.getLastSender());
    assertEquals("echo:ask", Patterns.ask(echoOnB, "ask", Nodes.WAIT).toCompletableFuture().join());

    TestKit onB = new TestKit(b);
    ActorRef echoOnA = Nodes.lookup(b, a, "/user/echo");
    echoOnA.tell("back", onB.getRef());
    onB.expectMsg(Nodes.WAIT, "echo:back");
  }

  @Test
  void aTrustedClientGetsTls13AndThenTroupesHandshakeAcknowledged() throws Exception {
    try (SSLSocket s = tlsClient(b, stores.nodeA, "TLSv1.3", "TLSv1.2")) {
      s.startHandshake();
      assertEquals("TLSv1.3", s.getSession().getProtocol(), "the node picks TLS 1.3 even when 1.2 is offered too");
      assertEquals("CN=node-b", s.getSession().getPeerPrincipal().getName());
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, b.address().toString()));
      s.getOutputStream().flush();
      Nodes.readAck(s.getInputStream());
    }
  }

  @Test
  void aClientOfferingOnlyTls12IsRefused() throws Exception {
    try (SSLSocket s = tlsClient(b, stores.nodeA, "TLSv1.2")) {
      assertThrows(SSLException.class, s::startHandshake);
    }
    assertServes(b);
  }

  @Test
  void aClientWithoutACertificateIsRefused() throws Exception {
    ActorSystem target = tlsNode(stores.nodeB);
    ListAppender<ILoggingEvent> log = captureLog(target);
    try (SSLSocket s = tlsClient(target, null, "TLSv1.3")) {
      // in TLS 1.3 the client may finish its side before the server checks the client's certificate
      try {
        s.startHandshake();
        s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, target.address().toString()));
        s.getOutputStream().flush();
        assertClosedWithoutAnswer(s.getInputStream());
      } catch (SSLException | SocketException refused) {
        // refused during the handshake (or closed before the bytes written after it went out)
      }
    }
    awaitLogged(target, log, "closing the connection from", "TLS handshake failed");
    assertServes(target);
  }

  // ------------------------------------------------------------------ untrusted and mismatched peers

  @Test
  void aPeerWithAnUntrustedCertificateCannotAssociateAndTheNodeServesTrustedPeersAfterwards() {
    ActorSystem target = tlsNode(stores.nodeB);
    ListAppender<ILoggingEvent> log = captureLog(target);
    TestKit inbox = new TestKit(target);
    target.actorOf(TestActors.forwardActorProps(inbox.getRef()), "inbox");
    ActorSystem rogue = TROUPE.createSystem(stores.tls(stores.rogue) + QUICK_GIVE_UP);
    rogue.actorOf(TestActors.echoActorProps("echo:"), "echo");

    rogue.actorSelection(target.address() + "/user/inbox").tell("from the rogue", ActorRef.noSender());
    assertNotFound(rogue, target.address() + "/user/inbox");
    // and the other way round: the target does not accept the rogue's certificate as a server's
    assertNotFound(target, rogue.address() + "/user/echo");
    awaitLogged(target, log, "closing the connection from", "TLS handshake failed");

    ActorRef inboxRef = Nodes.lookup(b, target, "/user/inbox");
    inboxRef.tell("from b", ActorRef.noSender());
    inbox.expectMsg(Nodes.WAIT, "from b", "the rogue's message never arrived; a trusted peer's does");
  }

  @Test
  void aPlaintextNodeCannotReachATlsNodeWhichLogsWhy() {
    ActorSystem target = tlsNode(stores.nodeA);
    ListAppender<ILoggingEvent> log = captureLog(target);
    ActorSystem plain = TROUPE.createSystem(QUICK_GIVE_UP);

    assertNotFound(plain, target.address() + "/user/echo");

    awaitLogged(target, log, "closing the connection from", "not a TLS record");
    assertServes(target);
  }

  @Test
  void aTlsNodeCannotReachAPlaintextNodeWhichLogsWhy() {
    ActorSystem plain = TROUPE.createSystem("");
    plain.actorOf(TestActors.echoActorProps("echo:"), "echo");
    ListAppender<ILoggingEvent> log = captureLog(plain);
    ActorSystem tls = TROUPE.createSystem(stores.tls(stores.nodeA) + QUICK_GIVE_UP);

    assertNotFound(tls, plain.address() + "/user/echo");

    awaitLogged(plain, log, "closing the connection from", "a TLS handshake on a port without TLS");
    TestKit probe = new TestKit(TROUPE.system());
    Nodes.lookup(TROUPE.system(), plain, "/user/echo").tell("plain", probe.getRef());
    probe.expectMsg(Nodes.WAIT, "echo:plain", "the plaintext node still serves plaintext peers");
  }

  @Test
  void rawPlaintextBytesOnTheTlsPortCloseThatConnectionOnly() throws IOException {
    for (byte[] bytes :
        List.of(
            Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, a.address().toString()),
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII))) {
      try (Socket s = rawSocket(a)) {
        s.getOutputStream().write(bytes);
        s.getOutputStream().flush();
        assertClosedWithoutAnswer(s.getInputStream());
      }
    }
    assertServes(a);
  }

  @Test
  void aConnectionThatNeverStartsItsTlsHandshakeIsClosedAfterTheHandshakeTimeout() throws IOException {
    ActorSystem target = TROUPE.createSystem(stores.tls(stores.nodeA) + "troupe.remote.advanced.handshake-timeout = 2s\n");
    target.actorOf(TestActors.echoActorProps("echo:"), "echo");
    ListAppender<ILoggingEvent> log = captureLog(target);
    try (Socket s = rawSocket(target)) {
      assertClosedWithoutAnswer(s.getInputStream()); // sends nothing: the node hangs up
    }
    awaitLogged(target, log, "closing the connection from", "in time");
    assertServes(target);
  }

  // ------------------------------------------------------------------ hostname verification

  @Test
  void withHostnameVerificationAPeerMustBeNamedInItsCertificate() {
    ActorSystem verifying =
        TROUPE.createSystem(stores.tls(stores.nodeA) + QUICK_GIVE_UP + "troupe.remote.tls.hostname-verification = on\n");

    TestKit probe = new TestKit(verifying);
    Nodes.lookup(verifying, b, "/user/echo").tell("named", probe.getRef());
    probe.expectMsg(Nodes.WAIT, "echo:named", "node-b's certificate names IP:127.0.0.1");

    ActorSystem elsewhere = tlsNode(stores.elsewhere); // trusted, but its certificate names another host
    assertNotFound(verifying, elsewhere.address() + "/user/echo");
  }

  // ------------------------------------------------------------------ the origin a certificate may claim

  @Test
  void aTrustedClientWhoseCertificateNamesAnotherHostCannotClaimAnAddressOnThisOne() throws Exception {
    ActorSystem target = tlsNode(stores.nodeB);
    ListAppender<ILoggingEvent> log = captureLog(target);
    try (SSLSocket s = tlsClient(target, stores.elsewhere, "TLSv1.3")) {
      s.startHandshake(); // trusted: the TLS handshake succeeds
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, a.address().toString(), target.address().toString()));
      s.getOutputStream().flush();
      Nodes.Refusal r = Nodes.readRefusal(s.getInputStream()); // no acknowledgement, so not the node's uid either
      assertTrue(!r.isFinal() && r.reason().contains("does not name 127.0.0.1"), r.toString());
      assertClosedWithoutAnswer(s.getInputStream());
    }
    awaitLogged(target, log, "closing the connection from", "claims to be " + a.address(), "does not name 127.0.0.1");

    try (SSLSocket s = tlsClient(target, stores.elsewhere, "TLSv1.3")) {
      s.startHandshake();
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, "troupe://far@127.0.0.2:2552", target.address().toString()));
      s.getOutputStream().flush();
      Nodes.readAck(s.getInputStream()); // an address on the host its certificate names is its to claim
    }
    assertServes(target);
  }

  @Test
  void aTrustedNodeWhoseCertificateNamesAnotherHostIsRefusedUnlessOriginChecksAreOff() {
    ActorSystem strict = tlsNode(stores.nodeB);
    ActorSystem lax = TROUPE.createSystem(stores.tls(stores.nodeB) + "troupe.remote.tls.verify-peer-origin = off\n");
    lax.actorOf(TestActors.echoActorProps("echo:"), "echo");
    ActorSystem impostor = TROUPE.createSystem(stores.tls(stores.elsewhere) + QUICK_GIVE_UP);

    assertNotFound(impostor, strict.address() + "/user/echo");

    TestKit probe = new TestKit(impostor);
    Nodes.lookup(impostor, lax, "/user/echo").tell("lax", probe.getRef());
    probe.expectMsg(Nodes.WAIT, "echo:lax", "with verify-peer-origin = off a trusted chain alone is enough");
  }

  // ------------------------------------------------------------------ configuration errors

  static Stream<Arguments> badStores() {
    return Stream.of(
        Arguments.of("no key store", "key-store", "must name", (Function<TestKeyStores, String>) s -> "key-store = \"\""),
        Arguments.of("no trust store", "trust-store", "must name", (Function<TestKeyStores, String>) s -> "trust-store = \"\""),
        Arguments.of("missing key store", "key-store", "does not exist",
            (Function<TestKeyStores, String>) s -> "key-store = \"" + dir.resolve("nowhere.p12") + "\""),
        Arguments.of("missing trust store", "trust-store", "does not exist",
            (Function<TestKeyStores, String>) s -> "trust-store = \"" + dir.resolve("nowhere.jks") + "\""),
        Arguments.of("wrong key store password", "key-store-password", "wrong password",
            (Function<TestKeyStores, String>) s -> "key-store-password = \"not-it\""),
        Arguments.of("wrong trust store password", "trust-store-password", "wrong password",
            (Function<TestKeyStores, String>) s -> "trust-store-password = \"not-it\""),
        Arguments.of("key store without a private key", "key-store", "no private key",
            (Function<TestKeyStores, String>) s -> "key-store = \"" + s.trust + "\""),
        Arguments.of("wrong key password", "key-password", "private key",
            (Function<TestKeyStores, String>) s -> "key-password = \"not-it\""),
        Arguments.of("a key password of its own not given", "key-store-password", "key-password",
            (Function<TestKeyStores, String>) s -> "key-password = \"\""),
        Arguments.of("not a key store", "key-store", "not a PKCS12 or JKS",
            (Function<TestKeyStores, String>) s -> "key-store = \"" + junk() + "\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badStores")
  void aStoreThatCannotBeUsedFailsCreateNamingTheKey(
      String label, String key, String problem, Function<TestKeyStores, String> override) {
    String name = "bad-tls-" + NAMES.incrementAndGet();
    String config = Nodes.REMOTE + stores.tls(stores.nodeB) + "troupe.remote.tls." + override.apply(stores) + "\n";
    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> ActorSystem.create(name, ConfigFactory.parseString(config)));
    String fullKey = "'troupe.remote.tls." + key + "'";
    assertTrue(e.getMessage().contains(fullKey), "names " + fullKey + ": " + e.getMessage());
    assertTrue(e.getMessage().contains(problem), "says '" + problem + "': " + e.getMessage());
    assertEquals(Set.of(), TestKit.liveThreads(name + "-remote-io-"), "no network thread was started");
    new TestKit(TROUPE.system())
        .awaitCond(
            Nodes.WAIT,
            Duration.ofMillis(20),
            "no thread of " + name + " after the failed create: " + TestKit.liveThreads(name + "-"),
            () -> TestKit.liveThreads(name + "-").isEmpty());
  }

  // ------------------------------------------------------------------ helpers

  private static Path junk() {
    Path p = dir.resolve("junk.p12");
    try {
      if (!Files.exists(p)) {
        Files.write(p, "not a key store".getBytes(StandardCharsets.US_ASCII));
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return p;
  }

  /** A node of its own for one test, TLS on with {@code keyStore}'s identity. */
  private static ActorSystem tlsNode(Path keyStore) {
    ActorSystem s = TROUPE.createSystem(stores.tls(keyStore));
    s.actorOf(TestActors.echoActorProps("echo:"), "echo");
    return s;
  }

  /** A trusted peer that connects for the first time can look up {@code node}'s echo and ask it. */
  private static void assertServes(ActorSystem node) {
    ActorSystem fresh = TROUPE.createSystem(stores.tls(stores.nodeB));
    ActorRef echo = Nodes.lookup(fresh, node, "/user/echo");
    assertEquals("echo:still", Patterns.ask(echo, "still", Nodes.WAIT).toCompletableFuture().join());
  }

  private static void assertNotFound(ActorSystem from, String path) {
    CompletionException e =
        assertThrows(
            CompletionException.class,
            () -> from.actorSelection(path).resolveOne(REFUSED).toCompletableFuture().join(),
            "resolving " + path + " from " + from.address() + " must fail");
    assertInstanceOf(ActorNotFound.class, e.getCause());
  }

  /** A TLS client socket to {@code node}, with {@code keyStore}'s key (none when null), offering {@code protocols}. */
  private static SSLSocket tlsClient(ActorSystem node, Path keyStore, String... protocols)
      throws IOException, GeneralSecurityException {
    SSLSocket s = (SSLSocket) stores.clientContext(keyStore).getSocketFactory().createSocket();
    s.connect(new InetSocketAddress("127.0.0.1", node.address().port().orElseThrow()), 5_000);
    s.setSoTimeout((int) Nodes.WAIT.toMillis());
    s.setEnabledProtocols(protocols);
    return s;
  }

  private static Socket rawSocket(ActorSystem node) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", node.address().port().orElseThrow()), 5_000);
    s.setSoTimeout((int) Nodes.WAIT.toMillis());
    return s;
  }

  /**
   * The node closes the connection and never acknowledges a handshake: what it may send first is
   * at most a TLS alert, then the stream ends.
   */
  private static void assertClosedWithoutAnswer(InputStream in) throws IOException {
    int read = 0;
    try {
      while (in.read() >= 0) {
        if (++read > 64) {
          fail("the node sent more than an alert instead of closing the connection");
        }
      }
    } catch (SocketTimeoutException e) {
      fail("the node did not close the connection within " + Nodes.WAIT);
    } catch (SocketException | SSLException closed) {
      // reset, or the TLS layer reporting the peer's alert: closed too
    }
  }

  /** Collects what {@code node}'s remoting logs (at WARN and above, as configured for tests) until the test ends. */
  private ListAppender<ILoggingEvent> captureLog(ActorSystem node) {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.remote." + node.name());
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    detach.add(
        () -> {
          logger.detachAppender(appender);
          appender.stop();
        });
    return appender;
  }

  /** Waits until {@code node} logged a line that contains each of {@code parts}. */
  private static void awaitLogged(ActorSystem node, ListAppender<ILoggingEvent> log, String... parts) {
    new TestKit(TROUPE.system())
        .awaitCond(
            Nodes.WAIT,
            Duration.ofMillis(20),
            node.name() + " logged a line with " + List.of(parts) + "; it logged: " + lines(log),
            () -> lines(log).stream().anyMatch(l -> Stream.of(parts).allMatch(l::contains)));
  }

  private static List<String> lines(ListAppender<ILoggingEvent> log) {
    synchronized (log) { // the appender appends under its own lock
      return log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }
}
