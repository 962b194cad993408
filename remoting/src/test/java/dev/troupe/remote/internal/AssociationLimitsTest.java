package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.remote.Dropped;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.nio.NioIoHandle;
import io.netty.channel.nio.NioIoOps;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * What a node keeps about other nodes stays bounded whatever peers say: naming a node creates
 * nothing, an idle association is retired (what must outlive it kept in a bounded record: a
 * quarantined incarnation stays refused, system messages keep their numbering), associations are
 * capped, and an {@link Error} on a network thread does not end it.
 */
class AssociationLimitsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String REMOTE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n";

  /** Does nothing but live. */
  public static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  /** Passes every message on to {@code to}. */
  public static final class Relay extends AbstractActor {
    private final ActorRef to;

    public Relay(ActorRef to) {
      this.to = to;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> to.tell(m, getSelf())).build();
    }
  }

  @RegisterExtension
  final ActorSystemExtension troupe = ActorSystemExtension.perMethod(REMOTE);

  @Test
  void pathsNamingThousandsOfNodesCreateNoAssociation() throws IOException {
    ActorSystem victim = troupe.createSystem("");
    TestKit probe = new TestKit(victim);
    victim.actorOf(Props.create(Relay.class, probe.getRef()), "sink");
    try (Socket s = handshake(victim, Lane.ORDINARY, "troupe://raw@127.0.0.1:1", 42)) {
      OutputStream out = s.getOutputStream();
      for (int i = 0; i < 2_000; i++) {
        String elsewhere = "troupe://n" + i + "@127.0.0.1:" + (1_000 + i) + "/user/x";
        out.write(envelope(elsewhere, elsewhere + "/s")); // recipient and sender both on nodes never seen
      }
      out.write(envelope(victim.address() + "/user/sink", null));
      out.flush();
      probe.expectMsg(WAIT, "hi"); // every envelope before it was read
    }
    assertEquals(1, provider(victim).associationCount(), "associations: only the connected peer's");
  }

  @Test
  void aRefToANodeThatIsNeverSentToCostsNoAssociation() {
    ActorSystem node = troupe.createSystem("");
    for (int i = 0; i < 1_000; i++) {
      provider(node).resolveActorRef(ActorPath.fromString("troupe://n@127.0.0.1:" + (2_000 + i) + "/user/x"));
    }
    assertEquals(0, provider(node).associationCount());
  }

  @Test
  void clientsRestartingOnNewPortsLeaveNoAssociationOnceIdleAndTheRecordsAreBounded() throws IOException {
    ActorSystem victim =
        troupe.createSystem("troupe.remote.advanced { association-idle-timeout = 200ms, maximum-retired-associations = 5 }\n");
    for (int i = 0; i < 20; i++) {
      try (Socket s = handshake(victim, Lane.CONTROL, "troupe://client@127.0.0.1:" + (3_000 + i), 100 + i)) {
        s.getOutputStream().write(frame(new byte[] {0, (byte) Wire.HEARTBEAT}));
        readFrame(s.getInputStream()); // its answer: the connection is up
      }
    }
    await(victim, "every client's association retired", () -> provider(victim).associationCount() == 0);
    assertEquals(5, provider(victim).retiredRecordCount(), "records kept: maximum-retired-associations");
  }

  @Test
  void aQuarantinedIncarnationStaysRefusedAfterItsAssociationIsRetired() throws IOException {
    ActorSystem victim = troupe.createSystem("troupe.remote.advanced.association-idle-timeout = 200ms\n");
    String origin = "troupe://gone@127.0.0.1:4000";
    try (Socket s = handshake(victim, Lane.ORDINARY, origin, 7)) {
      provider(victim).association(Address.parse(origin)).quarantine("the test says so");
      assertClosed(s);
    }
    await(victim, "the quarantined node's association retired", () -> provider(victim).associationCount() == 0);

    try (Socket s = connect(victim)) {
      s.getOutputStream().write(frame(handshakeBody(victim, Lane.ORDINARY, origin, 7)));
      assertRefusedThenClosed(s, "quarantined"); // no acknowledgement: that incarnation is still refused
    }
    try (Socket s = handshake(victim, Lane.ORDINARY, origin, 8)) {
      assertTrue(s.isConnected(), "a new incarnation of the node is accepted");
    }
  }

  @Test
  void systemMessagesKeepTheirNumberingAcrossARetirement() {
    String quick =
        "troupe.remote.advanced { association-idle-timeout = 200ms, inbound-idle-timeout = 500ms }\n"
            + "troupe.remote.watch-failure-detector.heartbeat-interval = 100ms\n";
    ActorSystem a = troupe.createSystem(quick);
    ActorSystem b = troupe.createSystem(quick);
    ActorRef first = b.actorOf(Props.create(Idle.class), "first");
    ActorRef second = b.actorOf(Props.create(Idle.class), "second");
    TestKit onB = new TestKit(b);
    onB.watch(first);
    onB.watch(second);
    ActorRef firstFromA = lookup(a, b, "/user/first");
    ActorRef secondFromA = lookup(a, b, "/user/second");

    a.stop(firstFromA); // system message 1 from a to b
    onB.expectTerminated(WAIT, first);
    await(a, "a's association with b retired once its connections went idle", () -> provider(a).associationCount() == 0);

    a.stop(secondFromA); // number 2, from a new association: b must not take it for a resend of 1
    onB.expectTerminated(WAIT, second);
  }

  @Test
  void handshakesFromMadeUpNodesCannotPushOutTheRecordOfARealPeersSystemMessageNumbering() {
    RetiredAssociations records = new RetiredAssociations(3);
    Address real = Address.parse("troupe://real@127.0.0.1:1");
    records.put(real, new Association.Remembered(5, true, new long[0], new long[0], 17, new InboundSystemSequence.State(5, 3, new long[0])));
    for (int i = 0; i < 100; i++) {
      records.put(
          Address.parse("troupe://made-up@127.0.0.1:" + (10 + i)),
          new Association.Remembered(i + 1, false, new long[0], new long[0], 1, new InboundSystemSequence.State(0, 0, new long[0])));
    }
    assertEquals(4, records.size(), "the real peer's record and the 3 newest others");
    assertEquals(17, records.take(real).nextSeq());
  }

  @Test
  void atTheCapANewNodesHandshakeIsRefusedAndAMessageToANewNodeIsDropped() throws IOException {
    ActorSystem victim = troupe.createSystem("troupe.remote.advanced.maximum-associations = 3\n");
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        held.add(handshake(victim, Lane.ORDINARY, "troupe://held@127.0.0.1:" + (5_000 + i), 1));
      }
      try (Socket s = connect(victim)) {
        s.getOutputStream().write(frame(handshakeBody(victim, Lane.ORDINARY, "troupe://one-more@127.0.0.1:5999", 1)));
        assertRefusedThenClosed(s, "troupe.remote.advanced.maximum-associations");
      }
      TestKit probe = new TestKit(victim);
      victim.eventStream().subscribe(probe.getRef(), Dropped.class);
      victim.actorSelection("troupe://new@127.0.0.1:6000/user/x").tell("hello", ActorRef.noSender());
      Dropped d = probe.expectMsgClass(WAIT, Dropped.class);
      assertTrue(d.reason().contains("maximum-associations"), d.reason());
      assertEquals(3, provider(victim).associationCount());

      held.remove(0).close(); // its association goes idle: the next new node gets its place
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (true) {
        try {
          held.add(handshake(victim, Lane.ORDINARY, "troupe://later@127.0.0.1:6001", 1));
          break;
        } catch (EOFException | SocketException refused) {
          if (System.nanoTime() > deadline) {
            fail("no new node was accepted within " + WAIT + " though an association went idle under the cap");
          }
        }
      }
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  void anErrorThrownWhileALoopProcessesIoDoesNotEndTheLoop() throws Exception {
    EventLoops loops =
        new EventLoops("guarded", 1, new RateLimitedLog(LoggerFactory.getLogger(AssociationLimitsTest.class), 1_000_000_000L, 10));
    Pipe failing = Pipe.open();
    Pipe healthy = Pipe.open();
    try {
      IoEventLoop loop = loops.next();
      Reader once = new Reader(failing.source(), true);
      Reader next = new Reader(healthy.source(), false);
      IoRegistration r1 = register(loop, once);
      IoRegistration r2 = register(loop, next);

      failing.sink().write(ByteBuffer.wrap(new byte[] {1})); // its IO processing throws an Error
      assertTrue(once.read.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the failing channel was processed");
      healthy.sink().write(ByteBuffer.wrap(new byte[] {2}));

      assertTrue(next.read.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the loop went on processing IO after the Error");
      assertEquals(42, loop.submit(() -> 42).get(WAIT.toSeconds(), TimeUnit.SECONDS), "and tasks");
      loop.submit(() -> {
        r1.cancel();
        r2.cancel();
      }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      for (Pipe p : List.of(failing, healthy)) {
        p.sink().close();
        p.source().close();
      }
      loops.shutdown(Duration.ofSeconds(1));
    }
  }

  private static IoRegistration register(IoEventLoop loop, Reader handle) throws Exception {
    handle.channel.configureBlocking(false);
    IoRegistration r = loop.register(handle).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    loop.submit(() -> r.submit(NioIoOps.READ)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    return r;
  }

  /**
   * A handle that reads what arrives; the first time, with {@code throwFirst}, it throws an {@link
   * OutOfMemoryError} instead, as IO processing may under a flood.
   */
  private static final class Reader implements NioIoHandle {
    final Pipe.SourceChannel channel;
    final CountDownLatch read = new CountDownLatch(1);
    private boolean throwFirst;

    Reader(Pipe.SourceChannel channel, boolean throwFirst) {
      this.channel = channel;
      this.throwFirst = throwFirst;
    }

    @Override
    public SelectableChannel selectableChannel() {
      return channel;
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
      read.countDown();
      if (throwFirst) {
        throwFirst = false;
        throw new OutOfMemoryError("thrown by the test");
      }
      try {
        channel.read(ByteBuffer.allocate(16));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public void close() {}
  }

  // ------------------------------------------------------------------ helpers

  private static RemoteActorRefProvider provider(ActorSystem s) {
    return (RemoteActorRefProvider) ((RuntimeSystem) s).provider();
  }

  private static ActorRef lookup(ActorSystem from, ActorSystem target, String path) {
    return from.actorSelection(target.address() + path).resolveOne(WAIT).toCompletableFuture().join();
  }

  private static void await(ActorSystem s, String what, BooleanSupplier condition) {
    new TestKit(s).awaitCond(WAIT, Duration.ofMillis(10), "not within " + WAIT + ": " + what, condition::getAsBoolean);
  }

  private static Socket connect(ActorSystem victim) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", victim.address().port().orElseThrow()), 5_000);
    s.setSoTimeout((int) WAIT.toMillis());
    return s;
  }

  /** A connection to {@code victim} whose handshake claiming {@code origin} was acknowledged. */
  private static Socket handshake(ActorSystem victim, Lane lane, String origin, long uid) throws IOException {
    Socket s = connect(victim);
    try {
      s.getOutputStream().write(frame(handshakeBody(victim, lane, origin, uid)));
      readFrame(s.getInputStream());
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  private static byte[] handshakeBody(ActorSystem victim, Lane lane, String origin, long uid) {
    ByteBuf b = Wire.encodeHandshake(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, new Wire.Handshake(lane, Address.parse(origin), uid, victim.address()));
    byte[] bytes = new byte[b.readableBytes()];
    b.readBytes(bytes);
    return bytes;
  }

  /**
   * An ordinary-lane envelope with a string payload, each path a new entry of the connection's
   * string table ({@code sender} null: none).
   */
  private static byte[] envelope(String recipient, String sender) {
    ByteBuf b = Unpooled.buffer();
    Wire.writeVarInt(b, Wire.REF_NEW);
    Wire.writeString(b, recipient);
    if (sender == null) {
      Wire.writeVarInt(b, Wire.REF_NONE);
    } else {
      Wire.writeVarInt(b, Wire.REF_NEW);
      Wire.writeString(b, sender);
    }
    Wire.writeVarInt(b, Wire.zigZag(2)); // the string serializer
    Wire.writeVarInt(b, Wire.REF_NONE);
    b.writeBytes(new byte[] {'h', 'i'});
    byte[] body = new byte[b.readableBytes()];
    b.readBytes(body);
    return frame(body);
  }

  private static byte[] frame(byte[] body) {
    ByteBuf f = Unpooled.buffer(4 + body.length).writeInt(body.length).writeBytes(body);
    return f.array();
  }

  private static byte[] readFrame(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    byte[] body = new byte[in.readInt()];
    in.readFully(body);
    return body;
  }

  /**
   * The node refuses the handshake with a refusal that may pass later (not for good) and says
   * {@code part}, then closes the connection.
   */
  private static void assertRefusedThenClosed(Socket s, String part) throws IOException {
    Wire.Refusal r = Wire.decodeRefusal(Unpooled.wrappedBuffer(readFrame(s.getInputStream())));
    assertTrue(r != null && !r.isFinal() && r.reason().contains(part), "a refusal (not for good) saying " + part + ": " + r);
    assertClosed(s);
  }

  /** The node closes the connection (having sent nothing) within {@link #WAIT}. */
  private static void assertClosed(Socket s) throws IOException {
    try {
      assertEquals(-1, s.getInputStream().read(), "the node answered instead of closing the connection");
    } catch (SocketException reset) {
      // a reset is a close too
    }
  }
}
