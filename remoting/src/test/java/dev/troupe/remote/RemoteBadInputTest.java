package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.serialization.NestedBomb;
import dev.troupe.serialization.Serialized;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a node does with bytes that are not Troupe's, and with messages it cannot send or read:
 * garbage on the port closes that connection only (the node goes on serving its peers); a message
 * that is too large, of an unbound class, unreadable on arrival, or for a node that cannot be
 * reached is dropped with a {@link Dropped} event, and the link stays.
 */
class RemoteBadInputTest {
  /** Bound to nothing. */
  record Unbound(String text) {}

  /** Bound to jackson-cbor on the sending node only. */
  record OnlySenderKnows(String text) {}

  /** Replies to strings with "echo:" and the string. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, s -> getSender().tell("echo:" + s, getSelf()))
          .matchAny(m -> getSender().tell("other:" + m.getClass().getSimpleName(), getSelf()))
          .build();
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(Nodes.REMOTE + "troupe.remote.advanced.handshake-timeout = 3s\n");

  static ActorSystem a;
  static ActorSystem b;

  @BeforeAll
  static void nodes() {
    a =
        TROUPE.createSystem(
            "troupe.remote.maximum-frame-size = 64KiB\n"
                + "troupe.serialization.bindings { \"dev.troupe.remote.RemoteBadInputTest$OnlySenderKnows\" = jackson-cbor }\n");
    b = TROUPE.system();
    b.actorOf(Props.create(Echo.class), "echo");
  }

  // ------------------------------------------------------------------ garbage on the port

  @Test
  void anHttpRequestClosesThatConnectionOnly() throws IOException {
    assertClosedByTheNode("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    assertTheNodeStillServes();
  }

  @Test
  void randomBytesCloseThatConnectionOnly() throws IOException {
    byte[] noise = new byte[4096];
    new Random(17).nextBytes(noise);
    assertClosedByTheNode(noise);
    assertTheNodeStillServes();
  }

  @Test
  void aFrameLengthOf0x7fffffffClosesThatConnectionBeforeAnythingIsAllocated() throws IOException {
    assertClosedByTheNode(new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1, 2, 3});
    assertTheNodeStillServes();
  }

  @Test
  void aNegativeFrameLengthClosesThatConnection() throws IOException {
    assertClosedByTheNode(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0, 1, 2, 3});
    assertTheNodeStillServes();
  }

  @Test
  void aHandshakeForAnotherSystemNameIsRefusedWithTheReasonThenClosed() throws IOException {
    String wrong = b.address().toString().replace(b.name(), "someone-else");
    assertRefusedByTheNode(
        Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, wrong),
        "handshake for system 'someone-else', but this is '" + b.name() + "' (" + b.address() + ")");
    assertTheNodeStillServes();
  }

  @Test
  void aFrameWithTheWrongMagicIsRefused() throws IOException {
    assertClosedByTheNode(Nodes.handshake(0xCAFEBABE, Nodes.VERSION, b.address().toString()));
    assertTheNodeStillServes();
  }

  @Test
  void aHandshakeForAnotherPortOfTheRightSystemIsRefusedWithTheReasonThenClosed() throws IOException {
    String wrong = b.address().toString().replace(":" + b.address().port().orElseThrow(), ":1");
    assertRefusedByTheNode(
        Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, wrong), "handshake for " + wrong + ", but this node is " + b.address());
    assertTheNodeStillServes();
  }

  @Test
  void aHandshakeWithAnotherProtocolVersionIsRefused() throws IOException {
    assertClosedByTheNode(Nodes.handshake(Nodes.MAGIC, 99, b.address().toString()));
    assertTheNodeStillServes();
  }

  @Test
  void aFrameTooLargeAfterAnAcceptedHandshakeClosesThatConnection() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, b.address().toString()));
      DataInputStream in = new DataInputStream(s.getInputStream());
      assertEquals(13, in.readInt(), "length of the handshake acknowledgement");
      assertEquals(0x54525550, in.readInt(), "magic of the acknowledgement");
      assertEquals(Nodes.VERSION, in.readByte(), "protocol version of the acknowledgement");
      in.readLong(); // the node's uid
      // a frame above troupe.remote.maximum-frame-size (256KiB here)
      s.getOutputStream().write(new byte[] {0x00, 0x10, 0x00, 0x00, 1, 2, 3});
      assertClosed(s);
    }
    assertTheNodeStillServes();
  }

  @Test
  void aFrameOfIdentifyNestedThousandsDeepIsDroppedTheConnectionStaysAndTheNodeServesOn() throws IOException {
    TestKit onB = new TestKit(b);
    b.eventStream().subscribe(onB.getRef(), Dropped.class);
    byte[] bomb = NestedBomb.identifyOfAtMost(256 * 1024 - 256); // a frame's worth, under b's maximum-frame-size
    try (Socket s = connect()) {
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, b.address().toString()));
      Nodes.readAck(s.getInputStream());
      for (int i = 0; i < 2; i++) {
        s.getOutputStream().write(envelope(b.address() + "/user/echo", NestedBomb.SERIALIZER, NestedBomb.MANIFEST, bomb));
      }
      s.getOutputStream().flush();
      for (int i = 0; i < 2; i++) { // the second proves the connection was read on
        Dropped d = onB.expectMsgClass(Nodes.WAIT, Dropped.class);
        assertTrue(d.reason().contains("nested more than"), d.reason());
        assertEquals(bomb.length, assertInstanceOf(Serialized.class, d.message()).bytes().length);
      }
    } finally {
      b.eventStream().unsubscribe(onB.getRef());
    }
    assertTheNodeStillServes();
  }

  /**
   * An envelope frame written by hand from the protocol's description: its length, the recipient
   * and the manifest each as a new entry of the string table, no sender, the serializer id, the bytes.
   */
  private static byte[] envelope(String recipient, int serializerId, String manifest, byte[] payload) throws IOException {
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    body.write(1); // a new entry
    writeString(body, recipient);
    body.write(0); // no sender
    body.write(NestedBomb.varInt((serializerId << 1) ^ (serializerId >> 31)));
    body.write(1);
    writeString(body, manifest);
    body.write(payload);
    java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
    new java.io.DataOutputStream(frame).writeInt(body.size());
    body.writeTo(frame);
    return frame.toByteArray();
  }

  private static void writeString(java.io.ByteArrayOutputStream out, String s) throws IOException {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    out.write(NestedBomb.varInt(utf8.length));
    out.write(utf8);
  }

  // ------------------------------------------------------------------ messages dropped, link kept

  @Test
  void anOversizeMessageIsDroppedWithADroppedEventAndTheLinkStays() {
    TestKit probe = new TestKit(a);
    a.eventStream().subscribe(probe.getRef(), Dropped.class);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");
    byte[] big = new byte[100_000];

    echo.tell(big, probe.getRef());

    Dropped d = probe.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertArrayEquals(big, (byte[]) d.message());
    assertTrue(d.reason().contains("maximum-frame-size"), d.reason());
    assertEquals(echo, d.recipient());
    assertEquals(probe.getRef(), d.sender());
    assertTheLinkStays(probe, echo);
  }

  @Test
  void aMessageWhosePayloadFitsButWhoseFrameDoesNotIsDropped() {
    TestKit probe = new TestKit(a);
    a.eventStream().subscribe(probe.getRef(), Dropped.class);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");
    byte[] almost = new byte[64 * 1024 - 8]; // the envelope's paths push the frame above 64KiB

    echo.tell(almost, probe.getRef());

    Dropped d = probe.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertTrue(d.reason().contains("the frame would be"), d.reason());
    assertTheLinkStays(probe, echo);
  }

  @Test
  void aMessageOfAnUnboundClassIsDroppedAndTheLinkStays() {
    TestKit probe = new TestKit(a);
    a.eventStream().subscribe(probe.getRef(), Dropped.class);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    echo.tell(new Unbound("x"), probe.getRef());

    Dropped d = probe.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertEquals(new Unbound("x"), d.message());
    assertTrue(d.reason().contains("no serializer is bound"), d.reason());
    assertTheLinkStays(probe, echo);
  }

  @Test
  void aMessageTheReceiverMayNotReadIsDroppedThereAndTheLinkStays() {
    TestKit onB = new TestKit(b);
    b.eventStream().subscribe(onB.getRef(), Dropped.class);
    TestKit probe = new TestKit(a);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    echo.tell(new OnlySenderKnows("secret"), probe.getRef());

    Dropped d = onB.expectMsgClass(Nodes.WAIT, Dropped.class);
    Serialized raw = assertInstanceOf(Serialized.class, d.message(), "what arrived, as bytes");
    assertEquals(OnlySenderKnows.class.getName(), raw.manifest());
    assertTrue(d.reason().contains("cannot deserialize"), d.reason());
    assertNotNull(d.sender(), "the sender is known");
    assertEquals(probe.getRef().path(), d.sender().path());
    b.eventStream().unsubscribe(onB.getRef());
    assertTheLinkStays(probe, echo);
  }

  @Test
  void messagesForANodeThatCannotBeReachedAreDroppedWhenTheQueueIsFullAndWhenConnectingGivesUp() throws IOException {
    ActorSystem lonely =
        TROUPE.createSystem(
            // Giving up takes two back-offs (over a second): the ten sends below are queued or
            // dropped as full well before, even on a machine whose cores are busy elsewhere.
            "troupe.remote.advanced { outbound-message-queue-size = 4, reconnect-attempts = 2,"
                + " reconnect-min-backoff = 600ms, reconnect-max-backoff = 1s }\n");
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      closedPort = s.getLocalPort(); // bound by this test, closed again: nobody listens there
    }
    TestKit probe = new TestKit(lonely);
    lonely.eventStream().subscribe(probe.getRef(), Dropped.class);

    for (int i = 0; i < 10; i++) {
      lonely.actorSelection("troupe://ghost@127.0.0.1:" + closedPort + "/user/x").tell("m" + i, probe.getRef());
    }

    int full = 0;
    int unreachable = 0;
    for (int i = 0; i < 10; i++) {
      Dropped d = probe.expectMsgClass(Nodes.WAIT, Dropped.class);
      if (d.reason().contains("is full")) {
        full++;
      } else if (d.reason().contains("cannot reach troupe://ghost@127.0.0.1:" + closedPort)) {
        unreachable++;
      } else {
        fail("unexpected reason: " + d.reason());
      }
    }
    assertEquals(6, full, "dropped because the queue (4) was full");
    assertEquals(4, unreachable, "dropped when connecting gave up");
  }

  @Test
  void aMessageForTheRightPortButAnotherSystemNameIsDroppedOnceTheHandshakeIsRefused() {
    ActorSystem hasty =
        TROUPE.createSystem(
            "troupe.remote.advanced { reconnect-attempts = 2, reconnect-min-backoff = 20ms, reconnect-max-backoff = 40ms }\n");
    TestKit probe = new TestKit(hasty);
    hasty.eventStream().subscribe(probe.getRef(), Dropped.class);
    String wrong = b.address().toString().replace(b.name(), "not-" + b.name());

    hasty.actorSelection(wrong + "/user/echo").tell("lost", probe.getRef());

    Dropped d = probe.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertTrue(d.reason().contains("cannot reach " + wrong), d.reason());
    assertTrue(d.reason().contains("handshake"), d.reason());
  }

  @Test
  void anUntrustedNodeRefusesStopAndPoisonPillFromPeersButServesMessages() {
    ActorSystem guarded =
        TROUPE.createSystem("troupe.remote.untrusted-mode = on\ntroupe.remote.trusted-selection-paths = [\"/user/guarded\"]\n");
    ActorRef local = guarded.actorOf(Props.create(Echo.class), "guarded");
    TestKit onGuarded = new TestKit(guarded);
    guarded.eventStream().subscribe(onGuarded.getRef(), Dropped.class);
    TestKit probe = new TestKit(a);
    ActorRef remote = Nodes.lookup(a, guarded, "/user/guarded");

    remote.tell(dev.troupe.actor.PoisonPill.getInstance(), ActorRef.noSender());
    a.stop(remote);

    Set<String> refused = new HashSet<>();
    for (int i = 0; i < 2; i++) {
      Dropped d = onGuarded.expectMsgClass(Nodes.WAIT, Dropped.class);
      assertTrue(d.reason().contains("untrusted-mode"), d.reason());
      assertEquals(local, d.recipient());
      // refused for its serializer and manifest alone: its bytes were never read
      refused.add(assertInstanceOf(Serialized.class, d.message(), "refused unread").manifest());
    }
    assertEquals(Set.of("P", "T"), refused, "PoisonPill and Terminate");
    assertTheLinkStays(probe, remote);
  }

  @Test
  void anUntrustedNodeServesSelectionsOnlyOfTrustedPaths() {
    ActorSystem guarded =
        TROUPE.createSystem("troupe.remote.untrusted-mode = on\ntroupe.remote.trusted-selection-paths = [\"/user/open\"]\n");
    guarded.actorOf(Props.create(Echo.class), "open");
    guarded.actorOf(Props.create(Echo.class), "closed");
    TestKit onGuarded = new TestKit(guarded);
    guarded.eventStream().subscribe(onGuarded.getRef(), Dropped.class);

    assertNotNull(Nodes.lookup(a, guarded, "/user/open"));
    CompletableFuture<ActorRef> closed =
        a.actorSelection(guarded.address() + "/user/closed").resolveOne(Duration.ofSeconds(2)).toCompletableFuture();
    Dropped d = onGuarded.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertTrue(d.reason().contains("/user/closed") && d.reason().contains("trusted-selection-paths"), d.reason());
    ExecutionException e = assertThrows(ExecutionException.class, () -> closed.get(Nodes.WAIT.toSeconds(), TimeUnit.SECONDS));
    assertInstanceOf(ActorNotFound.class, e.getCause());
  }

  @Test
  void anUntrustedNodeStillHearsOfTheDeathOfARemoteActorItWatchesButPeersCannotWatchItsActors() {
    ActorSystem guarded =
        TROUPE.createSystem("troupe.remote.untrusted-mode = on\ntroupe.remote.trusted-selection-paths = [\"/user/mine\"]\n");
    ActorRef mine = guarded.actorOf(Props.create(Echo.class), "mine");
    ActorRef theirsHere = a.actorOf(Props.create(Echo.class), "theirs");
    TestKit onGuarded = new TestKit(guarded);
    guarded.eventStream().subscribe(onGuarded.getRef(), Dropped.class);
    TestKit fromGuarded = new TestKit(guarded);
    ActorRef theirs = Nodes.lookup(guarded, a, "/user/theirs");
    fromGuarded.watch(theirs);
    TestKit fromA = new TestKit(a);
    fromA.watch(Nodes.lookup(a, guarded, "/user/mine"));

    Dropped d = onGuarded.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertTrue(d.reason().contains("a system message (Watch)"), d.reason());
    a.stop(theirsHere);
    fromGuarded.expectTerminated(Nodes.WAIT, theirs); // a's report of its own actor's death passes
    guarded.stop(mine);
    fromA.expectNoMessage(Duration.ofMillis(500)); // a's watch was refused: nobody tells a
  }

  // ------------------------------------------------------------------ helpers

  private static void assertTheLinkStays(TestKit probe, ActorRef echo) {
    echo.tell("still there?", probe.getRef());
    probe.expectMsg(Nodes.WAIT, "echo:still there?");
  }

  /** Another node can still look up and talk to b. */
  private static void assertTheNodeStillServes() {
    TestKit probe = new TestKit(a);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");
    echo.tell("after", probe.getRef());
    probe.expectMsg(Nodes.WAIT, "echo:after");
  }

  private static Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", b.address().port().orElseThrow()), 5_000);
    s.setSoTimeout((int) Nodes.WAIT.toMillis());
    return s;
  }

  /** The node answers with a refusal for good that says {@code reason}, then closes the connection. */
  private static void assertRefusedByTheNode(byte[] bytes, String reason) throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(bytes);
      s.getOutputStream().flush();
      Nodes.Refusal r = Nodes.readRefusal(s.getInputStream());
      assertEquals(new Nodes.Refusal(true, reason), r);
      assertClosed(s);
    }
  }

  private static void assertClosedByTheNode(byte[] bytes) throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(bytes);
      s.getOutputStream().flush();
      assertClosed(s);
    }
  }

  /** The node closes the connection, having sent nothing (no handshake acknowledgement). */
  private static void assertClosed(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    try {
      int first = in.read();
      assertEquals(-1, first, "the node answered instead of closing the connection");
    } catch (SocketException reset) {
      // closed with our bytes unread: a reset is a close too
    } catch (SocketTimeoutException e) {
      fail("the node did not close the connection within " + Nodes.WAIT);
    } catch (EOFException e) {
      // closed
    }
  }
}
