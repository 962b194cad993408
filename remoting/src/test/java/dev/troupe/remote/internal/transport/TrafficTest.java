package dev.troupe.remote.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.serialization.Serialized;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-peer counts of {@link Traffic}: what a connection's handlers count (the bytes read by
 * {@link Traffic.Bytes}, the envelopes and bytes written by the {@link EnvelopeEncoder}, the
 * envelopes read by the {@link EnvelopeDecoder}, an accepted connection's frames out by its {@link
 * Traffic.Prepender}), kept after the connection closes, and no cell left behind by a connection
 * that ends, however it ends.
 */
class TrafficTest {
  private static final Address PEER = Address.parse("troupe://peer@127.0.0.1:2553");
  private static final String TO = "troupe://me@127.0.0.1:2552/user/a#5";
  private static final Drops DROPS = new Drops(null, PipelineFixtures.log(), (ref, why) -> false);

  private static OutboundEnvelope envelope(String message) {
    return new OutboundEnvelope(
        new PipelineFixtures.PathRef(ActorPath.fromString(TO)), TO, null, message,
        new Serialized(2, "", message.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void anOutboundConnectionsBytesAndMessagesStayInItsPeersTotalsAfterItCloses() {
    Traffic traffic = new Traffic();
    Traffic.Cell cell = new Traffic.Cell();
    EmbeddedChannel ch =
        new EmbeddedChannel(new Traffic.Bytes(traffic, cell, PEER), new EnvelopeEncoder(1024, "maximum-frame-size", DROPS, cell));
    Traffic.Peer peer = traffic.peers().get(0);
    assertEquals(PEER, peer.address());

    ch.writeOutbound(Unpooled.wrappedBuffer(new byte[100])); // the handshake: its bytes, with the length
    ch.writeOutbound(envelope("one"), envelope("two")); // two envelopes, their frames
    ch.writeOutbound(new SequencedEnvelope(1, envelope("three"))); // a system message
    ch.writeOutbound(ControlFrame.HEARTBEAT); // a control frame: bytes, no message
    ch.writeInbound(Unpooled.wrappedBuffer(new byte[7])); // bytes read (an acknowledgement)
    assertEquals(5, ch.outboundMessages().size(), "the handshake, three envelopes' frames and the heartbeat's");
    long written = releaseAll(ch.outboundMessages()); // every byte that went out, the handshake's 104 among them
    assertEquals(new Traffic.Totals(3, written, 0, 7), peer.totals(), "while open");
    assertEquals(1, peer.liveCells(), "the open connection's cell");

    ch.close();
    assertEquals(new Traffic.Totals(3, written, 0, 7), peer.totals(), "after the close: folded, not lost");
    assertEquals(0, peer.liveCells(), "no cell left");
    ch.write(Unpooled.wrappedBuffer(new byte[5])); // after the close (the write fails): not counted
    ch.write(envelope("late"));
    assertEquals(new Traffic.Totals(3, written, 0, 7), peer.totals(), "nothing counted after the close");
    releaseAll(ch.outboundMessages());
    releaseAll(ch.inboundMessages());
  }

  @Test
  void aConnectionThatIsOnlyDeregisteredLeavesNoCellBehind() {
    Traffic traffic = new Traffic();
    Traffic.Cell cell = new Traffic.Cell();
    EmbeddedChannel ch =
        new EmbeddedChannel(new Traffic.Bytes(traffic, cell, PEER), new EnvelopeEncoder(1024, "maximum-frame-size", DROPS, cell));
    ch.writeOutbound(Unpooled.wrappedBuffer(new byte[3]));
    ch.pipeline().fireChannelUnregistered(); // what a connect that failed gets, with no channelInactive
    Traffic.Peer peer = traffic.peers().get(0);
    assertEquals(0, peer.liveCells(), "the cell of a connection that never became active is folded too");
    assertEquals(7, peer.totals().bytesSent(), "and its bytes kept (the length too)");
    ch.finishAndReleaseAll();
  }

  @Test
  void anAcceptedConnectionCountsForThePeerItsHandshakeNames() {
    EmbeddedChannel out = new EmbeddedChannel(new EnvelopeEncoder(1024, DROPS));
    out.writeOutbound(envelope("one"), envelope("two"), ControlFrame.HEARTBEAT);
    List<ByteBuf> frames = new ArrayList<>();
    int read = 0;
    for (ByteBuf f; (f = out.readOutbound()) != null; ) {
      frames.add(f);
      read += f.readableBytes();
    }

    Traffic traffic = new Traffic();
    Traffic.Cell cell = new Traffic.Cell();
    PipelineFixtures.Recorder recorder = new PipelineFixtures.Recorder();
    EmbeddedChannel ch =
        new EmbeddedChannel(
            new Traffic.Bytes(traffic, cell, null),
            NettyTransport.frameDecoder(1024),
            new Traffic.Prepender(cell),
            new EnvelopeDecoder(PipelineFixtures.PathRef::new, cell),
            recorder);
    for (ByteBuf f : frames) {
      ch.writeInbound(f); // before the handshake is accepted: counted once it is
    }
    assertEquals(List.of(), traffic.peers(), "no peer before the handshake");
    assertEquals(3, recorder.reads.size(), "two envelopes and a heartbeat read: " + recorder.reads);
    ch.pipeline().fireUserEventTriggered(new HandshakeDeadline.HandshakeDone(null,
        new Wire.Handshake(Lane.ORDINARY, PEER, 7, Address.parse("troupe://me@127.0.0.1:2552"))));
    ch.writeOutbound(Unpooled.wrappedBuffer(new byte[10])); // an acknowledgement: its bytes, length included
    assertEquals(new Traffic.Totals(0, 14, 2, read), traffic.peers().get(0).totals(), "counted for the peer from its start");
    ch.finishAndReleaseAll();
  }

  /** @return the bytes of the buffers released */
  private static long releaseAll(java.util.Queue<Object> q) {
    long n = 0;
    Object o;
    while ((o = q.poll()) != null) {
      if (o instanceof ByteBuf b) {
        n += b.readableBytes();
        b.release();
      }
    }
    return n;
  }
}
