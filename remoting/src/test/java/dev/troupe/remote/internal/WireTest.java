package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Address;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wire protocol's pieces on their own: a connection's string table sends a string once and
 * its id afterwards, both halves stay in step (also when the table is full), and the handshake
 * round-trips and refuses what is not Troupe's.
 */
class WireTest {
  private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

  @Test
  void aStringCrossesInFullOnceAndAsItsIdAfterwards() {
    OutboundTable out = new OutboundTable();
    InboundTable in = new InboundTable();
    String path = "troupe://b@127.0.0.1:2552/user/echo#123456789";
    ByteBuf b = Unpooled.buffer();

    out.write(b, path, path);
    int first = b.readableBytes();
    out.write(b, path, path);
    int second = b.readableBytes() - first;

    assertTrue(first > path.length(), "the first use carries the string: " + first + " bytes");
    assertEquals(1, second, "a later use is the id alone");
    assertEquals(OutboundTable.size(-1, path), first, "size() predicts the first use");
    assertEquals(OutboundTable.size(out.idOf(path), null), second, "size() predicts a later use");
    int a = in.read(b);
    int c = in.read(b);
    assertEquals(0, a);
    assertEquals(0, c, "both uses name the same entry");
    assertEquals(path, in.string(a));
    assertEquals(0, b.readableBytes());
  }

  @Test
  void bothHalvesStayInStepOverManyStringsAndPastTheTablesLimit() {
    OutboundTable out = new OutboundTable();
    InboundTable in = new InboundTable();
    List<String> sent = new ArrayList<>();
    ByteBuf b = Unpooled.buffer();
    int n = Wire.TABLE_MAX_ENTRIES + 100;
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < n; i++) {
        String s = "troupe://b@127.0.0.1:2552/user/a" + i + (i % 7 == 0 ? "/é" : "");
        out.write(b, s, s);
        sent.add(s);
      }
    }
    assertEquals(-1, out.idOf("troupe://b@127.0.0.1:2552/user/a" + (n - 1)), "beyond the limit nothing is remembered");
    for (String s : sent) {
      assertEquals(s, in.string(in.read(b)));
    }
    assertEquals(0, b.readableBytes());
  }

  @Test
  void aReferenceToAnEntryThePeerNeverSentBreaksTheProtocol() {
    ByteBuf b = Unpooled.buffer();
    Wire.writeVarInt(b, Wire.REF_FIRST_ENTRY + 5);
    assertThrows(Wire.ProtocolException.class, () -> new InboundTable().read(b));
  }

  @Test
  void aStringLongerThanTheFrameBreaksTheProtocol() {
    ByteBuf b = Unpooled.buffer();
    b.writeByte(Wire.REF_NEW);
    Wire.writeVarInt(b, 1000);
    b.writeBytes(new byte[10]);
    assertThrows(Wire.ProtocolException.class, () -> new InboundTable().read(b));
  }

  @Test
  void varIntsAndZigZagRoundTrip() {
    ByteBuf b = Unpooled.buffer();
    int[] values = {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, -1, Integer.MIN_VALUE};
    for (int v : values) {
      Wire.writeVarInt(b, Wire.zigZag(v));
      assertEquals(Wire.varIntSize(Wire.zigZag(v)), sizeOf(Wire.zigZag(v)));
    }
    for (int v : values) {
      assertEquals(v, Wire.unZigZag(Wire.readVarInt(b)));
    }
    ByteBuf tooLong = Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1});
    assertThrows(Wire.ProtocolException.class, () -> Wire.readVarInt(tooLong));
  }

  private static int sizeOf(int v) {
    ByteBuf b = Unpooled.buffer();
    Wire.writeVarInt(b, v);
    return b.readableBytes();
  }

  @Test
  void theHandshakeRoundTrips() {
    Wire.Handshake h =
        new Wire.Handshake(
            Lane.CONTROL, Address.parse("troupe://a@127.0.0.1:1234"), -42L, Address.parse("troupe://b@10.0.0.1:2552"));
    ByteBuf b = Wire.encodeHandshake(ALLOC, h);
    try {
      assertEquals(h, Wire.decodeHandshake(b));
    } finally {
      b.release();
    }
    ByteBuf ack = Wire.encodeAck(ALLOC, 77L);
    try {
      assertEquals(77L, Wire.decodeAck(ack));
    } finally {
      ack.release();
    }
  }

  @Test
  void aHandshakeWithWrongMagicVersionLaneOrTrailingBytesIsRefused() {
    Wire.Handshake h =
        new Wire.Handshake(
            Lane.ORDINARY, Address.parse("troupe://a@127.0.0.1:1234"), 1L, Address.parse("troupe://b@127.0.0.1:2552"));
    ByteBuf good = Wire.encodeHandshake(ALLOC, h);
    try {
      for (int[] patch : new int[][] {{0, 0x00}, {4, Wire.VERSION + 1}, {5, 9}}) {
        ByteBuf bad = good.copy();
        bad.setByte(patch[0], patch[1]);
        assertThrows(Wire.ProtocolException.class, () -> Wire.decodeHandshake(bad), "patched byte " + patch[0]);
        bad.release();
      }
      ByteBuf trailing = good.copy().writeByte(0);
      assertThrows(Wire.ProtocolException.class, () -> Wire.decodeHandshake(trailing));
      trailing.release();
      ByteBuf truncated = good.copy(0, good.readableBytes() - 3);
      assertThrows(Wire.ProtocolException.class, () -> Wire.decodeHandshake(truncated));
      truncated.release();
    } finally {
      good.release();
    }
  }

  @Test
  void aHandshakeFromAnAddressWithoutHostAndPortIsRefused() {
    Wire.Handshake h =
        new Wire.Handshake(Lane.ORDINARY, Address.parse("troupe://a"), 1L, Address.parse("troupe://b@127.0.0.1:2552"));
    ByteBuf b = Wire.encodeHandshake(ALLOC, h);
    try {
      assertThrows(Wire.ProtocolException.class, () -> Wire.decodeHandshake(b));
    } finally {
      b.release();
    }
  }

  @Test
  void systemMessageAcknowledgementsAndVarLongsRoundTrip() {
    for (long seq : new long[] {0, 1, 127, 128, 1L << 35, Long.MAX_VALUE}) {
      ByteBuf b = Wire.encodeSystemAck(ByteBufAllocator.DEFAULT, seq);
      assertTrue(Wire.isControl(b));
      assertEquals(seq, Wire.decodeSystemAck(b));
      b.release();
      ByteBuf v = Unpooled.buffer();
      Wire.writeVarLong(v, seq);
      assertEquals(Wire.varLongSize(seq), v.readableBytes());
      assertEquals(seq, Wire.readVarLong(v));
    }
  }

  @Test
  void aMalformedAcknowledgementBreaksTheProtocol() {
    assertThrows(Wire.ProtocolException.class, () -> Wire.decodeSystemAck(Unpooled.wrappedBuffer(new byte[] {0, 1})));
    assertThrows(Wire.ProtocolException.class, () -> Wire.decodeSystemAck(Unpooled.wrappedBuffer(new byte[] {0, 3, 1})));
    assertThrows(Wire.ProtocolException.class, () -> Wire.decodeSystemAck(Unpooled.wrappedBuffer(new byte[] {0, 5, 1, 9})));
    byte[] tooLong = new byte[13];
    java.util.Arrays.fill(tooLong, (byte) 0xFF);
    tooLong[0] = 0;
    tooLong[1] = 5;
    assertThrows(Wire.ProtocolException.class, () -> Wire.decodeSystemAck(Unpooled.wrappedBuffer(tooLong)));
  }

  @Test
  void aSequencedFrameIsRecognisedAsASystemMessage() {
    ByteBuf b = Unpooled.buffer();
    b.writeByte(0);
    b.writeByte(Wire.SYSTEM);
    Wire.writeVarLong(b, 42);
    b.writeByte(7); // the envelope would follow
    assertTrue(Wire.isControl(b));
    assertEquals(Wire.SYSTEM, Wire.decodeControl(b));
    assertEquals(42, Wire.readVarLong(b));
  }
}
