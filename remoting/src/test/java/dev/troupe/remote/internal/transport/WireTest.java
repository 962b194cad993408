package dev.troupe.remote.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
 * its id afterwards, both halves stay in step (also past the table's capacity, for every field of
 * an envelope), a peer cannot make the table grow beyond its limits, and the handshake
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

    out.startEnvelope();
    out.write(b, path, path);
    int first = b.readableBytes();
    out.startEnvelope();
    out.write(b, path, path);
    int second = b.readableBytes() - first;

    assertTrue(first > path.length(), "the first use carries the string: " + first + " bytes");
    assertEquals(1, second, "a later use is the id alone");
    assertTrue(first <= OutboundTable.size(-1, path), "size() bounds the first use");
    assertEquals(OutboundTable.size(out.idOf(path), null), second, "size() predicts a later use");
    InboundTable.Entry a = in.read(b);
    InboundTable.Entry c = in.read(b);
    assertSame(a, c, "both uses name the same entry");
    assertEquals(path, a.text);
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
        out.startEnvelope();
        out.write(b, s, s);
        sent.add(s);
      }
    }
    assertEquals(Wire.TABLE_MAX_ENTRIES, out.entries(), "the table stays within its limit");
    for (String s : sent) {
      assertEquals(s, in.read(b).text);
    }
    assertEquals(0, b.readableBytes());
  }

  /**
   * Envelopes as a connection that lives long carries them: a few recipients in use, a new
   * temporary reply path as the sender of nearly every one, now and then a new recipient and a new
   * manifest. Each field reads back as what was sent, also when all three are new in one envelope
   * of a full table (version 1 kept one unremembered string per envelope and confused them).
   */
  @Test
  void everyFieldOfEveryEnvelopeReadsBackPastTheTablesCapacity() {
    OutboundTable out = new OutboundTable();
    InboundTable in = new InboundTable();
    ByteBuf b = Unpooled.buffer();
    int envelopes = 3 * Wire.TABLE_MAX_ENTRIES;
    for (int i = 0; i < envelopes; i++) {
      String recipient =
          i % 50 == 0 ? "troupe://b@127.0.0.1:2552/user/new-" + i : "troupe://b@127.0.0.1:2552/user/hot-" + i % 5;
      String sender = i % 3 == 0 ? null : "troupe://a@127.0.0.1:2553/temp/$" + i + "#" + (i * 7919L);
      String manifest = i % 70 == 0 ? "com.example.New" + i : i % 2 == 0 ? "" : "com.example.Hot";
      String[] fields = {recipient, sender, manifest.isEmpty() ? null : manifest};
      out.startEnvelope();
      int[] ids = new int[3];
      long predicted = 0;
      for (int f = 0; f < 3; f++) {
        ids[f] = fields[f] == null ? -1 : out.idOf(fields[f]);
        predicted += fields[f] == null ? 1 : OutboundTable.size(ids[f], fields[f]);
      }
      int before = b.writerIndex();
      for (String field : fields) {
        if (field == null) {
          b.writeByte(Wire.REF_NONE);
        } else {
          out.write(b, field, field);
        }
      }
      int written = b.writerIndex() - before;
      assertTrue(written <= predicted, "envelope " + i + ": " + written + " bytes, predicted at most " + predicted);
      for (int f = 0; f < 3; f++) {
        if (ids[f] >= 0) {
          assertEquals(ids[f], out.idOf(fields[f]), "envelope " + i + ": an entry it names was replaced while writing it");
        }
      }
      InboundTable.Entry[] read = {in.read(b), in.read(b), in.read(b)}; // all three first, as the handler does
      for (int f = 0; f < 3; f++) {
        assertEquals(fields[f], read[f] == null ? null : read[f].text, "envelope " + i + ", field " + f);
      }
    }
    assertEquals(0, b.readableBytes());
    assertEquals(Wire.TABLE_MAX_ENTRIES, out.entries());
    for (String hot : List.of("troupe://b@127.0.0.1:2552/user/hot-1", "com.example.Hot")) {
      assertTrue(out.idOf(hot) >= 0, hot + " is in use and stays in the table");
    }
  }

  @Test
  void threeNewStringsInOneEnvelopeOfAFullTableReadBackEachAsItself() {
    OutboundTable out = new OutboundTable();
    InboundTable in = new InboundTable();
    ByteBuf b = Unpooled.buffer();
    for (int i = 0; i < Wire.TABLE_MAX_ENTRIES; i++) {
      out.startEnvelope();
      out.write(b, "s" + i, "s" + i);
      in.read(b);
    }
    out.startEnvelope();
    out.write(b, "recipient", "troupe://b@127.0.0.1:2552/user/never-named");
    out.write(b, "sender", "troupe://a@127.0.0.1:2553/temp/$x");
    out.write(b, "manifest", "T");
    InboundTable.Entry recipient = in.read(b);
    InboundTable.Entry sender = in.read(b);
    InboundTable.Entry manifest = in.read(b);
    assertEquals("troupe://b@127.0.0.1:2552/user/never-named", recipient.text);
    assertEquals("troupe://a@127.0.0.1:2553/temp/$x", sender.text);
    assertEquals("T", manifest.text);
    out.startEnvelope();
    out.write(b, "manifest", "T");
    assertSame(manifest, in.read(b), "the new manifest was remembered in place of an old entry");
  }

  @Test
  void aStringLongerThanAnEntryMayBeCrossesEveryTimeAndIsNotRemembered() {
    OutboundTable out = new OutboundTable();
    InboundTable in = new InboundTable();
    ByteBuf b = Unpooled.buffer();
    String huge = "m".repeat(Wire.TABLE_MAX_ENTRY_BYTES + 1);
    for (int i = 0; i < 2; i++) {
      out.startEnvelope();
      out.write(b, huge, huge);
      assertEquals(Wire.REF_LITERAL, b.getByte(b.readerIndex()));
      assertEquals(huge, in.read(b).text);
    }
    assertEquals(0, out.entries());
  }

  @Test
  void aReferenceToAnEntryThePeerNeverSentBreaksTheProtocol() {
    ByteBuf b = Unpooled.buffer();
    Wire.writeVarInt(b, Wire.REF_FIRST_ENTRY + 5);
    assertThrows(Wire.ProtocolException.class, () -> new InboundTable().read(b));
  }

  @Test
  void replacingASlotThePeerNeverFilledBreaksTheProtocol() {
    InboundTable in = new InboundTable();
    ByteBuf b = Unpooled.buffer();
    b.writeByte(Wire.REF_NEW);
    Wire.writeString(b, "first");
    in.read(b);
    b.writeByte(Wire.REF_REPLACE);
    Wire.writeVarInt(b, 1);
    Wire.writeString(b, "second");
    assertThrows(Wire.ProtocolException.class, () -> in.read(b));
  }

  @Test
  void aPeerWhoseTableGrowsBeyondItsLimitsBreaksTheProtocol() {
    InboundTable entries = new InboundTable();
    ByteBuf b = Unpooled.buffer();
    for (int i = 0; i < Wire.TABLE_MAX_ENTRIES; i++) {
      b.writeByte(Wire.REF_NEW);
      Wire.writeString(b, "s" + i);
      entries.read(b);
    }
    b.writeByte(Wire.REF_NEW);
    Wire.writeString(b, "one too many");
    assertThrows(Wire.ProtocolException.class, () -> entries.read(b));

    InboundTable bytes = new InboundTable();
    ByteBuf c = Unpooled.buffer();
    String quarter = "q".repeat(Wire.TABLE_MAX_BYTES / 4);
    for (int i = 0; i < 4; i++) {
      c.writeByte(Wire.REF_NEW);
      Wire.writeString(c, quarter);
      bytes.read(c);
    }
    c.writeByte(Wire.REF_REPLACE);
    Wire.writeVarInt(c, 0);
    Wire.writeString(c, quarter + "q");
    assertThrows(Wire.ProtocolException.class, () -> bytes.read(c), "a replacement that needs more bytes than are left");
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
            Lane.CONTROL, Address.parse("troupe://a@127.0.0.1:1234"), -42L, Address.parse("troupe://b@127.0.0.3:2552"));
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
  void aRefusalRoundTripsBoundedAndIsToldApartFromAnAcknowledgement() {
    ByteBuf r = Wire.encodeRefusal(ALLOC, true, "handshake for system 'x', but this is 'y'");
    ByteBuf ack = Wire.encodeAck(ALLOC, 77L);
    ByteBuf longOne = Wire.encodeRefusal(ALLOC, false, "\u00e9\n".repeat(1000));
    try {
      assertEquals(new Wire.Refusal(true, "handshake for system 'x', but this is 'y'"), Wire.decodeRefusal(r));
      assertEquals(null, Wire.decodeRefusal(ack), "an acknowledgement is no refusal");
      assertEquals(77L, Wire.decodeAck(ack), "and is still read as one");
      assertTrue(longOne.readableBytes() <= Wire.REFUSAL_MAX_BYTES, longOne.readableBytes() + " bytes");
      Wire.Refusal cut = Wire.decodeRefusal(longOne);
      assertEquals(Wire.REFUSAL_MAX_CHARS, cut.reason().length(), "cut to the limit");
      assertTrue(cut.reason().startsWith("\u00e9?\u00e9?") && cut.reason().endsWith("..."), "control characters replaced: " + cut.reason());
    } finally {
      r.release();
      ack.release();
      longOne.release();
    }
    ByteBuf badFlag = Unpooled.buffer().writeInt(Wire.REFUSAL_MAGIC).writeByte(Wire.VERSION).writeByte(7).writeByte(0);
    assertThrows(Wire.ProtocolException.class, () -> Wire.decodeRefusal(badFlag));
    ByteBuf trailing = Unpooled.buffer().writeInt(Wire.REFUSAL_MAGIC).writeByte(Wire.VERSION).writeByte(1).writeByte(0).writeByte(9);
    assertThrows(Wire.ProtocolException.class, () -> Wire.decodeRefusal(trailing));
  }

  @Test
  void aHandshakeWithWrongMagicVersionLaneOrTrailingBytesIsRefused() {
    Wire.Handshake h =
        new Wire.Handshake(
            Lane.ORDINARY, Address.parse("troupe://a@127.0.0.1:1234"), 1L, Address.parse("troupe://b@127.0.0.1:2552"));
    ByteBuf good = Wire.encodeHandshake(ALLOC, h);
    try {
      for (int[] patch : new int[][] {{0, 0x00}, {4, Wire.VERSION + 7}, {5, 9}}) {
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
