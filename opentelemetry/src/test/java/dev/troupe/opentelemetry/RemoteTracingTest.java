package dev.troupe.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.testkit.ChildJvm;
import dev.troupe.testkit.TestKit;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Trace context across remoting: two traced systems in this JVM talking over loopback, a traced
 * node in a child JVM, a hand-made node that reads what crosses the wire, and a hand-made peer
 * that sends malformed contexts. A ping that leaves for another node and comes back is one trace,
 * each actor's handling a child of the span that sent to it; an untraced message makes no span
 * and adds nothing to its frame; a malformed context is ignored and its message delivered.
 */
class RemoteTracingTest {
  static final String REMOTE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n"
          + "troupe.log-dead-letters = 0\n";

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int MAGIC = 0x54525550;
  private static final int VERSION = 3;
  private static final int TRACED = 6;
  private static final int STRING_SERIALIZER = 2;

  private static final InMemorySpanExporter EXPORTER = InMemorySpanExporter.create();
  private static final SdkTracerProvider TRACER_PROVIDER =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(EXPORTER)).build();
  private static final OpenTelemetrySdk OTEL =
      OpenTelemetrySdk.builder().setTracerProvider(TRACER_PROVIDER).build();
  private static final Tracer TRACER = OTEL.getTracer("test");

  static ActorSystem one;
  static ActorSystem two;
  private TestKit probe;
  private Process child;

  @BeforeAll
  static void nodes() {
    one = ActorSystem.create("one", ConfigFactory.parseString(REMOTE));
    two = ActorSystem.create("two", ConfigFactory.parseString(REMOTE));
    TroupeTracing.install(one, OTEL);
    TroupeTracing.install(two, OTEL);
    two.actorOf(Props.create(Echo.class), "echo");
  }

  @AfterAll
  static void stopNodes() {
    TestKit.shutdownActorSystem(one);
    TestKit.shutdownActorSystem(two);
    TRACER_PROVIDER.close();
  }

  @BeforeEach
  void freshProbe() {
    probe = new TestKit(one);
  }

  @AfterEach
  void stopChild() throws InterruptedException {
    if (child != null) {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  // ------------------------------------------------------------------ actors

  /** Answers a string with "pong:" and the string. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().match(String.class, s -> getSender().tell("pong:" + s, getSelf())).build();
    }
  }

  /** Sends "ping" on to its target; hands any other string (the answer) to the probe. */
  static final class Relay extends AbstractActor {
    private final ActorRef target;
    private final ActorRef probe;

    Relay(ActorRef target, ActorRef probe) {
      this.target = target;
      this.probe = probe;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("ping", p -> target.tell(p, getSelf()))
          .match(String.class, answer -> probe.tell(answer, getSelf()))
          .build();
    }
  }

  /** What the sink received, and the span context current while it handled it. */
  record Seen(Object message, SpanContext current) {}

  /** Tells the probe what it receives, with the span context current meanwhile. */
  static final class Sink extends AbstractActor {
    private final ActorRef probe;

    Sink(ActorRef probe) {
      this.probe = probe;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> probe.tell(new Seen(m, Span.current().getSpanContext()), getSelf())).build();
    }
  }

  private ActorRef relay(ActorSystem on, ActorRef target, String name) {
    ActorRef p = probe.getRef();
    return on.actorOf(Props.create(Relay.class, () -> new Relay(target, p)), name);
  }

  private static ActorRef lookup(ActorSystem from, String address, String path) {
    return from.actorSelection(address + path).resolveOne(WAIT).toCompletableFuture().join();
  }

  /** Sends "ping" to {@code to} from the test's thread while a span "client" is current. */
  private static Span pingUnderASpan(ActorRef to) {
    Span client = TRACER.spanBuilder("client").startSpan();
    try (Scope ignored = client.makeCurrent()) {
      to.tell("ping", ActorRef.noSender());
    } finally {
      client.end();
    }
    return client;
  }

  /** Waits until at least {@code count} spans named {@code name} of trace {@code traceId} ended. */
  private List<SpanData> awaitSpans(String traceId, String name, int count) {
    probe.awaitCond(WAIT, Duration.ofMillis(10), count + " spans '" + name + "' of trace " + traceId + " ended",
        () -> ofTrace(traceId).stream().filter(s -> s.getName().equals(name)).count() >= count);
    return ofTrace(traceId);
  }

  private static List<SpanData> ofTrace(String traceId) {
    return EXPORTER.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(traceId)).toList();
  }

  /** The one span of {@code spans} named {@code name} whose parent is {@code parentSpanId}. */
  private static SpanData childOf(List<SpanData> spans, String name, String parentSpanId) {
    List<SpanData> found =
        spans.stream().filter(s -> s.getName().equals(name) && s.getParentSpanId().equals(parentSpanId)).toList();
    assertEquals(1, found.size(), "spans '" + name + "' under " + parentSpanId + " in " + describe(spans));
    return found.get(0);
  }

  private static List<String> describe(List<SpanData> spans) {
    return spans.stream().map(s -> s.getName() + " " + s.getSpanId() + "<-" + s.getParentSpanId()).toList();
  }

  // ------------------------------------------------------------------ two nodes in this JVM

  @Test
  void aPingThatCrossesToAnotherNodeAndBackIsOneTraceEachHandlingAChildOfItsSender() {
    ActorRef echo = lookup(one, two.address().toString(), "/user/echo");
    ActorRef relay = relay(one, echo, "relay-in-jvm");

    Span client = pingUnderASpan(relay);
    probe.expectMsg(WAIT, "pong:ping");

    String trace = client.getSpanContext().getTraceId();
    List<SpanData> spans = awaitSpans(trace, "process Relay", 2);
    spans = awaitSpans(trace, "process Echo", 1);
    SpanData ping = childOf(spans, "process Relay", client.getSpanContext().getSpanId());
    SpanData echoed = childOf(spans, "process Echo", ping.getSpanId());
    SpanData pong = childOf(spans, "process Relay", echoed.getSpanId());
    assertEquals("two", echoed.getAttributes().get(TroupeTracing.ACTOR_SYSTEM), "handled on the other node");
    assertEquals("/user/echo", echoed.getAttributes().get(TroupeTracing.MESSAGING_DESTINATION_NAME));
    assertEquals(SpanKind.CONSUMER, echoed.getKind());
    assertTrue(echoed.getParentSpanContext().isRemote(), "the echo's parent came over the wire");
    assertTrue(pong.getParentSpanContext().isRemote(), "the answer's parent came back over the wire");
    assertFalse(ping.getParentSpanContext().isRemote(), "the first hop is local");
    assertEquals("one", pong.getAttributes().get(TroupeTracing.ACTOR_SYSTEM));
  }

  @Test
  void anAskOfAnActorOnAnotherNodeIsHandledInAChildOfTheAskersSpan() throws Exception {
    ActorRef echo = lookup(one, two.address().toString(), "/user/echo");

    Span client = TRACER.spanBuilder("client").startSpan();
    java.util.concurrent.CompletableFuture<Object> answer;
    try (Scope ignored = client.makeCurrent()) {
      answer = Patterns.ask(echo, "asked", WAIT).toCompletableFuture();
    } finally {
      client.end();
    }
    assertEquals("pong:asked", answer.get(WAIT.toSeconds(), TimeUnit.SECONDS));

    List<SpanData> spans = awaitSpans(client.getSpanContext().getTraceId(), "process Echo", 1);
    SpanData echoed = childOf(spans, "process Echo", client.getSpanContext().getSpanId());
    assertTrue(echoed.getParentSpanContext().isRemote(), "the asker's span came over the wire");
  }

  @Test
  void anUntracedPingAcrossNodesMakesNoSpanOnEitherNode() {
    two.actorOf(Props.create(Echo.class), "echo-untraced");
    ActorRef echo = lookup(one, two.address().toString(), "/user/echo-untraced");
    ActorRef relay = relay(one, echo, "relay-untraced");

    relay.tell("ping", ActorRef.noSender());
    probe.expectMsg(WAIT, "pong:ping");
    // A traced ping after it, handled by the same actors after the untraced one: once its spans
    // have ended, any span of the untraced round would have ended too.
    Span client = pingUnderASpan(relay);
    probe.expectMsg(WAIT, "pong:ping");
    String trace = client.getSpanContext().getTraceId();
    awaitSpans(trace, "process Relay", 2);
    awaitSpans(trace, "process Echo", 1);

    List<SpanData> untracedRound =
        EXPORTER.getFinishedSpanItems().stream()
            .filter(s -> Arrays.asList("/user/relay-untraced", "/user/echo-untraced")
                .contains(s.getAttributes().get(TroupeTracing.MESSAGING_DESTINATION_NAME)))
            .filter(s -> !s.getTraceId().equals(trace))
            .toList();
    assertEquals(List.of(), describe(untracedRound), "spans of the untraced round");
  }

  // ------------------------------------------------------------------ a node in another JVM

  @Test
  void aPingToANodeInAnotherJvmAndBackIsOneTrace() throws IOException {
    child = ChildJvm.builder(List.of("-Xmx128m"), TracedNode.class).redirectErrorStream(true).start();
    String port = ChildJvm.awaitLine(child, TracedNode.PORT_LINE, Duration.ofSeconds(60));
    ActorRef reporter = lookup(one, "troupe://" + TracedNode.SYSTEM + "@127.0.0.1:" + port, "/user/reporter");
    ActorRef relay = relay(one, reporter, "relay-to-child");

    Span client = pingUnderASpan(relay);
    String answer = probe.expectMsgClass(WAIT, String.class);

    String[] there = answer.split(" ");
    assertEquals(5, there.length, "the child's span: " + answer);
    String trace = client.getSpanContext().getTraceId();
    List<SpanData> spans = awaitSpans(trace, "process Relay", 2);
    SpanData ping = childOf(spans, "process Relay", client.getSpanContext().getSpanId());
    assertEquals(trace, there[1], "the child's span is of the same trace");
    assertEquals(ping.getSpanId(), there[3], "its parent is the span that sent to it");
    assertEquals("true", there[4], "its parent came over the wire");
    SpanData pong = childOf(spans, "process Relay", there[2]);
    assertTrue(pong.getParentSpanContext().isRemote(), "the answer's parent is the child's span, from the wire");
  }

  // ------------------------------------------------------------------ the frame, as a peer reads it

  @Test
  void aTracedMessageCarriesItsTraceparentInItsFrameAndAnUntracedOneOnlyItsEnvelope() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      server.setSoTimeout((int) WAIT.toMillis());
      String fake = "troupe://fake@127.0.0.1:" + server.getLocalPort();
      ActorRef remote = ((RuntimeSystem) one).provider().resolveActorRef(ActorPath.fromString(fake + "/user/sink"));

      remote.tell("untraced", ActorRef.noSender());
      Span client = TRACER.spanBuilder("client").startSpan();
      try (Scope ignored = client.makeCurrent()) {
        remote.tell("traced", ActorRef.noSender());
      } finally {
        client.end();
      }

      try (Socket s = server.accept()) {
        s.setSoTimeout((int) WAIT.toMillis());
        DataInputStream in = new DataInputStream(s.getInputStream());
        ByteBuffer handshake = ByteBuffer.wrap(readFrame(in));
        assertEquals(MAGIC, handshake.getInt(), "magic of the handshake");
        assertEquals(VERSION, handshake.get(), "the protocol version that carries trace contexts");
        assertEquals(1, handshake.get(), "the ordinary lane");
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(13);
        out.writeInt(MAGIC);
        out.writeByte(VERSION);
        out.writeLong(99); // this fake node's uid
        out.flush();

        ByteBuffer untraced = ByteBuffer.wrap(readFrame(in));
        assertEquals(1, untraced.get(), "the untraced frame opens with its recipient (a new string), as ever");
        assertEquals(fake + "/user/sink", readString(untraced));
        assertEquals(0, untraced.get(), "no sender");
        assertEquals(STRING_SERIALIZER << 1, untraced.get(), "the string serializer (zigzag)");
        assertEquals(0, untraced.get(), "no manifest");
        assertArrayEquals("untraced".getBytes(StandardCharsets.UTF_8), rest(untraced), "then the payload, and nothing else");

        ByteBuffer traced = ByteBuffer.wrap(readFrame(in));
        assertEquals(0, traced.get(), "a traced frame opens with the control prefix");
        assertEquals(TRACED, traced.get(), "of the trace context");
        SpanContext sc = client.getSpanContext();
        assertEquals(
            "00-" + sc.getTraceId() + "-" + sc.getSpanId() + "-" + sc.getTraceFlags().asHex(), readString(traced), "the W3C traceparent");
        assertEquals(4, traced.get(), "the recipient, now slot 0 of the connection's table");
        assertEquals(0, traced.get(), "no sender");
        assertEquals(STRING_SERIALIZER << 1, traced.get(), "the string serializer");
        assertEquals(0, traced.get(), "no manifest");
        assertArrayEquals("traced".getBytes(StandardCharsets.UTF_8), rest(traced));
      }
    }
  }

  // ------------------------------------------------------------------ malformed contexts from a peer

  @Test
  void malformedTraceContextsFromAPeerAreIgnoredTheirMessagesDeliveredAndTheConnectionStays() throws IOException {
    TestKit onTwo = new TestKit(two);
    ActorRef probeOnTwo = onTwo.getRef();
    two.actorOf(Props.create(Sink.class, () -> new Sink(probeOnTwo)), "sink");
    String sink = two.address() + "/user/sink";
    String valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    byte[][] malformed = {
      ascii("00-4bf92f3577b34da6a3ce929d0e0eZZZZ-00f067aa0ba902b7-01"), // bad hex
      ascii("00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01"), // a trace id two digits short
      ascii("00-00000000000000000000000000000000-00f067aa0ba902b7-01"), // the invalid (all-zero) trace id
      {(byte) 0xFF, 0, '\n', '\n', (byte) 0x80, 'x', 0x7F}, // garbage
      {}, // empty
    };

    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", two.address().port().orElseThrow()), 5_000);
      s.setSoTimeout((int) WAIT.toMillis());
      OutputStream out = s.getOutputStream();
      out.write(handshake(two.address().toString()));
      readAck(s.getInputStream());
      for (int i = 0; i < malformed.length; i++) {
        out.write(frame(malformed[i], sink, "malformed-" + i));
      }
      out.write(frame(ascii(valid + "\nvendor=opaque"), sink, "valid"));
      out.write(frame(null, sink, "untraced"));
      out.flush();

      for (int i = 0; i < malformed.length; i++) {
        Seen seen = onTwo.expectMsgClass(WAIT, Seen.class);
        assertInstanceOf(String.class, seen.message());
        assertEquals("malformed-" + i, seen.message(), "delivered in order");
        assertFalse(seen.current().isValid(), "delivered untraced: " + seen.current());
      }
      Seen traced = onTwo.expectMsgClass(WAIT, Seen.class);
      assertEquals("valid", traced.message());
      assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", traced.current().getTraceId(), "the peer's trace goes on");
      Seen untraced = onTwo.expectMsgClass(WAIT, Seen.class);
      assertEquals("untraced", untraced.message(), "the connection stayed open");
      assertFalse(untraced.current().isValid());
      List<SpanData> sinkSpans =
          EXPORTER.getFinishedSpanItems().stream().filter(d -> d.getName().equals("process Sink")).toList();
      assertEquals(1, sinkSpans.size(), "one span, of the valid context: " + describe(sinkSpans));
      assertEquals("00f067aa0ba902b7", sinkSpans.get(0).getParentSpanId(), "its parent is the peer's span");
      assertTrue(sinkSpans.get(0).getParentSpanContext().isRemote());

      // a context longer than any node sends breaks the protocol: that connection closes
      out.write(frame(new byte[513], sink, "too long"));
      out.flush();
      assertClosed(s.getInputStream());
      onTwo.expectNoMessage(Duration.ofMillis(200));
    }
    // and the node serves its other peers as before
    ActorRef echo = lookup(one, two.address().toString(), "/user/echo");
    echo.tell("after", probe.getRef());
    probe.expectMsg(WAIT, "pong:after");
  }

  // ------------------------------------------------------------------ raw frames

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** A handshake on the ordinary lane from {@code troupe://raw@127.0.0.1:1}, uid 42. */
  private static byte[] handshake(String target) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(body);
    out.writeInt(MAGIC);
    out.writeByte(VERSION);
    out.writeByte(1);
    writeString(body, "troupe://raw@127.0.0.1:1");
    out.writeLong(42);
    writeString(body, target);
    return framed(body);
  }

  private static void readAck(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    assertEquals(13, in.readInt(), "length of the handshake acknowledgement");
    assertEquals(MAGIC, in.readInt());
    assertEquals(VERSION, in.readByte());
    in.readLong();
  }

  /**
   * A user message's frame: the trace context's prefix when {@code context} is not null, then the
   * envelope (the recipient as a string not remembered, no sender, a string payload).
   */
  private static byte[] frame(byte[] context, String recipient, String message) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (context != null) {
      body.write(0);
      body.write(TRACED);
      body.write(varInt(context.length));
      body.write(context);
    }
    body.write(2); // a string that is not remembered
    writeString(body, recipient);
    body.write(0); // no sender
    body.write(varInt(STRING_SERIALIZER << 1));
    body.write(0); // no manifest
    body.write(message.getBytes(StandardCharsets.UTF_8));
    return framed(body);
  }

  private static byte[] framed(ByteArrayOutputStream body) throws IOException {
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    new DataOutputStream(frame).writeInt(body.size());
    body.writeTo(frame);
    return frame.toByteArray();
  }

  private static void writeString(ByteArrayOutputStream out, String s) throws IOException {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    out.write(varInt(utf8.length));
    out.write(utf8);
  }

  private static byte[] varInt(int v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while ((v & ~0x7F) != 0) {
      out.write((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write(v);
    return out.toByteArray();
  }

  private static byte[] readFrame(DataInputStream in) throws IOException {
    int length = in.readInt();
    assertTrue(length > 0 && length < 64 * 1024, "a frame of " + length + " bytes");
    byte[] body = new byte[length];
    in.readFully(body);
    return body;
  }

  private static String readString(ByteBuffer b) {
    int n = 0;
    for (int shift = 0; ; shift += 7) {
      int x = b.get();
      n |= (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        break;
      }
    }
    byte[] utf8 = new byte[n];
    b.get(utf8);
    return new String(utf8, StandardCharsets.UTF_8);
  }

  private static byte[] rest(ByteBuffer b) {
    return Arrays.copyOfRange(b.array(), b.position(), b.limit());
  }

  /** The node closed the connection: the stream ends (or resets) before {@link #WAIT}. */
  private static void assertClosed(InputStream in) throws IOException {
    try {
      byte[] buf = new byte[256];
      int n;
      while ((n = in.read(buf)) >= 0) {
        assertTrue(n >= 0); // the node writes nothing on an ordinary lane; read on to the end
      }
    } catch (SocketException | EOFException reset) {
      // closed with a reset: closed all the same
    } catch (java.net.SocketTimeoutException e) {
      throw new AssertionError("the node did not close the connection within " + WAIT, e);
    }
  }
}
