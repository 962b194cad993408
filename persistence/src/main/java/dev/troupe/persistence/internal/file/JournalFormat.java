package dev.troupe.persistence.internal.file;

import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The bytes of a journal file (all numbers big-endian):
 *
 * <pre>
 * header:  int magic "TRJL" | int version 1 | int n | n bytes: the persistence id, UTF-8 | int CRC32C of the above
 * record:  int length L | int CRC32C of the length's 4 bytes and the body | L bytes: the body
 * body:    byte 1 (an event, the last of its atomic write) or 2 (an event, more of its write follow)
 *            | long sequenceNr | long timestamp | int serializerId | int m | m bytes: the manifest, UTF-8 | the payload
 *          byte 3 (deletion marker) | long toSequenceNr: events up to it are deleted
 * </pre>
 *
 * <p>An atomic write of several events is several records, each but the last of type 2: a file
 * that ends within one (a crash while it was appended) loses all of it, so it stays all or nothing.
 */
final class JournalFormat {
  static final int MAGIC = 0x54524A4C; // "TRJL"
  static final int VERSION = 1;
  /** An event, the last (or only) one of its atomic write. */
  static final byte EVENT = 1;
  /** An event that more events of its atomic write follow. */
  static final byte EVENT_MORE = 2;
  /** Deletes the events up to a sequence number. */
  static final byte TOMBSTONE = 3;
  /** A record's length and CRC, before its body. */
  static final int FRAME = 8;
  /** An event body without its manifest and payload: type, seqNr, timestamp, serializerId, manifest length. */
  static final int EVENT_FIXED = 1 + 8 + 8 + 4 + 4;
  static final int TOMBSTONE_BODY = 1 + 8;
  /** Where the fields of a body start, from the record's start. */
  static final int TYPE_AT = FRAME;
  static final int SEQ_AT = FRAME + 1;
  static final int TIMESTAMP_AT = FRAME + 9;
  static final int SERIALIZER_AT = FRAME + 17;
  static final int MANIFEST_LENGTH_AT = FRAME + 21;
  static final int MANIFEST_AT = FRAME + EVENT_FIXED;
  /** The largest max-event-size: a record and its framing fit one Java array. */
  static final long MAX_EVENT_SIZE = Integer.MAX_VALUE - 1024;

  /** The longest persistence id a header is read with: more is no header of this journal's. */
  static final int MAX_ID_BYTES = 1 << 20;

  private JournalFormat() {}

  /**
   * One atomic write, serialized and framed: the bytes to append, made on the caller's thread.
   *
   * @param persistenceId whose events
   * @param lowest the first event's sequence number
   * @param highest the last one's
   * @param records the records, one after another
   * @param eventOffsets where each event's record starts in {@code records}
   */
  record Encoded(String persistenceId, long lowest, long highest, byte[] records, int[] eventOffsets) {}

  /**
   * Serializes and frames an atomic write.
   *
   * @param write the events
   * @param serialization the system's serializers
   * @param maxEventSize the most bytes an event's manifest and payload may have together
   * @return the records
   * @throws RuntimeException if an event cannot be serialized (a {@code SerializationException})
   *     or is too large (an {@code IllegalArgumentException}): the write is rejected
   */
  static Encoded encode(AtomicWrite write, Serialization serialization, long maxEventSize) {
    List<PersistentRepr> events = write.events();
    int n = events.size();
    Serialized[] serialized = new Serialized[n];
    byte[][] manifests = new byte[n][];
    long total = 0;
    for (int i = 0; i < n; i++) {
      PersistentRepr e = events.get(i);
      serialized[i] = serialization.serialize(e.payload());
      manifests[i] = serialized[i].manifest().getBytes(StandardCharsets.UTF_8);
      long size = (long) manifests[i].length + serialized[i].bytes().length;
      if (size > maxEventSize) {
        throw new IllegalArgumentException("event " + e.sequenceNr() + " of persistence id [" + write.persistenceId()
            + "] (" + e.payload().getClass().getName() + ") is " + size + " bytes serialized, over max-event-size ("
            + maxEventSize + " bytes)");
      }
      total += FRAME + EVENT_FIXED + size;
    }
    if (total > MAX_EVENT_SIZE) {
      throw new IllegalArgumentException("the " + n + " events of one write of persistence id [" + write.persistenceId()
          + "] are " + total + " bytes serialized, more than one write may have (" + MAX_EVENT_SIZE + " bytes)");
    }
    ByteBuffer b = ByteBuffer.allocate((int) total);
    int[] offsets = new int[n];
    for (int i = 0; i < n; i++) {
      PersistentRepr e = events.get(i);
      offsets[i] = b.position();
      b.position(offsets[i] + FRAME);
      b.put(i == n - 1 ? EVENT : EVENT_MORE).putLong(e.sequenceNr()).putLong(e.timestamp())
          .putInt(serialized[i].serializerId()).putInt(manifests[i].length).put(manifests[i]).put(serialized[i].bytes());
      seal(b, offsets[i]);
    }
    return new Encoded(write.persistenceId(), write.lowestSequenceNr(), write.highestSequenceNr(), b.array(), offsets);
  }

  /**
   * @param toSequenceNr the highest sequence number deleted
   * @return a deletion marker record
   */
  static byte[] tombstone(long toSequenceNr) {
    ByteBuffer b = ByteBuffer.allocate(FRAME + TOMBSTONE_BODY);
    b.position(FRAME);
    b.put(TOMBSTONE).putLong(toSequenceNr);
    seal(b, 0);
    return b.array();
  }

  /**
   * @param persistenceId the file's actor
   * @return the header of its file
   */
  static byte[] header(String persistenceId) {
    byte[] id = persistenceId.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(16 + id.length);
    b.putInt(MAGIC).putInt(VERSION).putInt(id.length).put(id);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue());
    return b.array();
  }

  /**
   * The persistence id a file's header names, read without trusting the file.
   *
   * @param ch the file
   * @return the id, or null if the file has no sound header (not a journal file, or one whose
   *     making a crash cut short)
   * @throws IOException if reading fails
   */
  static String readId(java.nio.channels.FileChannel ch) throws IOException {
    long size = ch.size();
    if (size < 16) {
      return null;
    }
    ByteBuffer fixed = ByteBuffer.allocate(12);
    DiskIo.readFully(ch, fixed, 0);
    int n = fixed.getInt(8);
    if (fixed.getInt(0) != MAGIC || fixed.getInt(4) != VERSION || n < 0 || n > MAX_ID_BYTES || n > size - 16) {
      return null;
    }
    ByteBuffer rest = ByteBuffer.allocate(n + 4);
    DiskIo.readFully(ch, rest, 12);
    CRC32C crc = new CRC32C();
    crc.update(fixed.array(), 0, 12);
    crc.update(rest.array(), 0, n);
    if (rest.getInt(n) != (int) crc.getValue()) {
      return null;
    }
    return new String(rest.array(), 0, n, StandardCharsets.UTF_8);
  }

  /** Writes the length and CRC of the record that starts at {@code start} and ends at the position. */
  private static void seal(ByteBuffer b, int start) {
    int length = b.position() - start - FRAME;
    b.putInt(start, length);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), start, 4);
    crc.update(b.array(), start + FRAME, length);
    b.putInt(start + 4, (int) crc.getValue());
  }
}
