package dev.troupe.persistence.internal.file;

import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The bytes of a journal file (all numbers big-endian):
 *
 * <pre>
 * header:  int magic "TRJL" | int version 1 | int n | n bytes: the persistence id, UTF-8 | int CRC32C of the above
 * record:  int length L | int CRC32C of the length's 4 bytes and the body | L bytes: the body
 * body:    byte 1 (an event, the last of its atomic write) or 2 (an event, more of its write follow)
 *            | long sequenceNr | long timestamp | int serializerId | int m | m bytes: the manifest, UTF-8 | the payload
 *          byte 4 (a tagged event, the last of its atomic write) or 5 (a tagged event, more of its write follow)
 *            | long sequenceNr | long timestamp | int serializerId
 *            | int k (1 to 64) | k times: int t (1 to 256) | t bytes: a tag, UTF-8
 *            | int m | m bytes: the manifest, UTF-8 | the payload
 *          byte 3 (deletion marker) | long toSequenceNr: events up to it are deleted
 *          byte 6 (compaction marker) | long toSequenceNr: events up to it are deleted
 *            | long highestSequenceNr: the highest number the file ever stored
 *          byte 7 (sync point) | long position: where this record starts
 * </pre>
 *
 * <p>A sync point says that every byte before it was on disk when it was written: with {@code
 * fsync = on}, the journal puts one before the first write it appends to a file after a force of
 * that file succeeded (so in the same page as the new records: it costs no page and no call of
 * its own). It is what tells a torn tail from corruption after a crash. A crash may leave the
 * records of the writes it interrupted cut short, or with a page lost before a page kept (the disk
 * orders its writes as it likes until they are forced): sound records after damage prove nothing
 * then. A sound sync point after the damage does: the damaged bytes were on disk before it was
 * written, so the damage is corruption. Without one, the damage lies in the writes of the last
 * force, which was never acknowledged if the damage came from a crash, and it is cut away with
 * everything after it. (A failing disk that damages those last, acknowledged, bytes is taken for a
 * crash too.) With {@code fsync = off} nothing is known to be on disk: damage is corruption if any
 * sound record follows it. A sync point whose position is not its own (copied by compaction) says
 * nothing.
 *
 * <p>An atomic write of several events is several records, each but the last of type 2 or 5: a
 * file that ends within one (a crash while it was appended) loses all of it, so it stays all or
 * nothing. An event without tags is written as type 1 or 2, as before tags existed, so files
 * written then read unchanged (their events have no tags). An event has at most {@value #MAX_TAGS}
 * tags of 1 to {@value #MAX_TAG_BYTES} bytes each: a write with more is rejected, and a record
 * claiming more is corruption.
 *
 * <p>A compacted file ({@link JournalFile.Compaction}) starts with a compaction marker right after
 * its header, and then holds the records that followed its first live event, byte for byte: the
 * marker keeps the deletion and the highest number that the dropped records carried, so that the
 * numbering goes on where it was even when every event was deleted. Earlier versions of the journal
 * do not know the marker, and report a compacted file as corrupt at its offset rather than
 * misreading it.
 *
 * <p>The tag index ({@link TagFile}) keeps one file per tag, in the directory {@code tags} of the
 * journal's:
 *
 * <pre>
 * header:  int magic "TRTG" | int version 1 | int n | n bytes: the tag, UTF-8 | int CRC32C of the above
 * record:  int length L | int CRC32C of the length's 4 bytes and the body | L bytes: the body
 * body:    long sequenceNr | long timestamp | int the CRC32C of the event's record | int n
 *            | n bytes: the persistence id, UTF-8
 * </pre>
 *
 * <p>The records name the tag's events in the order the journal stored them; the k-th record is
 * the event of offset k.
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
  /** An event with tags, the last (or only) one of its atomic write. */
  static final byte TAGGED = 4;
  /** An event with tags that more events of its atomic write follow. */
  static final byte TAGGED_MORE = 5;
  /** Starts a compacted file: deletes the events up to a number, and keeps the highest one stored. */
  static final byte COMPACTED = 6;
  /** Says that every byte before it was on disk when it was written. */
  static final byte SYNCED = 7;
  /** The most tags an event may have. */
  static final int MAX_TAGS = 64;
  /** The most bytes (UTF-8) a tag may have; it has at least one. */
  static final int MAX_TAG_BYTES = 256;
  /** The most bytes the tags of an event take in its record: their count, and each with its length. */
  static final int MAX_TAGS_LENGTH = 4 + MAX_TAGS * (4 + MAX_TAG_BYTES);
  /** A record's length and CRC, before its body. */
  static final int FRAME = 8;
  /** An event body without its manifest and payload: type, seqNr, timestamp, serializerId, manifest length. */
  static final int EVENT_FIXED = 1 + 8 + 8 + 4 + 4;
  static final int TOMBSTONE_BODY = 1 + 8;
  static final int COMPACTED_BODY = 1 + 8 + 8;
  static final int SYNCED_BODY = 1 + 8;
  /** Where a compaction marker's highest sequence number is, from the record's start. */
  static final int COMPACTED_HIGHEST_AT = FRAME + 9;
  /** Where the fields of a body start, from the record's start. */
  static final int TYPE_AT = FRAME;
  static final int SEQ_AT = FRAME + 1;
  static final int TIMESTAMP_AT = FRAME + 9;
  static final int SERIALIZER_AT = FRAME + 17;
  static final int MANIFEST_LENGTH_AT = FRAME + 21;
  static final int MANIFEST_AT = FRAME + EVENT_FIXED;
  /** Where a tagged event's tag count is (its manifest length follows the tags). */
  static final int TAG_COUNT_AT = FRAME + 21;
  /** The largest max-event-size: a record and its framing fit one Java array. */
  static final long MAX_EVENT_SIZE = Integer.MAX_VALUE - 1024;

  /** The longest persistence id a header is read with: more is no header of this journal's. */
  static final int MAX_ID_BYTES = 1 << 20;

  static final int TAG_MAGIC = 0x54525447; // "TRTG"
  static final int TAG_VERSION = 1;
  /** A tag index record's body without the persistence id: seqNr, timestamp, event CRC, id length. */
  static final int ENTRY_FIXED = 8 + 8 + 4 + 4;
  /** The most bytes a tag index record's body may have. */
  static final int MAX_ENTRY_BODY = ENTRY_FIXED + MAX_ID_BYTES;

  /** @return whether a record of this type is an event */
  static boolean isEvent(byte type) {
    return type == EVENT || type == EVENT_MORE || type == TAGGED || type == TAGGED_MORE;
  }

  /** @return whether an event record of this type carries tags */
  static boolean isTagged(byte type) {
    return type == TAGGED || type == TAGGED_MORE;
  }

  /** @return whether an event record of this type is the last of its atomic write */
  static boolean endsWrite(byte type) {
    return type == EVENT || type == TAGGED;
  }

  private static final String[] NO_TAGS = {};
  private static final byte[][] NO_TAG_BYTES = {};

  private JournalFormat() {}

  /**
   * One atomic write, serialized and framed: the bytes to append, made on the caller's thread.
   *
   * @param persistenceId whose events
   * @param lowest the first event's sequence number
   * @param highest the last one's
   * @param records the records, one after another
   * @param eventOffsets where each event's record starts in {@code records}
   * @param tags each event's tags, sorted (empty: none)
   */
  record Encoded(String persistenceId, long lowest, long highest, byte[] records, int[] eventOffsets, String[][] tags) {
    /**
     * The tag index records of this write's events, per tag, in the order of the events.
     *
     * @return tag to its records, in the order the tags first occur
     */
    Map<String, List<byte[]>> indexEntries() {
      Map<String, List<byte[]>> byTag = null; // most writes have no tags: nothing is made for them
      byte[] id = null;
      ByteBuffer b = ByteBuffer.wrap(records);
      for (int i = 0; i < tags.length; i++) {
        if (tags[i].length == 0) {
          continue;
        }
        id = id != null ? id : persistenceId.getBytes(StandardCharsets.UTF_8);
        byTag = byTag != null ? byTag : new LinkedHashMap<>();
        int at = eventOffsets[i];
        byte[] entry = entry(id, lowest + i, b.getLong(at + TIMESTAMP_AT), b.getInt(at + 4));
        for (String tag : tags[i]) {
          byTag.computeIfAbsent(tag, t -> new ArrayList<>()).add(entry);
        }
      }
      return byTag != null ? byTag : Map.of();
    }
  }

  /**
   * Serializes and frames an atomic write.
   *
   * @param write the events
   * @param serialization the system's serializers
   * @param maxEventSize the most bytes an event's manifest and payload may have together
   * @return the records
   * @throws RuntimeException if an event cannot be serialized (a {@code SerializationException}),
   *     or is too large or has too many tags or a tag too long or empty (an {@code
   *     IllegalArgumentException}): the write is rejected
   */
  static Encoded encode(AtomicWrite write, Serialization serialization, long maxEventSize) {
    checkId(write.persistenceId());
    List<PersistentRepr> events = write.events();
    int n = events.size();
    Serialized[] serialized = new Serialized[n];
    byte[][] manifests = new byte[n][];
    String[][] tags = new String[n][];
    byte[][][] tagBytes = new byte[n][][];
    long total = 0;
    for (int i = 0; i < n; i++) {
      PersistentRepr e = events.get(i);
      tags[i] = e.tags().isEmpty() ? NO_TAGS : e.tags().stream().sorted().toArray(String[]::new);
      tagBytes[i] = tags[i].length == 0 ? NO_TAG_BYTES : tagBytes(write.persistenceId(), e.sequenceNr(), tags[i]);
      for (byte[] t : tagBytes[i]) {
        total += 4 + t.length;
      }
      total += tags[i].length > 0 ? 4 : 0;
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
      boolean last = i == n - 1;
      boolean tagged = tags[i].length > 0;
      b.put(tagged ? (last ? TAGGED : TAGGED_MORE) : (last ? EVENT : EVENT_MORE)).putLong(e.sequenceNr())
          .putLong(e.timestamp()).putInt(serialized[i].serializerId());
      if (tagged) {
        b.putInt(tagBytes[i].length);
        for (byte[] t : tagBytes[i]) {
          b.putInt(t.length).put(t);
        }
      }
      b.putInt(manifests[i].length).put(manifests[i]).put(serialized[i].bytes());
      seal(b, offsets[i]);
    }
    return new Encoded(write.persistenceId(), write.lowestSequenceNr(), write.highestSequenceNr(), b.array(), offsets,
        tags);
  }

  /**
   * Refuses an id longer than a file header or a tag index record can carry (then no read would
   * accept them): a write of it is rejected, nothing is stored.
   */
  private static void checkId(String persistenceId) {
    // a char is at most 3 bytes of UTF-8: only a long id is measured
    if (persistenceId.length() > MAX_ID_BYTES / 3
        && persistenceId.getBytes(StandardCharsets.UTF_8).length > MAX_ID_BYTES) {
      throw new IllegalArgumentException("persistence id [" + persistenceId.substring(0, 80) + "...] is over "
          + MAX_ID_BYTES + " bytes of UTF-8, the longest a journal file can hold");
    }
  }

  /** @return the tags as UTF-8, checked against the bounds */
  private static byte[][] tagBytes(String persistenceId, long sequenceNr, String[] tags) {
    if (tags.length > MAX_TAGS) {
      throw new IllegalArgumentException("event " + sequenceNr + " of persistence id [" + persistenceId + "] has "
          + tags.length + " tags, over the most an event may have (" + MAX_TAGS + ")");
    }
    byte[][] bytes = new byte[tags.length][];
    for (int i = 0; i < tags.length; i++) {
      bytes[i] = tagBytes(tags[i]);
      if (bytes[i] == null) {
        String shown = tags[i].length() > 80 ? tags[i].substring(0, 80) + "..." : tags[i];
        throw new IllegalArgumentException("event " + sequenceNr + " of persistence id [" + persistenceId + "] has tag ["
            + shown + "]: a tag has 1 to " + MAX_TAG_BYTES + " bytes (UTF-8) and no unpaired surrogate characters");
      }
    }
    return bytes;
  }

  /**
   * @param tag a tag
   * @return its UTF-8 bytes, or null if it cannot be stored: empty, over {@value #MAX_TAG_BYTES}
   *     bytes, or not well-formed UTF-16 (it would not read back as it was)
   */
  static byte[] tagBytes(String tag) {
    if (tag.isEmpty() || tag.length() > MAX_TAG_BYTES) {
      return null;
    }
    ByteBuffer b;
    try {
      b = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(tag));
    } catch (CharacterCodingException e) {
      return null;
    }
    if (b.remaining() > MAX_TAG_BYTES) {
      return null;
    }
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return bytes;
  }

  /**
   * @param persistenceId the event's actor, UTF-8
   * @param sequenceNr its number
   * @param timestamp its timestamp
   * @param eventCrc the CRC32C of its record
   * @return a tag index record naming it
   */
  static byte[] entry(byte[] persistenceId, long sequenceNr, long timestamp, int eventCrc) {
    ByteBuffer b = ByteBuffer.allocate(FRAME + ENTRY_FIXED + persistenceId.length);
    b.position(FRAME);
    b.putLong(sequenceNr).putLong(timestamp).putInt(eventCrc).putInt(persistenceId.length).put(persistenceId);
    seal(b, 0);
    return b.array();
  }

  /**
   * @param tag the file's tag
   * @return the header of its tag index file
   */
  static byte[] tagHeader(String tag) {
    byte[] t = tag.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(16 + t.length);
    b.putInt(TAG_MAGIC).putInt(TAG_VERSION).putInt(t.length).put(t);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue());
    return b.array();
  }

  /**
   * @param at where the record goes
   * @return a sync point record
   */
  static byte[] synced(long at) {
    return marker(SYNCED, at);
  }

  /**
   * @param toSequenceNr the highest sequence number deleted
   * @return a deletion marker record
   */
  static byte[] tombstone(long toSequenceNr) {
    return marker(TOMBSTONE, toSequenceNr);
  }

  /** @return a record of a type and one long (a deletion marker, a sync point) */
  private static byte[] marker(byte type, long value) {
    ByteBuffer b = ByteBuffer.allocate(FRAME + 1 + 8);
    b.position(FRAME);
    b.put(type).putLong(value);
    seal(b, 0);
    return b.array();
  }

  /**
   * @param toSequenceNr the highest sequence number deleted
   * @param highestSequenceNr the highest one the file stored, at least {@code toSequenceNr}
   * @return a compaction marker record
   */
  static byte[] compacted(long toSequenceNr, long highestSequenceNr) {
    ByteBuffer b = ByteBuffer.allocate(FRAME + COMPACTED_BODY);
    b.position(FRAME);
    b.put(COMPACTED).putLong(toSequenceNr).putLong(highestSequenceNr);
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
