package dev.troupe.remote.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.Address;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-peer counts of {@link Traffic}: what the handlers of a connection count, kept after the
 * connection closes, and no cell left behind by a connection that ends, however it ends.
 */
class TrafficTest {
  private static final Address PEER = Address.parse("troupe://peer@127.0.0.1:2553");

  @Test
  void aConnectionsBytesAndMessagesStayInItsPeersTotalsAfterItCloses() {
    Traffic traffic = new Traffic();
    Traffic.Cell cell = new Traffic.Cell();
    EmbeddedChannel ch = new EmbeddedChannel(new Traffic.Bytes(traffic, cell, PEER), new Traffic.Messages(cell));
    Traffic.Peer peer = traffic.peers().get(0);
    assertEquals(PEER, peer.address());

    ch.writeOutbound(Unpooled.wrappedBuffer(new byte[100])); // a frame: counted by Bytes
    ch.writeOutbound(Unpooled.wrappedBuffer(new byte[28]));
    ch.writeInbound(Unpooled.wrappedBuffer(new byte[7]));
    ch.writeOutbound(new OutboundEnvelope(null, "/user/a", null, "m", null)); // an envelope on its way to the encoder
    assertEquals(new Traffic.Totals(1, 128, 0, 7), peer.totals(), "while open");
    assertEquals(1, peer.liveCells(), "the open connection's cell");

    ch.close();
    assertEquals(new Traffic.Totals(1, 128, 0, 7), peer.totals(), "after the close: folded, not lost");
    assertEquals(0, peer.liveCells(), "no cell left");
    ch.write(Unpooled.wrappedBuffer(new byte[5])); // after the close (the write fails): not counted
    assertEquals(new Traffic.Totals(1, 128, 0, 7), peer.totals(), "nothing counted after the close");
    releaseAll(ch.outboundMessages());
    releaseAll(ch.inboundMessages());
  }

  @Test
  void aConnectionThatIsOnlyDeregisteredLeavesNoCellBehind() {
    Traffic traffic = new Traffic();
    Traffic.Cell cell = new Traffic.Cell();
    EmbeddedChannel ch = new EmbeddedChannel(new Traffic.Bytes(traffic, cell, PEER));
    ch.writeOutbound(Unpooled.wrappedBuffer(new byte[3]));
    ch.pipeline().fireChannelUnregistered(); // what a connect that failed gets, with no channelInactive
    Traffic.Peer peer = traffic.peers().get(0);
    assertEquals(0, peer.liveCells(), "the cell of a connection that never became active is folded too");
    assertEquals(3, peer.totals().bytesSent(), "and its bytes kept");
    ch.finishAndReleaseAll();
  }

  @Test
  void anAcceptedConnectionCountsForThePeerItsHandshakeNames() {
    Traffic traffic = new Traffic();
    Traffic.Cell cell = new Traffic.Cell();
    EmbeddedChannel ch = new EmbeddedChannel(new Traffic.Bytes(traffic, cell, null), new Traffic.Messages(cell));
    ch.writeInbound(Unpooled.wrappedBuffer(new byte[40])); // the handshake's bytes, before the peer is known
    assertEquals(List.of(), traffic.peers(), "no peer before the handshake");
    ch.pipeline().fireUserEventTriggered(new HandshakeDeadline.HandshakeDone(null,
        new Wire.Handshake(Lane.ORDINARY, PEER, 7, Address.parse("troupe://me@127.0.0.1:2552"))));
    assertEquals(new Traffic.Totals(0, 0, 0, 40), traffic.peers().get(0).totals(), "counted for the peer from its start");
    ch.finishAndReleaseAll();
  }

  private static void releaseAll(java.util.Queue<Object> q) {
    Object o;
    while ((o = q.poll()) != null) {
      if (o instanceof ByteBuf b) {
        b.release();
      }
    }
  }
}
