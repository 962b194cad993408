package dev.troupe.remote.internal.transport;

import static dev.troupe.remote.internal.transport.PipelineFixtures.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorPath;
import dev.troupe.serialization.Serialized;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The trace context's field in the frame (protocol version 3): a traced user message's frame is
 * its envelope behind a short prefix, an untraced one's the envelope alone, byte for byte what it
 * was; the decoder hands the context on with the envelope and forgets it for the next one; a
 * context above its bound, or longer than its frame, breaks the protocol.
 */
class TraceContextFrameTest {
  private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private static final String WITH_STATE = TRACEPARENT + "\nrojo=00f067aa0ba902b7,congo=t61rcWkgMzE";

  private static final PipelineFixtures.PathRef TO = new PipelineFixtures.PathRef(ActorPath.fromString(path("a")));

  private static OutboundEnvelope envelope(String message, String traceContext) {
    return new OutboundEnvelope(
        TO, path("a"), null, message, new Serialized(2, "", message.getBytes(StandardCharsets.UTF_8)), traceContext);
  }

  /** The frame's body as a fresh connection (an empty string table) writes it. */
  private static byte[] encodeOnNewConnection(OutboundEnvelope e, long seq) {
    ByteBuf b = Wire.encodeEnvelope(UnpooledByteBufAllocator.DEFAULT, new OutboundTable(), e, seq, 64 * 1024);
    try {
      return ByteBufUtil.getBytes(b);
    } finally {
      b.release();
    }
  }

  @Test
  void anUntracedFrameIsTheEnvelopeAloneAndATracedOneTheSameBehindItsPrefix() {
    byte[] untraced = encodeOnNewConnection(envelope("hello", null), -1);
    byte[] traced = encodeOnNewConnection(envelope("hello", TRACEPARENT), -1);

    assertEquals(Wire.REF_NEW, untraced[0], "an untraced frame starts with its recipient, as in version 2");
    assertEquals(untraced.length + 2 + 1 + TRACEPARENT.length(), traced.length, "the prefix is all a trace adds");
    ByteBuf b = Unpooled.wrappedBuffer(traced);
    assertTrue(Wire.isControl(b), "a traced frame opens like a control frame");
    assertEquals(Wire.TRACED, Wire.decodeControl(b));
    assertEquals(TRACEPARENT, Wire.decodeTraceContext(b));
    assertEquals(Unpooled.wrappedBuffer(untraced), b, "then the envelope, byte for byte the untraced frame");
  }

  @Test
  void aSystemMessageNeverCarriesAContext() {
    assertEquals(
        Unpooled.wrappedBuffer(encodeOnNewConnection(envelope("watch", null), 5)),
        Unpooled.wrappedBuffer(encodeOnNewConnection(envelope("watch", TRACEPARENT), 5)));
  }

  @Test
  void aContextAboveTheBoundIsNotSentAndItsMessageGoesUntraced() {
    String tooLong = TRACEPARENT + "\n" + "k=" + "v".repeat(Wire.TRACE_CONTEXT_MAX_BYTES);
    assertEquals(
        Unpooled.wrappedBuffer(encodeOnNewConnection(envelope("hello", null), -1)),
        Unpooled.wrappedBuffer(encodeOnNewConnection(envelope("hello", tooLong), -1)));
  }

  @Test
  void theDecoderHandsTheContextOnWithItsEnvelopeAndForgetsItForTheNext() {
    List<String> contexts = new ArrayList<>();
    PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
    io.netty.channel.ChannelInboundHandlerAdapter contextRecorder = new io.netty.channel.ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
        contexts.add(assertInstanceOf(InboundEnvelope.class, msg).traceContext());
        ctx.fireChannelRead(msg);
      }
    };
    Drops drops = new Drops(null, PipelineFixtures.log(), (ref, why) -> false);
    EmbeddedChannel out = new EmbeddedChannel(new EnvelopeEncoder(1024, drops));
    out.writeOutbound(envelope("one", WITH_STATE), envelope("two", null), envelope("three", TRACEPARENT));
    EmbeddedChannel in =
        new EmbeddedChannel(
            NettyTransport.frameDecoder(1024), new EnvelopeDecoder(PipelineFixtures.PathRef::new), contextRecorder, recorder);
    for (Object frame; (frame = out.readOutbound()) != null; ) {
      in.writeInbound(frame);
    }

    assertEquals(List.of(path("a") + "|-|2||one|0", path("a") + "|-|2||two|0", path("a") + "|-|2||three|0"), recorder.reads);
    assertEquals(java.util.Arrays.asList(WITH_STATE, null, TRACEPARENT), contexts);
    assertTrue(in.isOpen());
  }

  @Test
  void aContextAboveTheBoundFromAPeerBreaksTheProtocol() {
    ByteBuf b = Unpooled.buffer();
    b.writeByte(0).writeByte(Wire.TRACED);
    Wire.writeVarInt(b, Wire.TRACE_CONTEXT_MAX_BYTES + 1);
    b.writeBytes(new byte[Wire.TRACE_CONTEXT_MAX_BYTES + 1]);
    b.writeBytes(encodeOnNewConnection(envelope("hello", null), -1));
    assertEquals(Wire.TRACED, Wire.decodeControl(b));
    Wire.ProtocolException e = assertThrows(Wire.ProtocolException.class, () -> Wire.decodeTraceContext(b));
    assertTrue(e.getMessage().contains("above " + Wire.TRACE_CONTEXT_MAX_BYTES), e.getMessage());
  }

  @Test
  void aContextLongerThanItsFrameBreaksTheProtocolAndNothingAfterItIsRead() {
    PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
    EmbeddedChannel in =
        new EmbeddedChannel(NettyTransport.frameDecoder(1024), new EnvelopeDecoder(PipelineFixtures.PathRef::new), recorder);
    ByteBuf truncated = Unpooled.buffer().writeByte(0).writeByte(Wire.TRACED).writeByte(100).writeBytes(new byte[10]);
    in.writeInbound(PipelineFixtures.framed(truncated));
    in.writeInbound(PipelineFixtures.framed(Unpooled.wrappedBuffer(encodeOnNewConnection(envelope("after", null), -1))));

    assertEquals(1, recorder.errors.size(), "one protocol error: " + recorder.errors);
    assertTrue(recorder.errors.get(0).getMessage().contains("only 10 left"), recorder.errors.get(0).getMessage());
    assertFalse(recorder.reads.stream().anyMatch(r -> r instanceof String s && s.contains("after")), "nothing after it is decoded");
    assertNull(in.readInbound());
  }
}
