package dev.troupe.persistence.internal.file;

import static dev.troupe.persistence.internal.file.JournalFormat.ENTRY_FIXED;
import static dev.troupe.persistence.internal.file.JournalFormat.FRAME;
import static dev.troupe.persistence.internal.file.JournalFormat.MAX_ENTRY_BODY;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index file of one tag (see {@link JournalFormat}): a record per event stored with the tag,
 * naming it by persistence id and sequence number, in the order the journal stored them; the k-th
 * record is the event of offset k. What is known of it: where it ends, how many records it has,
 * and a sparse index (where every {@value #INDEX_EVERY}th record starts) that lets a read start
 * near its first offset; nothing else of it is kept in memory. Opening reads the whole file once
 * and checks every record's CRC, cutting a torn tail away. Used on its journal's IO thread only.
 *
 * <p>A record says that an event was to be stored, not that it was: the journal appends (and with
 * fsync, forces) the records before the events, so a crash in between leaves records whose events
 * are missing. The journal checks each record against the event before handing it over.
 */
final class TagFile extends AppendFile {
  private static final Logger LOG = LoggerFactory.getLogger(TagFile.class);
  static final int INDEX_EVERY = 256;

  /**
   * A record of the index.
   *
   * @param offset its place among the tag's events, from 1
   * @param persistenceId the event's actor
   * @param sequenceNr its number
   * @param timestamp its timestamp
   * @param eventCrc the CRC32C of its record in the journal file
   */
  record Entry(long offset, String persistenceId, long sequenceNr, long timestamp, int eventCrc) {}

  /**
   * Records read at once.
   *
   * @param entries the records, by offset
   * @param atEnd whether the last of them is the last of the file
   */
  record Chunk(List<Entry> entries, boolean atEnd) {}

  final String tag;
  private final long dataStart;
  private long count;
  /** Where record {@code i * INDEX_EVERY + 1} starts, for each i. */
  private long[] indexPos = new long[8];
  private int indexSize;

  private TagFile(String tag, Path path, FileChannel channel, long dataStart) {
    super(path, channel, dataStart);
    this.tag = tag;
    this.dataStart = dataStart;
  }

  /**
   * Makes a new, empty file.
   *
   * @param tag its tag
   * @param path where; must not exist
   * @param fsync whether to force the file and its directory entry to disk
   * @return the open file
   * @throws IOException if it cannot be made
   */
  static TagFile create(String tag, Path path, boolean fsync) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      byte[] header = JournalFormat.tagHeader(tag);
      DiskIo.writeFully(ch, ByteBuffer.wrap(header), 0);
      if (fsync) {
        ch.force(true);
        DiskIo.forceDirectory(path.getParent());
      }
      return new TagFile(tag, path, ch, header.length);
    } catch (IOException | RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  /**
   * Opens an existing file and reads it once: checks its header and every record, builds the
   * sparse index, and cuts a torn tail away.
   *
   * @param tag its tag
   * @param path where
   * @param fsync whether to force a truncation to disk
   * @return the open file
   * @throws IOException if it cannot be read, indexes another tag, or is corrupt (the message names
   *     the file and the offset)
   */
  static TagFile open(String tag, Path path, boolean fsync) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      long dataStart = checkHeader(ch, tag, path, fsync);
      TagFile f = new TagFile(tag, path, ch, dataStart);
      f.scan(fsync);
      return f;
    } catch (IOException | RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  private static long checkHeader(FileChannel ch, String tag, Path path, boolean fsync) throws IOException {
    return checkHeader(ch, JournalFormat.tagHeader(tag), "tag index file " + path + " of tag [" + tag + "]", fsync,
        (g, size) -> {
          ByteBuffer b = ByteBuffer.wrap(g);
          String why = g.length < 8 || b.getInt(0) != JournalFormat.TAG_MAGIC
              ? "it is no Troupe tag index file (it does not start with the tag index's magic number)"
              : b.getInt(4) != JournalFormat.TAG_VERSION
                  ? "it has tag index format version " + b.getInt(4) + ", and this journal reads version "
                      + JournalFormat.TAG_VERSION
                  : "its header names another tag (one whose file name is alike: the SHA-256 hex of the other, or a"
                      + " difference in case only on a file system that ignores case), or is corrupt";
          return new IOException("tag index file " + path + " cannot hold the index of tag [" + tag + "]: " + why);
        });
  }

  private RecordReader reader(long size) {
    return new RecordReader(channel, size, ENTRY_FIXED, MAX_ENTRY_BODY, "a record and the longest persistence id");
  }

  /** What a record looks like before its CRC is checked: its id's length fits its length. */
  private static boolean plausible(RecordReader r, long pos, int length) throws IOException {
    return r.intAt(pos + FRAME + ENTRY_FIXED - 4) == length - ENTRY_FIXED;
  }

  /** @return what is wrong with the fields of the sound record at {@code pos}, or null */
  private static String malformedAt(RecordReader r, long pos) throws IOException {
    int length = r.intAt(pos);
    if (!plausible(r, pos, length)) {
      return "a record whose persistence id length does not fit its length";
    }
    long seq = r.longAt(pos + FRAME);
    return seq >= 1 ? null : "a record of sequence number " + seq;
  }

  private void scan(boolean fsync) throws IOException {
    long size = channel.size();
    RecordReader r = reader(size);
    long pos = dataStart;
    String torn = null;
    while (pos < size) {
      String problem = r.problemAt(pos);
      if (problem != null) {
        if (r.oversizeAt(pos) || r.validRecordAfter(pos + 1, TagFile::plausible)) {
          throw corrupt(pos, problem);
        }
        torn = problem;
        break;
      }
      String malformed = malformedAt(r, pos);
      if (malformed != null) {
        throw corrupt(pos, malformed);
      }
      index(pos);
      pos += FRAME + r.intAt(pos);
    }
    end = pos;
    if (torn != null) {
      LOG.warn("tag index file {} of tag [{}] ends at offset {} in {}, as a crash while appending leaves it: the {}"
          + " bytes from there (of events never stored) are cut away", path, tag, pos, torn, size - pos);
      channel.truncate(pos);
      if (fsync) {
        channel.force(true);
      }
    }
  }

  private void index(long pos) {
    if (count++ % INDEX_EVERY != 0) {
      return;
    }
    if (indexSize == indexPos.length) {
      indexPos = Arrays.copyOf(indexPos, indexSize * 2);
    }
    indexPos[indexSize++] = pos;
  }

  /**
   * Appends records; {@link #force} makes them durable.
   *
   * @param entries the records ({@link JournalFormat#entry})
   * @param fsync whether they need forcing
   * @throws IOException if the write fails: the file's state is then unknown
   */
  void append(List<byte[]> entries, boolean fsync) throws IOException {
    int total = 0;
    for (byte[] e : entries) {
      total += e.length;
    }
    ByteBuffer b = ByteBuffer.allocate(total);
    entries.forEach(b::put);
    long at = end;
    DiskIo.writeFully(channel, b.flip(), at);
    end = at + total;
    for (byte[] e : entries) {
      index(at);
      at += e.length;
    }
    dirty |= fsync;
  }

  /**
   * Reads records after an offset, checking each one's CRC.
   *
   * @param afterOffset read the records after this offset
   * @param max the most records to read
   * @return them
   * @throws IOException if a record is corrupt (the message names the file and the offset)
   */
  Chunk read(long afterOffset, int max) throws IOException {
    if (afterOffset >= count || max <= 0) {
      return new Chunk(List.of(), afterOffset >= count);
    }
    RecordReader r = reader(end);
    int slot = (int) (afterOffset / INDEX_EVERY);
    long offset = (long) slot * INDEX_EVERY; // of the record before pos
    long pos = indexPos[slot];
    for (; offset < afterOffset; offset++) {
      String problem = r.frameProblemAt(pos);
      if (problem != null) {
        throw corrupt(pos, problem);
      }
      pos += FRAME + r.intAt(pos);
    }
    List<Entry> entries = new ArrayList<>(Math.min(max, (int) Math.min(Integer.MAX_VALUE, count - offset)));
    while (offset < count && entries.size() < max) {
      String problem = r.problemAt(pos);
      if (problem == null) {
        problem = malformedAt(r, pos);
      }
      if (problem != null) {
        throw corrupt(pos, problem);
      }
      int length = r.intAt(pos);
      byte[] id = new byte[length - ENTRY_FIXED];
      r.copy(pos + FRAME + ENTRY_FIXED, id);
      entries.add(new Entry(++offset, new String(id, StandardCharsets.UTF_8), r.longAt(pos + FRAME),
          r.longAt(pos + FRAME + 8), r.intAt(pos + FRAME + 16)));
      pos += FRAME + length;
    }
    return new Chunk(entries, offset == count);
  }

  private IOException corrupt(long offset, String problem) {
    return new IOException("tag index file " + path + " of tag [" + tag + "] is corrupt at offset " + offset + ": "
        + problem + "; restore it from a backup, or cut it at that offset (the tag's events from there on are then"
        + " no longer found by tag)");
  }

}
