package dev.troupe.remote.internal.transport;

import static dev.troupe.remote.internal.transport.PipelineFixtures.PEER;
import static dev.troupe.remote.internal.transport.PipelineFixtures.PEER_UID;
import static dev.troupe.remote.internal.transport.PipelineFixtures.SELF;
import static dev.troupe.remote.internal.transport.PipelineFixtures.SELF_UID;
import static dev.troupe.remote.internal.transport.PipelineFixtures.envelope;
import static dev.troupe.remote.internal.transport.PipelineFixtures.envelopeToSlot;
import static dev.troupe.remote.internal.transport.PipelineFixtures.framed;
import static dev.troupe.remote.internal.transport.PipelineFixtures.handshake;
import static dev.troupe.remote.internal.transport.PipelineFixtures.path;
import static dev.troupe.remote.internal.transport.PipelineFixtures.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.remote.Dropped;
import dev.troupe.serialization.Serialized;
import dev.troupe.testkit.TestKit;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Each handler of the transport's pipelines alone in an {@link EmbeddedChannel} (with the
 * neighbours it needs, and a recorder behind it), good bytes and bad: a wrong length, a truncated
 * frame, an unknown ref code, garbage after a valid frame. A bad frame is a clear error that
 * closes the connection; what came before it is delivered, nothing after it is read.
 */
class PipelineHandlersTest {
  private static final int LIMIT = 1024;

  /** The whole accepted pipeline after TLS: deadline, frame decoder, handshake, decoder, dispatcher. */
  private static EmbeddedChannel accepted(PipelineFixtures.Host host) {
    return new EmbeddedChannel(
        new HandshakeDeadline(60_000, 60_000),
        NettyTransport.frameDecoder(LIMIT),
        new InboundHandshakeHandler(host, true),
        new EnvelopeDecoder(host::resolve),
        new InboundDispatcher(PipelineFixtures.log(), 60_000));
  }

  private static List<ByteBuf> written(EmbeddedChannel ch) {
    List<ByteBuf> out = new ArrayList<>();
    for (Object o; (o = ch.readOutbound()) != null; ) {
      out.add((ByteBuf) o);
    }
    return out;
  }

  @Nested
  class FrameDecoder {
    private final PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
    private final EmbeddedChannel ch = new EmbeddedChannel(NettyTransport.frameDecoder(LIMIT), recorder);

    @Test
    void passesWholeFramesOnWithoutTheirLength() {
      ByteBuf two = Unpooled.buffer();
      two.writeBytes(framed(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));
      two.writeBytes(framed(Unpooled.wrappedBuffer(new byte[] {4})));
      ch.writeInbound(two);
      assertEquals(2, recorder.reads.size());
      assertEquals(3, ((ByteBuf) recorder.reads.get(0)).readableBytes());
      assertEquals(1, ((ByteBuf) recorder.reads.get(1)).readableBytes());
    }

    @Test
    void aTruncatedFrameWaitsForTheRestAndIsNotPassedOnHalf() {
      ByteBuf f = framed(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5}));
      ch.writeInbound(f.readRetainedSlice(6));
      assertTrue(recorder.reads.isEmpty(), "half a frame is not a frame");
      assertTrue(recorder.errors.isEmpty());
      ch.writeInbound(f);
      assertEquals(1, recorder.reads.size(), "the frame, once whole");
    }

    @Test
    void aLengthAboveTheLimitIsAnErrorBeforeAnythingIsAllocatedForIt() {
      ByteBuf b = Unpooled.buffer();
      b.writeInt(LIMIT + 1);
      ch.writeInbound(b);
      assertTrue(recorder.reads.isEmpty());
      assertInstanceOf(TooLongFrameException.class, recorder.errors.get(0), "the error: " + recorder.errors);
    }

    @Test
    void aNegativeLengthReadsAsOneFarAboveTheLimit() {
      ByteBuf b = Unpooled.buffer();
      b.writeInt(-1);
      ch.writeInbound(b);
      assertTrue(recorder.reads.isEmpty());
      assertInstanceOf(TooLongFrameException.class, recorder.errors.get(0), "the error: " + recorder.errors);
    }
  }

  @Nested
  class InboundHandshake {
    private final PipelineFixtures.Host host = new PipelineFixtures.Host();
    private final PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
    private final EmbeddedChannel ch = new EmbeddedChannel(new InboundHandshakeHandler(host, true), recorder);

    @Test
    void acknowledgesAnAcceptedHandshakeTellsThePipelineAndRemovesItself() {
      ch.writeInbound(handshake(Lane.CONTROL, PEER, PEER_UID, SELF));
      List<ByteBuf> out = written(ch);
      assertEquals(1, out.size(), "one answer");
      assertEquals(SELF_UID, Wire.decodeAck(out.get(0)), "the acknowledgement tells this node's uid");
      HandshakeDeadline.HandshakeDone done = assertInstanceOf(HandshakeDeadline.HandshakeDone.class, recorder.events.get(0));
      assertEquals(PEER, done.handshake().origin());
      assertEquals(host.peer, done.peer());
      assertNull(ch.pipeline().get(InboundHandshakeHandler.class), "removed once done");
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {9}));
      assertEquals(1, recorder.reads.size(), "later frames go past, untouched");
    }

    @Test
    void refusesAHandshakeForAnotherAddressForGood() {
      ch.writeInbound(handshake(Lane.ORDINARY, PEER, PEER_UID, Address.parse("troupe://victim@127.0.0.1:9999")));
      Wire.Refusal r = Wire.decodeRefusal(written(ch).get(0));
      assertTrue(r.isFinal(), "the same handshake would be refused again");
      assertTrue(r.reason().contains("but this node is " + SELF), r.reason());
      assertInstanceOf(Wire.ProtocolException.class, recorder.errors.get(0));
      assertTrue(recorder.events.isEmpty(), "no handshake done");
    }

    @Test
    void passesTheHostsRefusalOnToThePeerNotForGood() {
      host.refuse = "its incarnation is quarantined here";
      ch.writeInbound(handshake(Lane.CONTROL, PEER, PEER_UID, SELF));
      Wire.Refusal r = Wire.decodeRefusal(written(ch).get(0));
      assertFalse(r.isFinal());
      assertEquals("its incarnation is quarantined here", r.reason());
    }

    @Test
    void answersNothingToBytesThatAreNotAHandshakeAndReadsNothingAfterThem() {
      ch.writeInbound(Unpooled.wrappedBuffer("GET / HTTP/1.1\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
      assertTrue(written(ch).isEmpty(), "nothing told to something that is not a peer");
      Wire.ProtocolException e = assertInstanceOf(Wire.ProtocolException.class, recorder.errors.get(0));
      assertTrue(e.getMessage().startsWith("not a Troupe handshake"), e.getMessage());
      ch.writeInbound(handshake(Lane.CONTROL, PEER, PEER_UID, SELF));
      assertTrue(recorder.reads.isEmpty() && written(ch).isEmpty(), "what follows a bad handshake is not read");
    }

    @Test
    void aTruncatedHandshakeIsAClearError() {
      ByteBuf h = handshake(Lane.CONTROL, PEER, PEER_UID, SELF);
      ch.writeInbound(h.readRetainedSlice(h.readableBytes() - 3));
      Wire.ProtocolException e = assertInstanceOf(Wire.ProtocolException.class, recorder.errors.get(0));
      assertTrue(e.getMessage().contains("bytes, only") || e.getMessage().contains("truncated"), e.getMessage());
    }
  }

  @Nested
  class Decoder {
    private final PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
    private final EmbeddedChannel ch =
        new EmbeddedChannel(new EnvelopeDecoder(p -> new PipelineFixtures.PathRef(p)), recorder);

    @Test
    void decodesEnvelopesThroughTheConnectionsTable() {
      ch.writeInbound(envelope(path("a"), "one"));
      ch.writeInbound(envelopeToSlot(0, "two")); // the path, now as its slot
      assertEquals(List.of(path("a") + "|-|2||one|0", path("a") + "|-|2||two|0"), recorder.reads);
    }

    @Test
    void decodesASystemMessageWithItsNumberAndControlFrames() {
      ch.writeInbound(system(3, path("a"), "watch"));
      ch.writeInbound(Wire.encodeControl(UnpooledByteBufAllocator.DEFAULT, Wire.HEARTBEAT));
      ch.writeInbound(Wire.encodeControl(UnpooledByteBufAllocator.DEFAULT, Wire.LEAVING));
      assertEquals(List.of(path("a") + "|-|2||watch|3", EnvelopeDecoder.Control.HEARTBEAT, EnvelopeDecoder.Control.LEAVING), recorder.reads);
    }

    @Test
    void anUnknownRefCodeIsAClearErrorAndNothingAfterItIsDecoded() {
      ch.writeInbound(envelope(path("a"), "before"));
      ch.writeInbound(envelopeToSlot(7, "bad")); // slot 7 was never filled
      ch.writeInbound(envelopeToSlot(0, "after"));
      assertEquals(List.of(path("a") + "|-|2||before|0"), recorder.reads, "the frame before the bad one, only");
      Wire.ProtocolException e = assertInstanceOf(Wire.ProtocolException.class, recorder.errors.get(0));
      assertEquals("reference to string 7 of 1", e.getMessage());
      assertEquals(1, recorder.errors.size(), "one error");
    }

    @Test
    void garbageAfterAValidFrameIsAnErrorThatLosesNothingBefore() {
      ch.writeInbound(envelope(path("a"), "kept"));
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}));
      assertEquals(List.of(path("a") + "|-|2||kept|0"), recorder.reads);
      Wire.ProtocolException e = assertInstanceOf(Wire.ProtocolException.class, recorder.errors.get(0));
      assertEquals("varint longer than five bytes", e.getMessage());
    }

    @Test
    void aStringLongerThanItsFrameIsAnError() {
      ByteBuf b = Unpooled.buffer();
      Wire.writeVarInt(b, Wire.REF_NEW);
      Wire.writeVarInt(b, 500); // a 500-byte string in a frame of a few bytes
      b.writeBytes(new byte[] {'x', 'y'});
      ch.writeInbound(b);
      Wire.ProtocolException e = assertInstanceOf(Wire.ProtocolException.class, recorder.errors.get(0));
      assertTrue(e.getMessage().startsWith("string of 500 bytes"), e.getMessage());
    }

    @Test
    void anUnknownControlKindIsAnError() {
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 99}));
      Wire.ProtocolException e = assertInstanceOf(Wire.ProtocolException.class, recorder.errors.get(0));
      assertEquals("unknown control frame kind 99", e.getMessage());
    }

    @Test
    void aMalformedPathIsNotAProtocolErrorButAMalformedEnvelope() {
      List<String> malformed = new ArrayList<>();
      EmbeddedChannel c =
          new EmbeddedChannel(
              new EnvelopeDecoder(p -> new PipelineFixtures.PathRef(p)),
              new io.netty.channel.ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
                  malformed.add(((InboundEnvelope) msg).malformed());
                }
              });
      c.writeInbound(envelope("not a path", "x"));
      assertEquals(1, malformed.size());
      assertNotNull(malformed.get(0), "the reason the path is not one");
      assertTrue(c.isOpen(), "the connection stays: the message is dropped, not the peer");
    }
  }

  @Nested
  class Dispatcher {
    private final PipelineFixtures.Peer peer = new PipelineFixtures.Peer();
    private final EmbeddedChannel ch =
        new EmbeddedChannel(new EnvelopeDecoder(p -> new PipelineFixtures.PathRef(p)), new InboundDispatcher(PipelineFixtures.log(), 1000));

    private void accepted(Lane lane) {
      ch.pipeline().fireUserEventTriggered(
          new HandshakeDeadline.HandshakeDone(peer, new Wire.Handshake(lane, PEER, PEER_UID, SELF)));
    }

    @Test
    void deliversUserMessagesOnTheOrdinaryLane() {
      accepted(Lane.ORDINARY);
      ch.writeInbound(envelope(path("a"), "one"));
      ch.writeInbound(envelopeToSlot(0, "two"));
      assertEquals(List.of("one", "two"), peer.delivered);
      assertTrue(written(ch).isEmpty(), "nothing to answer on the ordinary lane");
    }

    @Test
    void sequencesSystemMessagesAndAcknowledgesEachBatchOnce() {
      accepted(Lane.CONTROL);
      ch.pipeline().fireChannelRead(system(1, path("a"), "w1"));
      ch.pipeline().fireChannelRead(system(2, path("a"), "w2"));
      ch.pipeline().fireChannelRead(system(2, path("a"), "w2 again"));
      ch.pipeline().fireChannelReadComplete();
      assertEquals(List.of("#1 w1", "#2 w2"), peer.delivered, "each once, in order");
      List<ByteBuf> out = written(ch);
      assertEquals(1, out.size(), "one acknowledgement for the batch");
      assertEquals(2, Wire.decodeSystemAck(out.get(0)));
    }

    @Test
    void answersHeartbeatsOncePerBatch() {
      accepted(Lane.CONTROL);
      ch.pipeline().fireChannelRead(Wire.encodeControl(UnpooledByteBufAllocator.DEFAULT, Wire.HEARTBEAT));
      ch.pipeline().fireChannelRead(Wire.encodeControl(UnpooledByteBufAllocator.DEFAULT, Wire.HEARTBEAT));
      ch.pipeline().fireChannelReadComplete();
      List<ByteBuf> out = written(ch);
      assertEquals(1, out.size());
      assertTrue(Wire.isHeartbeatResponse(out.get(0)));
    }

    @Test
    void aSystemMessageOnTheOrdinaryLaneClosesTheConnectionAndIsNotDelivered() {
      accepted(Lane.ORDINARY);
      ch.writeInbound(system(1, path("a"), "w1"));
      assertTrue(peer.delivered.isEmpty());
      assertFalse(ch.isOpen(), "closed");
      assertEquals(1, peer.closed, "the peer hears of the close");
    }

    @Test
    void systemMessagesCountOnlyFromTheOwnerOfTheControlStream() {
      peer.owner = false;
      accepted(Lane.CONTROL);
      ch.writeInbound(system(1, path("a"), "w1"));
      assertTrue(peer.delivered.isEmpty());
      assertFalse(ch.isOpen());
    }

    @Test
    void aLeavingNoticeCountsOnlyOnTheControlLaneFromItsOwner() {
      accepted(Lane.ORDINARY);
      ch.writeInbound(Wire.encodeControl(UnpooledByteBufAllocator.DEFAULT, Wire.LEAVING));
      assertEquals(0, peer.leaving, "ignored on the ordinary lane");
      assertTrue(ch.isOpen(), "ignored, not a reason to close");
      PipelineFixtures.Peer control = new PipelineFixtures.Peer();
      EmbeddedChannel c = new EmbeddedChannel(new EnvelopeDecoder(p -> new PipelineFixtures.PathRef(p)), new InboundDispatcher(PipelineFixtures.log(), 1000));
      c.pipeline().fireUserEventTriggered(new HandshakeDeadline.HandshakeDone(control, new Wire.Handshake(Lane.CONTROL, PEER, PEER_UID, SELF)));
      c.writeInbound(Wire.encodeControl(UnpooledByteBufAllocator.DEFAULT, Wire.LEAVING));
      assertEquals(1, control.leaving);
    }

    @Test
    void aBadFrameAfterGoodOnesClosesTheConnectionAndLosesNothingBefore() {
      accepted(Lane.ORDINARY);
      ch.pipeline().fireChannelRead(envelope(path("a"), "one")); // as one read of three frames
      ch.pipeline().fireChannelRead(envelopeToSlot(5, "bad"));
      ch.pipeline().fireChannelRead(envelopeToSlot(0, "after"));
      assertEquals(List.of("one"), peer.delivered);
      assertFalse(ch.isOpen(), "closed at the bad frame");
      assertEquals(1, peer.closed);
    }
  }

  @Nested
  class WholeAcceptedPipeline {
    @Test
    void handshakeThenEnvelopesThenGarbage() {
      PipelineFixtures.Host host = new PipelineFixtures.Host();
      EmbeddedChannel ch = accepted(host);
      ch.writeInbound(framed(handshake(Lane.ORDINARY, PEER, PEER_UID, SELF)));
      assertEquals(SELF_UID, Wire.decodeAck(written(ch).get(0)), "acknowledged");
      assertNull(ch.pipeline().get(HandshakeDeadline.class), "the deadline is gone once the handshake is done");
      assertNotNull(ch.pipeline().get(ReadTimeoutHandler.class), "the idle timeout took its place");
      assertNull(ch.pipeline().get(InboundHandshakeHandler.class), "the handshake handler removed itself");
      ByteBuf in = Unpooled.buffer();
      in.writeBytes(framed(envelope(path("a"), "one")));
      in.writeBytes(framed(envelopeToSlot(0, "two")));
      in.writeBytes(framed(Unpooled.wrappedBuffer(new byte[] {(byte) 0x80}))); // a truncated varint
      in.writeBytes(framed(envelopeToSlot(0, "three")));
      ch.writeInbound(in);
      assertEquals(List.of("one", "two"), host.peer.delivered, "what came before the bad frame, and nothing after it");
      assertFalse(ch.isOpen(), "closed at the bad frame");
      assertEquals(1, host.peer.closed, "the peer hears of the close");
    }

    @Test
    void aFrameOfAWrongLengthClosesTheConnection() {
      PipelineFixtures.Host host = new PipelineFixtures.Host();
      EmbeddedChannel ch = accepted(host);
      ByteBuf in = Unpooled.buffer();
      in.writeBytes(framed(handshake(Lane.ORDINARY, PEER, PEER_UID, SELF)));
      in.writeBytes(framed(envelope(path("a"), "one")));
      in.writeInt(LIMIT * 4); // a length above maximum-frame-size
      in.writeBytes(new byte[16]);
      ch.writeInbound(in);
      assertEquals(List.of("one"), host.peer.delivered);
      assertFalse(ch.isOpen(), "closed at the length");
      assertEquals(1, host.peer.closed);
    }
  }

  @Nested
  class OutboundHandshake {
    private final List<String> heard = new ArrayList<>();
    private final OutboundListener listener =
        new OutboundListener() {
          @Override
          public void handshakeDone(Channel channel, long peerUid) {
            heard.add("done " + peerUid);
          }

          @Override
          public void refused(Channel channel) {
            heard.add("refused for good");
          }

          @Override
          public void closed(Channel channel, String reason) {
            heard.add("closed: " + reason);
          }

          @Override
          public void writable(Channel channel) {}

          @Override
          public void systemAck(Channel channel, long upTo) {
            heard.add("ack " + upTo);
          }

          @Override
          public void heartbeatResponse(Channel channel) {
            heard.add("heartbeat response");
          }
        };

    private EmbeddedChannel outbound(Lane lane) {
      return new EmbeddedChannel(
          new HandshakeDeadline(60_000, 0),
          new OutboundHandshakeHandler(new Wire.Handshake(lane, SELF, SELF_UID, PEER), listener),
          new OutboundConnectionHandler(listener, lane, org.slf4j.LoggerFactory.getLogger("dev.troupe.remote.PipelineTest")));
    }

    @Test
    void writesTheHandshakeThenTakesTheAcknowledgementAndRemovesItself() {
      EmbeddedChannel ch = outbound(Lane.CONTROL);
      Wire.Handshake h = Wire.decodeHandshake(written(ch).get(0));
      assertEquals(new Wire.Handshake(Lane.CONTROL, SELF, SELF_UID, PEER), h);
      ch.writeInbound(Wire.encodeAck(UnpooledByteBufAllocator.DEFAULT, PEER_UID));
      assertEquals(List.of("done " + PEER_UID), heard);
      assertNull(ch.pipeline().get(OutboundHandshakeHandler.class), "removed once done");
      assertNull(ch.pipeline().get(HandshakeDeadline.class), "no deadline once established, and no idle timeout outbound");
      ch.writeInbound(Wire.encodeSystemAck(UnpooledByteBufAllocator.DEFAULT, 4));
      ch.writeInbound(Wire.encodeControl(UnpooledByteBufAllocator.DEFAULT, Wire.HEARTBEAT_RESPONSE));
      assertEquals(List.of("done " + PEER_UID, "ack 4", "heartbeat response"), heard);
    }

    @Test
    void aRefusalForGoodEndsTheConnectionWithThePeersReason() {
      EmbeddedChannel ch = outbound(Lane.ORDINARY);
      ch.writeInbound(Wire.encodeRefusal(UnpooledByteBufAllocator.DEFAULT, true, "handshake for another node"));
      assertFalse(ch.isOpen());
      assertEquals(
          List.of("refused for good", "closed: " + PEER + " (embedded) refused the handshake: handshake for another node"),
          heard);
    }

    @Test
    void garbageInsteadOfAnAcknowledgementIsAProtocolError() {
      EmbeddedChannel ch = outbound(Lane.ORDINARY);
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5, 6, 7}));
      assertFalse(ch.isOpen());
      assertEquals(1, heard.size());
      assertTrue(heard.get(0).startsWith("closed: protocol error from embedded: not a Troupe handshake acknowledgement"), heard.get(0));
    }

    @Test
    void aFrameOnTheOrdinaryLaneAfterTheHandshakeIsAProtocolError() {
      EmbeddedChannel ch = outbound(Lane.ORDINARY);
      ch.writeInbound(Wire.encodeAck(UnpooledByteBufAllocator.DEFAULT, PEER_UID));
      ch.writeInbound(Wire.encodeSystemAck(UnpooledByteBufAllocator.DEFAULT, 1));
      assertFalse(ch.isOpen());
      assertEquals("closed: protocol error from embedded: a frame after the handshake acknowledgement on the ordinary lane", heard.get(1));
    }
  }

  @Nested
  class Encoder {
    @Test
    void writesEnvelopesThatTheDecoderReadsBackAndSendsAKnownPathAsItsSlot() {
      ActorSystem system = ActorSystem.create("encoder", ConfigFactory.empty());
      try {
        TestKit dropped = new TestKit(system);
        system.eventStream().subscribe(dropped.getRef(), Dropped.class);
        Drops drops = new Drops(system.eventStream(), PipelineFixtures.log(), (ref, why) -> false);
        EmbeddedChannel out = new EmbeddedChannel(new EnvelopeEncoder(64, drops));
        PipelineFixtures.PathRef to = new PipelineFixtures.PathRef(dev.troupe.actor.ActorPath.fromString(path("a")));
        out.writeOutbound(new OutboundEnvelope(to, path("a"), null, "one", new Serialized(2, "", "one".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        out.writeOutbound(new SequencedEnvelope(9, new OutboundEnvelope(to, path("a"), null, "two", new Serialized(2, "", "two".getBytes(java.nio.charset.StandardCharsets.UTF_8)))));
        out.writeOutbound(new OutboundEnvelope(to, path("a"), null, "big", new Serialized(2, "", new byte[100])));
        ByteBuf first = out.readOutbound();
        ByteBuf second = out.readOutbound();
        assertNull(out.readOutbound(), "the frame above the limit is not written");
        assertTrue(second.readableBytes() < first.readableBytes(), "the path crosses once, then as its slot");
        PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
        EmbeddedChannel in =
            new EmbeddedChannel(NettyTransport.frameDecoder(64), new EnvelopeDecoder(p -> new PipelineFixtures.PathRef(p)), recorder);
        in.writeInbound(first, second);
        assertEquals(List.of(path("a") + "|-|2||one|0", path("a") + "|-|2||two|9"), recorder.reads);
        Dropped d = dropped.expectMsgClass(Dropped.class);
        assertEquals("big", d.message());
        assertTrue(d.reason().contains("above troupe.remote.maximum-frame-size (64 bytes)"), d.reason());
      } finally {
        TestKit.shutdownActorSystem(system);
      }
    }
  }

  @Nested
  class Framing {
    /**
     * Envelopes written with the void promise (as the outbound lanes write them) wait in the
     * encoder until the flush and leave in shared buffers, in the order written among the frames
     * that leave at once (control frames, an envelope with a promise of its own); one too large is
     * dropped without a trace in the buffer; what was never flushed is released with the close.
     */
    @Test
    void theEnvelopesOfOneFlushShareBuffersInTheOrderTheyWereWritten() {
      List<Object> published = new ArrayList<>();
      dev.troupe.actor.EventStream events = new dev.troupe.actor.EventStream() {
        @Override
        public boolean subscribe(dev.troupe.actor.ActorRef subscriber, Class<?> channel) {
          return false;
        }

        @Override
        public boolean unsubscribe(dev.troupe.actor.ActorRef subscriber, Class<?> channel) {
          return false;
        }

        @Override
        public void unsubscribe(dev.troupe.actor.ActorRef subscriber) {}

        @Override
        public void publish(Object event) {
          published.add(event);
        }
      };
      Drops drops = new Drops(events, PipelineFixtures.log(), (ref, why) -> false);
      int[] passedOn = {0};
      io.netty.channel.ChannelOutboundHandlerAdapter below = new io.netty.channel.ChannelOutboundHandlerAdapter() {
        @Override
        public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise promise) {
          passedOn[0]++;
          ctx.write(msg, promise);
        }
      };
      EmbeddedChannel out = new EmbeddedChannel(below, new EnvelopeEncoder(1024, drops));
      PipelineFixtures.PathRef to = new PipelineFixtures.PathRef(dev.troupe.actor.ActorPath.fromString(path("a")));
      int n = 200;
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String m = "m" + i;
        if (i == 50) {
          out.write(new OutboundEnvelope(to, path("a"), null, "big", new Serialized(2, "", new byte[2000])), out.voidPromise());
        }
        if (i == 100) {
          out.write(ControlFrame.HEARTBEAT, out.voidPromise());
          expected.add("heartbeat");
        }
        if (i == 150) {
          out.writeOneOutbound(new OutboundEnvelope(to, path("a"), null, "own", new Serialized(2, "", "own".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
          expected.add(path("a") + "|-|2||own|0");
        }
        out.write(new OutboundEnvelope(to, path("a"), null, m, new Serialized(2, "", m.getBytes(java.nio.charset.StandardCharsets.UTF_8))), out.voidPromise());
        expected.add(path("a") + "|-|2||" + m + "|0");
      }
      int beforeFlush = passedOn[0];
      out.flush();
      List<ByteBuf> buffers = written(out);
      assertTrue(beforeFlush < buffers.size(), "the last buffer waits for the flush");
      assertTrue(buffers.size() <= 8, "a few shared buffers for " + n + " envelopes, not one each: " + buffers.size());
      PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
      EmbeddedChannel in =
          new EmbeddedChannel(NettyTransport.frameDecoder(1024), new EnvelopeDecoder(p -> new PipelineFixtures.PathRef(p)), recorder);
      for (ByteBuf b : buffers) {
        in.writeInbound(b);
      }
      List<Object> reads = new ArrayList<>();
      for (Object r : recorder.reads) {
        reads.add(r == EnvelopeDecoder.Control.HEARTBEAT ? "heartbeat" : r);
      }
      assertEquals(expected, reads, "every frame, whole, in the order written");
      assertEquals(1, published.size(), "the envelope too large is dropped: " + published);
      assertEquals("big", assertInstanceOf(Dropped.class, published.get(0)).message());

      out.write(new OutboundEnvelope(to, path("a"), null, "never flushed", new Serialized(2, "", new byte[] {1})), out.voidPromise());
      assertEquals(buffers.size(), passedOn[0], "held until a flush");
      out.close();
      assertFalse(out.finishAndReleaseAll(), "nothing left over after the close");
    }

    /** Every frame leaves as one buffer, its length in front: no separate 4-byte buffer per message. */
    @Test
    void anOutboundConnectionWritesEachFrameWholeInOneBufferWithItsLengthFirst() {
      Drops drops = new Drops(null, PipelineFixtures.log(), (ref, why) -> false);
      EmbeddedChannel out = new EmbeddedChannel(new EnvelopeEncoder(1024, drops));
      PipelineFixtures.PathRef to = new PipelineFixtures.PathRef(dev.troupe.actor.ActorPath.fromString(path("a")));
      out.writeOutbound(Wire.encodeHandshake(UnpooledByteBufAllocator.DEFAULT, new Wire.Handshake(Lane.CONTROL, PEER, 7, SELF)));
      out.writeOutbound(ControlFrame.HEARTBEAT);
      out.writeOutbound(new OutboundEnvelope(to, path("a"), null, "one", new Serialized(2, "", new byte[] {1, 2, 3})));
      out.writeOutbound(new SequencedEnvelope(3, new OutboundEnvelope(to, path("a"), null, "two", new Serialized(2, "", new byte[] {4}))));
      List<Object> frames = new ArrayList<>();
      Object o;
      while ((o = out.readOutbound()) != null) {
        frames.add(o);
      }
      assertEquals(4, frames.size(), "one buffer per frame: " + frames);
      EmbeddedChannel in = new EmbeddedChannel(NettyTransport.frameDecoder(1024));
      for (Object f : frames) {
        ByteBuf b = assertInstanceOf(ByteBuf.class, f);
        assertEquals(b.readableBytes() - 4, b.getInt(b.readerIndex()), "the frame's length, then its body");
        in.writeInbound(b);
      }
      ByteBuf handshake = in.readInbound();
      assertEquals(new Wire.Handshake(Lane.CONTROL, PEER, 7, SELF), Wire.decodeHandshake(handshake));
      handshake.release();
      ByteBuf heartbeat = in.readInbound();
      assertEquals(Wire.HEARTBEAT, Wire.decodeControl(heartbeat));
      heartbeat.release();
      for (int i = 0; i < 2; i++) {
        ByteBuf envelope = in.readInbound();
        assertNotNull(envelope, "envelope " + i + " is a whole frame");
        envelope.release();
      }
    }
  }

  @Nested
  class Deadline {
    @Test
    void givesWayToTheIdleTimeoutOnAnAcceptedConnection() {
      EmbeddedChannel ch = new EmbeddedChannel(new HandshakeDeadline(60_000, 5_000));
      ch.pipeline().fireUserEventTriggered(new HandshakeDeadline.HandshakeDone(null, null));
      assertNull(ch.pipeline().get(HandshakeDeadline.class));
      assertNotNull(ch.pipeline().get(ReadTimeoutHandler.class));
    }

    @Test
    void firesExpiredWhenTheHandshakeIsNotDoneInTime() {
      PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
      EmbeddedChannel ch = new EmbeddedChannel();
      ch.freezeTime();
      ch.pipeline().addLast(new HandshakeDeadline(1000, 0), recorder);
      ch.advanceTimeBy(999, java.util.concurrent.TimeUnit.MILLISECONDS);
      ch.runScheduledPendingTasks();
      assertTrue(recorder.errors.isEmpty(), "not before the deadline");
      ch.advanceTimeBy(1, java.util.concurrent.TimeUnit.MILLISECONDS);
      ch.runScheduledPendingTasks();
      HandshakeDeadline.Expired e = assertInstanceOf(HandshakeDeadline.Expired.class, recorder.errors.get(0));
      assertTrue(e.getMessage().startsWith("no handshake within 1000 ms"), e.getMessage());
    }

    @Test
    void bytesTricklingInDoNotPushTheDeadlineBack() {
      PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
      EmbeddedChannel ch = new EmbeddedChannel();
      ch.freezeTime();
      ch.pipeline().addLast(new HandshakeDeadline(1000, 0), recorder);
      for (int i = 0; i < 10; i++) {
        ch.advanceTimeBy(100, java.util.concurrent.TimeUnit.MILLISECONDS);
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));
        ch.runScheduledPendingTasks();
      }
      assertInstanceOf(HandshakeDeadline.Expired.class, recorder.errors.get(0), "an absolute deadline");
    }
  }
}
