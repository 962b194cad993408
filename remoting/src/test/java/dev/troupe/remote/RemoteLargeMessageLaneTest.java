package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The large-message lane: messages to {@code troupe.remote.large-message-destinations} cross on a
 * connection of their own, in order, up to {@code maximum-large-frame-size} while every other
 * connection keeps {@code maximum-frame-size}; a stream of 1 MiB messages on it holds back neither
 * small messages nor the failure detector's heartbeats.
 */
class RemoteLargeMessageLaneTest {
  /** Both nodes: small frames on the ordinary lane, 1 MiB on the large-message lane, a quick failure detector. */
  private static final String LANES =
      "troupe.remote.maximum-frame-size = 64KiB\n"
          + "troupe.remote.maximum-large-frame-size = 1MiB\n"
          + "troupe.remote.large-message-destinations = [\"/user/big/*\", \"/user/bulk-*\"]\n"
          + "troupe.remote.watch-failure-detector { heartbeat-interval = 200ms, acceptable-heartbeat-pause = 3s }\n";

  private static final int MIB = 1024 * 1024;

  /** Replies to a byte[] with its first four bytes as an Integer (its number), to anything else with "echo:" and it. */
  static final class Numbers extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(byte[].class, b -> getSender().tell(ByteBuffer.wrap(b).getInt(), getSelf()))
          .matchAny(m -> getSender().tell("echo:" + m, getSelf()))
          .build();
    }
  }

  /** A parent for actors under /user/big. */
  static final class Parent extends AbstractActor {
    @Override
    public void preStart() {
      getContext().actorOf(Props.create(Numbers.class), "sink");
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE + LANES);

  static ActorSystem a;
  static ActorSystem b;

  @BeforeAll
  static void nodes() {
    a = TROUPE.createSystem("");
    b = TROUPE.system();
    b.actorOf(Props.create(Parent.class), "big");
    b.actorOf(Props.create(Numbers.class), "bulk-1");
    b.actorOf(Props.create(Numbers.class), "echo");
  }

  private static byte[] numbered(int n, int size) {
    byte[] bytes = new byte[size];
    ByteBuffer.wrap(bytes).putInt(n);
    return bytes;
  }

  // ------------------------------------------------------------------ ordering and limits

  @Test
  void messagesAboveTheOrdinaryLimitCrossTheLargeLaneInOrder() {
    TestKit probe = new TestKit(a);
    a.eventStream().subscribe(probe.getRef(), Dropped.class);
    ActorRef sink = Nodes.lookup(a, b, "/user/big/sink");
    int n = 60;
    for (int i = 0; i < n; i++) {
      sink.tell(numbered(i, 200_000 + 1000 * i), probe.getRef()); // each above the ordinary 64KiB
    }
    for (int i = 0; i < n; i++) {
      Object got = probe.expectMsgClass(Nodes.WAIT, Object.class);
      if (got instanceof Dropped d) {
        fail("message " + i + " was dropped: " + d.reason());
      }
      assertEquals(i, got, "the large lane keeps the order of one sender's messages to one recipient");
    }
    a.eventStream().unsubscribe(probe.getRef());
  }

  @Test
  void aPatternWithAStarInsideAnElementChoosesTheLargeLaneToo() {
    TestKit probe = new TestKit(a);
    ActorRef bulk = Nodes.lookup(a, b, "/user/bulk-1");
    bulk.tell(numbered(7, 300_000), probe.getRef());
    probe.expectMsg(Nodes.WAIT, 7);
  }

  @Test
  void theLargeLaneCarriesAFrameJustUnderItsLimitAndDropsOneAboveWithTheKeyNamedLosingNothingElse() {
    TestKit probe = new TestKit(a);
    a.eventStream().subscribe(probe.getRef(), Dropped.class);
    ActorRef sink = Nodes.lookup(a, b, "/user/big/sink");

    sink.tell(numbered(1, MIB - 512), probe.getRef()); // its frame (paths and all) just under 1MiB
    sink.tell(numbered(2, MIB + 1), probe.getRef()); // the payload alone above
    sink.tell(numbered(3, MIB - 2), probe.getRef()); // the payload fits, its frame (with its paths' slots) does not
    sink.tell(numbered(4, 100), probe.getRef());

    List<Object> got = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      got.add(probe.expectMsgClass(Nodes.WAIT, Object.class));
    }
    List<Integer> delivered = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    for (Object o : got) {
      if (o instanceof Dropped d) {
        reasons.add(d.reason());
        assertEquals(sink, d.recipient());
      } else {
        delivered.add((Integer) o);
      }
    }
    assertEquals(List.of(1, 4), delivered, "the messages within the limit, in order; drops: " + reasons);
    assertEquals(2, reasons.size(), String.valueOf(reasons));
    for (String r : reasons) {
      assertTrue(r.contains("troupe.remote.maximum-large-frame-size"), r);
    }
    a.eventStream().unsubscribe(probe.getRef());
  }

  @Test
  void anOrdinaryRecipientKeepsTheOrdinaryLimit() {
    TestKit probe = new TestKit(a);
    a.eventStream().subscribe(probe.getRef(), Dropped.class);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    echo.tell(numbered(1, 100_000), probe.getRef());

    Dropped d = probe.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertTrue(d.reason().contains("troupe.remote.maximum-frame-size"), d.reason());
    echo.tell("still here", probe.getRef());
    probe.expectMsg(Nodes.WAIT, "echo:still here");
    a.eventStream().unsubscribe(probe.getRef());
  }

  // ------------------------------------------------------------------ frames from a raw socket

  @Test
  void aRawLargeLaneConnectionMayWriteItsEnvelopeWithTheHandshakeAndItIsReadWithTheLargeLimit() throws IOException {
    TestKit probe = new TestKit(b);
    ActorRef sink = Nodes.lookup(b, b, "/user/big/sink");
    // the envelope names the probe as sender (b's own path): the answer goes to it locally
    try (Socket s = connect()) {
      ByteArrayOutputStream both = new ByteArrayOutputStream();
      both.write(handshake(2));
      both.write(envelope(sink.path().toSerializationFormat(), probe.getRef().path().toSerializationFormat(), numbered(5, 500_000)));
      s.getOutputStream().write(both.toByteArray()); // before the acknowledgement: read on once it is given
      Nodes.readAck(s.getInputStream());
      probe.expectMsg(Nodes.WAIT, 5);
    }
  }

  @Test
  void aGarbageFrameAboveTheLargeLimitClosesThatConnectionOnly() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(handshake(2));
      Nodes.readAck(s.getInputStream());
      s.getOutputStream().write(new byte[] {0x00, 0x10, 0x00, 0x01, 1, 2, 3}); // 1MiB + 1
      assertClosed(s);
    }
    assertTheNodesStillTalk();
  }

  @Test
  void anOrdinaryLaneConnectionIsNotGivenTheLargeLimit() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(handshake(1));
      Nodes.readAck(s.getInputStream());
      s.getOutputStream().write(new byte[] {0x00, 0x02, 0x00, 0x00, 1, 2, 3}); // 128KiB: above 64KiB
      assertClosed(s);
    }
    assertTheNodesStillTalk();
  }

  @Test
  void aFrameAboveTheOrdinaryLimitBeforeAnyHandshakeClosesTheConnection() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(new byte[] {0x00, 0x02, 0x00, 0x00, 2}); // 128KiB, as if a large-lane handshake
      assertClosed(s);
    }
    assertTheNodesStillTalk();
  }

  // ------------------------------------------------------------------ a flood next to small messages

  /** Sends 1 MiB messages to its target, keeping {@code window} unanswered, until told "stop". */
  static final class Flood extends AbstractActor {
    private final ActorRef target;
    private final int window;
    private int sent;
    private int answered;
    private boolean stopped;

    Flood(ActorRef target, int window) {
      this.target = target;
      this.window = window;
    }

    @Override
    public void preStart() {
      for (int i = 0; i < window; i++) {
        target.tell(numbered(sent++, MIB - 4096), getSelf());
      }
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Integer.class, n -> {
            answered++;
            if (!stopped) {
              target.tell(numbered(sent++, MIB - 4096), getSelf());
            }
          })
          .matchEquals("stop", s -> {
            stopped = true;
            getSender().tell(answered, getSelf());
          })
          .build();
    }
  }

  @Test
  void aStreamOf1MiBMessagesDelaysNeitherSmallMessagesNorHeartbeats() {
    TestKit watcher = new TestKit(a);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");
    watcher.watch(echo); // heartbeats to b from now on, every 200ms, 3s of silence tolerated
    TestKit events = new TestKit(a);
    a.eventStream().subscribe(events.getRef(), DisassociatedEvent.class);
    a.eventStream().subscribe(events.getRef(), QuarantinedEvent.class);
    a.eventStream().subscribe(events.getRef(), Dropped.class);
    ActorRef sink = Nodes.lookup(a, b, "/user/big/sink");
    ActorRef flood = a.actorOf(Props.create(Flood.class, sink, 8), "flood"); // 8 MiB in flight


    TestKit probe = new TestKit(a);
    List<Long> micros = new ArrayList<>();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
    int pings = 0;
    while (System.nanoTime() - until < 0 && pings < 5_000) {
      long t0 = System.nanoTime();
      echo.tell("ping", probe.getRef());
      probe.expectMsg(Nodes.WAIT, "echo:ping");
      micros.add((System.nanoTime() - t0) / 1000);
      pings++;
    }
    flood.tell("stop", probe.getRef());
    int answered = probe.expectMsgClass(Nodes.WAIT, Integer.class);

    Collections.sort(micros);
    long p50 = micros.get(micros.size() / 2);
    long p99 = micros.get((int) (micros.size() * 0.99));
    long max = micros.get(micros.size() - 1);
    String summary = pings + " small round trips next to " + answered + " MiB on the large lane: p50 " + p50 + " µs, p99 "
        + p99 + " µs, max " + max + " µs";
    System.out.println(summary);
    assertTrue(answered >= 8, "the flood moved: " + summary);
    // Generous: on a 2-core build box shared with other builds, both nodes, the flood and the pings
    // in one JVM, a ping's wake-ups wait for the CPU (p99 0.5 s at a load of 40); the bound says
    // that small messages are not starved, the failure detector below that heartbeats are not late.
    assertTrue(p99 < 2_000_000, summary);
    events.expectNoMessage(Duration.ofMillis(200));
    watcher.expectNoMessage(Duration.ofMillis(100)); // no Terminated: no heartbeat answer came later than the pause allows
    a.eventStream().unsubscribe(events.getRef());
    watcher.unwatch(echo);
    a.stop(flood);
  }

  // ------------------------------------------------------------------ helpers

  private static void assertTheNodesStillTalk() {
    TestKit probe = new TestKit(a);
    ActorRef sink = Nodes.lookup(a, b, "/user/big/sink");
    sink.tell(numbered(9, 200_000), probe.getRef());
    probe.expectMsg(Nodes.WAIT, 9);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");
    echo.tell("hi", probe.getRef());
    probe.expectMsg(Nodes.WAIT, "echo:hi");
  }

  private static Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", b.address().port().orElseThrow()), 5000);
    s.setSoTimeout((int) Nodes.WAIT.toMillis());
    return s;
  }

  private static byte[] handshake(int lane) throws IOException {
    return Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, lane, "troupe://raw@127.0.0.1:1", 4242, b.address().toString());
  }

  private static void assertClosed(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // whatever the node wrote before closing
      }
    } catch (SocketTimeoutException e) {
      fail("the node did not close the connection within " + Nodes.WAIT);
    } catch (SocketException | EOFException reset) {
      // closed
    }
  }

  /** An envelope frame written by hand: recipient and sender as new table entries, serializer 1 (byte[]), no manifest. */
  private static byte[] envelope(String recipient, String sender, byte[] payload) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(1);
    writeString(body, recipient);
    body.write(1);
    writeString(body, sender);
    body.write(2); // zigzag(1)
    body.write(0); // no manifest
    body.write(payload);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    new DataOutputStream(frame).writeInt(body.size());
    body.writeTo(frame);
    return frame.toByteArray();
  }

  private static void writeString(ByteArrayOutputStream out, String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    if (utf8.length >= 128) {
      throw new IllegalArgumentException("a one-byte varint length: " + s);
    }
    out.write(utf8.length);
    out.write(utf8, 0, utf8.length);
  }
}
