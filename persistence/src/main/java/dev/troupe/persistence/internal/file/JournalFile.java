package dev.troupe.persistence.internal.file;

import static dev.troupe.persistence.internal.file.JournalFormat.COMPACTED;
import static dev.troupe.persistence.internal.file.JournalFormat.COMPACTED_BODY;
import static dev.troupe.persistence.internal.file.JournalFormat.COMPACTED_HIGHEST_AT;
import static dev.troupe.persistence.internal.file.JournalFormat.EVENT_FIXED;
import static dev.troupe.persistence.internal.file.JournalFormat.FRAME;
import static dev.troupe.persistence.internal.file.JournalFormat.MANIFEST_LENGTH_AT;
import static dev.troupe.persistence.internal.file.JournalFormat.MAX_TAGS;
import static dev.troupe.persistence.internal.file.JournalFormat.MAX_TAGS_LENGTH;
import static dev.troupe.persistence.internal.file.JournalFormat.MAX_TAG_BYTES;
import static dev.troupe.persistence.internal.file.JournalFormat.SEQ_AT;
import static dev.troupe.persistence.internal.file.JournalFormat.SERIALIZER_AT;
import static dev.troupe.persistence.internal.file.JournalFormat.SYNCED;
import static dev.troupe.persistence.internal.file.JournalFormat.SYNCED_BODY;
import static dev.troupe.persistence.internal.file.JournalFormat.TAG_COUNT_AT;
import static dev.troupe.persistence.internal.file.JournalFormat.TIMESTAMP_AT;
import static dev.troupe.persistence.internal.file.JournalFormat.TOMBSTONE;
import static dev.troupe.persistence.internal.file.JournalFormat.TOMBSTONE_BODY;
import static dev.troupe.persistence.internal.file.JournalFormat.TYPE_AT;
import static dev.troupe.persistence.internal.file.JournalFormat.endsWrite;
import static dev.troupe.persistence.internal.file.JournalFormat.isEvent;
import static dev.troupe.persistence.internal.file.JournalFormat.isTagged;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One persistent actor's journal file (see {@link JournalFormat}) and what is known of it: where
 * it ends, the highest sequence number, the highest deletion marker, and a sparse index (the offset
 * of every {@value #INDEX_EVERY}th event) that lets a replay start near its first event. Opening
 * reads the whole file once and checks every record's CRC. Used on its journal's IO thread only.
 *
 * <p>{@link Compaction} rewrites the file without its deleted events, over several tasks of the IO
 * thread, and switches this object to the new file in the last one: its positions change then, and
 * {@link #generation} counts the switches, so that a position found before one is never used after
 * it.
 *
 * <p>Why one file (about 760 lines): the scan on open, appends, replay, locating events for tag
 * reads and the compaction all read and move the same state — the end, the highest and deleted-to
 * numbers, the sparse index, the channel — and must agree on what a record is; the reading of
 * records is {@link RecordReader}'s, the bytes {@link JournalFormat}'s.
 */
final class JournalFile extends AppendFile {
  private static final Logger LOG = LoggerFactory.getLogger(JournalFile.class);
  static final int INDEX_EVERY = 256;

  /**
   * An event as stored, not yet deserialized.
   *
   * @param sequenceNr its sequence number
   * @param timestamp when it was written
   * @param serializerId the serializer that wrote it
   * @param manifest the serializer's manifest
   * @param payload its bytes
   * @param tags its tags (empty: none)
   */
  record StoredEvent(long sequenceNr, long timestamp, int serializerId, String manifest, byte[] payload,
      Set<String> tags) {}

  /**
   * Where a stored event is, and what a tag index record is checked against.
   *
   * @param pos where its record starts
   * @param timestamp its timestamp
   * @param crc its record's CRC32C
   * @param tags its tags
   * @param generation the file's {@link #generation} when it was found: the position holds in it only
   */
  record Located(long pos, long timestamp, int crc, Set<String> tags, long generation) {}

  final String persistenceId;
  /** The longest body a record may have: the largest event and its fields. */
  private final long maxBody;
  private final long dataStart;
  /** Where the records that compaction keeps start: after the compaction marker of a compacted file. */
  private long keptFrom;
  /** How many times compaction switched this object to a new file (whose positions differ). */
  private long generation;
  private long highest;
  private long deletedTo;
  private long events;
  private long[] indexSeq = new long[8];
  private long[] indexPos = new long[8];
  private int indexSize;

  private JournalFile(String persistenceId, Path path, long maxBody, FileChannel channel, long dataStart) {
    super(path, channel, dataStart);
    this.persistenceId = persistenceId;
    this.maxBody = maxBody;
    this.dataStart = dataStart;
    this.keptFrom = dataStart;
  }

  /**
   * Makes a new, empty file.
   *
   * @param persistenceId its actor
   * @param path where; must not exist
   * @param maxEventSize max-event-size
   * @param fsync whether to force the file and its directory entry to disk
   * @return the open file
   * @throws IOException if it cannot be made
   */
  static JournalFile create(String persistenceId, Path path, long maxEventSize, boolean fsync) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      byte[] header = JournalFormat.header(persistenceId);
      DiskIo.writeFully(ch, ByteBuffer.wrap(header), 0);
      if (fsync) {
        ch.force(true);
        DiskIo.forceDirectory(path.getParent());
      }
      JournalFile f = new JournalFile(persistenceId, path, maxBody(maxEventSize), ch, header.length);
      if (fsync) {
        f.durableEnd = header.length;
      }
      return f;
    } catch (IOException | RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  /**
   * Opens an existing file and reads it once: checks its header and every record, builds the
   * index, and cuts a torn tail away.
   *
   * @param persistenceId its actor
   * @param path where
   * @param maxEventSize max-event-size
   * @param fsync whether to force a truncation to disk
   * @return the open file
   * @throws IOException if it cannot be read, holds another actor's events, or is corrupt (the
   *     message names the file and the offset)
   */
  static JournalFile open(String persistenceId, Path path, long maxEventSize, boolean fsync) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      long dataStart = checkHeader(ch, persistenceId, path, fsync);
      JournalFile f = new JournalFile(persistenceId, path, maxBody(maxEventSize), ch, dataStart);
      f.scan(fsync);
      return f;
    } catch (IOException | RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  /** @return the longest body a record may have: an event of max-event-size with the most tags */
  private static long maxBody(long maxEventSize) {
    return EVENT_FIXED + MAX_TAGS_LENGTH + maxEventSize;
  }

  private RecordReader reader(long size) {
    return new RecordReader(channel, size, TOMBSTONE_BODY, maxBody,
        "max-event-size, the event's fields and its tags; was it lowered since the file was written?");
  }

  /** What a record of this file looks like before its CRC is checked: of a known type. */
  private static boolean plausible(RecordReader r, long pos, int length) throws IOException {
    byte type = r.byteAt(pos + TYPE_AT);
    return isEvent(type) || type == TOMBSTONE || type == COMPACTED || type == SYNCED;
  }

  /** A sound sync point at its own position: every byte before it was on disk when it was written. */
  private static boolean syncPoint(RecordReader r, long pos, int length) throws IOException {
    return length == SYNCED_BODY && r.byteAt(pos + TYPE_AT) == SYNCED && r.longAt(pos + SEQ_AT) == pos;
  }

  /** @return where the records start */
  private static long checkHeader(FileChannel ch, String persistenceId, Path path, boolean fsync) throws IOException {
    return checkHeader(ch, JournalFormat.header(persistenceId), "journal file " + path + " of persistence id ["
        + persistenceId + "]", fsync, (g, size) -> new IOException("journal file " + path
        + " cannot hold the events of persistence id [" + persistenceId + "]: " + headerMismatch(ch, g, size)));
  }

  private static String headerMismatch(FileChannel ch, byte[] g, long size) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(g);
    if (g.length < 8 || b.getInt(0) != JournalFormat.MAGIC) {
      return "it is no Troupe journal file (it does not start with the journal's magic number)";
    }
    if (b.getInt(4) != JournalFormat.VERSION) {
      return "it has journal format version " + b.getInt(4) + ", and this journal reads version " + JournalFormat.VERSION;
    }
    int n = g.length >= 12 ? b.getInt(8) : -1;
    if (n >= 0 && n <= size - 16 && n <= 1 << 20) {
      ByteBuffer id = ByteBuffer.allocate(n);
      DiskIo.readFully(ch, id, 12);
      return "its header names persistence id [" + new String(id.array(), StandardCharsets.UTF_8) + "] (two ids whose"
          + " file names are alike: one is the SHA-256 hex of the other, or they differ only in case on a file system"
          + " that ignores case)";
    }
    return "its header is corrupt";
  }

  private void scan(boolean fsync) throws IOException {
    long size = channel.size();
    RecordReader r = reader(size);
    long pos = dataStart;
    long lastSeq = 0;
    long groupStart = -1; // where the atomic write being read started, while it is not complete
    long committedEvents = 0;
    int committedIndex = 0;
    String torn = null;
    while (pos < size) {
      String problem = r.problemAt(pos);
      if (problem != null) {
        // corruption if it claims an impossible length (no torn write does), or, with fsync, if a
        // sync point follows it (see JournalFormat); without fsync, if any sound record does
        if (r.oversizeAt(pos) || r.validRecordAfter(pos + 1, fsync ? JournalFile::syncPoint : JournalFile::plausible)) {
          throw corrupt(pos, problem);
        }
        torn = problem;
        break;
      }
      String malformed = malformedAt(r, pos);
      if (malformed != null) {
        throw corrupt(pos, malformed);
      }
      byte type = r.byteAt(pos + TYPE_AT);
      if (type == SYNCED) {
        if (groupStart >= 0) {
          throw corrupt(pos, "a sync point within an atomic write");
        }
      } else if (type == TOMBSTONE) {
        if (groupStart >= 0) {
          throw corrupt(pos, "a deletion marker within an atomic write");
        }
        deletedTo = Math.max(deletedTo, r.longAt(pos + SEQ_AT));
      } else if (type == COMPACTED) {
        if (groupStart >= 0) {
          throw corrupt(pos, "a compaction marker within an atomic write");
        }
        deletedTo = Math.max(deletedTo, r.longAt(pos + SEQ_AT));
        highest = Math.max(highest, r.longAt(pos + COMPACTED_HIGHEST_AT));
        keptFrom = pos == dataStart ? pos + FRAME + COMPACTED_BODY : keptFrom;
      } else {
        long seq = r.longAt(pos + SEQ_AT);
        if (seq <= lastSeq || (groupStart >= 0 && seq != lastSeq + 1)) {
          throw corrupt(pos, "event " + seq + " after event " + lastSeq);
        }
        index(seq, pos);
        lastSeq = seq;
        if (!endsWrite(type)) {
          groupStart = groupStart < 0 ? pos : groupStart;
        } else {
          groupStart = -1;
          highest = Math.max(highest, seq); // a compaction marker may name a higher one
          committedEvents = events;
          committedIndex = indexSize;
        }
      }
      pos += FRAME + r.intAt(pos);
    }
    end = pos;
    if (groupStart >= 0 || torn != null) {
      long cut = groupStart >= 0 ? groupStart : pos;
      String what = torn != null ? "at offset " + pos + " in " + torn : "in an atomic write without its last event";
      LOG.warn("journal file {} of persistence id [{}] ends {}, as a crash while appending leaves it: the {} bytes"
          + " from offset {} (a write never acknowledged) are cut away", path, persistenceId, what, size - cut, cut);
      channel.truncate(cut);
      if (fsync) {
        channel.force(true);
      }
      end = cut;
      events = committedEvents;
      indexSize = committedIndex;
    }
  }

  private void index(long seq, long pos) {
    if (events++ % INDEX_EVERY != 0) {
      return;
    }
    if (indexSize == indexSeq.length) {
      indexSeq = Arrays.copyOf(indexSeq, indexSize * 2);
      indexPos = Arrays.copyOf(indexPos, indexSize * 2);
    }
    indexSeq[indexSize] = seq;
    indexPos[indexSize++] = pos;
  }

  /** @return the offset of the last indexed event at or before {@code seq}, or where the records start */
  private long indexFloor(long seq) {
    int i = Arrays.binarySearch(indexSeq, 0, indexSize, seq);
    int at = i >= 0 ? i : -i - 2;
    return at >= 0 ? indexPos[at] : dataStart;
  }

  /** @return the highest sequence number stored, deleted or not (or dropped by compaction); 0 if none */
  long highest() {
    return highest;
  }

  /** @return how many times compaction switched this object to a new file */
  long generation() {
    return generation;
  }

  /**
   * Appends an atomic write; {@link #force} makes it durable.
   *
   * @param write the records
   * @param fsync whether it needs forcing
   * @throws IOException if the write fails: the file's state is then unknown
   */
  void append(JournalFormat.Encoded write, boolean fsync) throws IOException {
    syncPointIfDue(fsync);
    long at = end;
    DiskIo.writeFully(channel, ByteBuffer.wrap(write.records()), at);
    end = at + write.records().length;
    int[] offsets = write.eventOffsets();
    for (int i = 0; i < offsets.length; i++) {
      index(write.lowest() + i, at + offsets[i]);
    }
    highest = write.highest();
    dirty |= fsync;
  }

  /**
   * Deletes the events up to a sequence number (at most the highest stored: later events are never
   * deleted in advance) by appending a deletion marker.
   *
   * @param toSequenceNr the highest to delete
   * @param fsync whether to force the marker to disk
   * @throws IOException if the write fails: the file's state is then unknown
   */
  void deleteTo(long toSequenceNr, boolean fsync) throws IOException {
    long to = Math.min(toSequenceNr, highest);
    if (to <= deletedTo) {
      return;
    }
    syncPointIfDue(fsync);
    byte[] marker = JournalFormat.tombstone(to);
    DiskIo.writeFully(channel, ByteBuffer.wrap(marker), end);
    end += marker.length;
    deletedTo = to;
    if (fsync) {
      channel.force(true);
      durableEnd = end;
    }
  }

  /**
   * Appends a sync point if every byte so far is known to be on disk and what follows will be
   * forced: one record of a few bytes before the first append after each force.
   */
  private void syncPointIfDue(boolean fsync) throws IOException {
    if (syncPointDue(fsync)) {
      byte[] sync = JournalFormat.synced(end);
      DiskIo.writeFully(channel, ByteBuffer.wrap(sync), end);
      end += sync.length;
    }
  }

  /**
   * Reads events in order, checking each record's CRC again.
   *
   * @param from the lowest sequence number
   * @param to the highest
   * @param max the most events
   * @param sink takes each event
   * @throws IOException if a record is corrupt (the message names the file and the offset)
   */
  void replay(long from, long to, long max, Consumer<StoredEvent> sink) throws IOException {
    long first = Math.max(from, deletedTo + 1);
    if (max <= 0 || first > to || first > highest) {
      return;
    }
    RecordReader r = reader(end);
    long n = 0;
    for (long pos = indexFloor(first); pos < end && n < max; pos += FRAME + r.intAt(pos)) {
      String problem = r.problemAt(pos);
      if (problem == null) {
        problem = malformedAt(r, pos);
      }
      if (problem != null) {
        throw corrupt(pos, problem);
      }
      if (!isEvent(r.byteAt(pos + TYPE_AT))) {
        continue; // a deletion or compaction marker
      }
      long seq = r.longAt(pos + SEQ_AT);
      if (seq > to) {
        return;
      }
      if (seq >= first) {
        sink.accept(event(r, pos));
        n++;
      }
    }
  }

  /**
   * Finds live events by their numbers, for the tag index: walks from the sparse index's entry
   * before each, reading only the frames of the records it passes (the file's records were all
   * checked when it was opened), and checks the CRC and fields of each event it finds.
   *
   * @param seqs sequence numbers, ascending
   * @return for each, where its event is, or null if it is not stored or deleted
   * @throws IOException if a record on the way is corrupt (the message names the file and the offset)
   */
  Located[] locate(long[] seqs) throws IOException {
    Located[] found = new Located[seqs.length];
    RecordReader r = reader(end);
    long pos = dataStart;
    for (int i = 0; i < seqs.length; i++) {
      long s = seqs[i];
      if (s <= deletedTo || s > highest) {
        continue;
      }
      pos = Math.max(pos, indexFloor(s));
      while (pos < end) {
        String problem = r.frameProblemAt(pos);
        if (problem != null) {
          throw corrupt(pos, problem);
        }
        byte type = r.byteAt(pos + TYPE_AT);
        long seq = isEvent(type) ? r.longAt(pos + SEQ_AT) : 0;
        if (seq > s) {
          break; // not stored
        }
        if (seq == s) {
          problem = r.problemAt(pos);
          if (problem == null) {
            problem = malformedAt(r, pos);
          }
          if (problem != null) {
            throw corrupt(pos, problem);
          }
          found[i] = new Located(pos, r.longAt(pos + TIMESTAMP_AT), r.intAt(pos + 4), tags(r, pos), generation);
          break;
        }
        pos += FRAME + r.intAt(pos);
      }
    }
    return found;
  }

  /**
   * Reads the event that {@link #locate} found, checking its record again. Where compaction
   * switched the file since, the event is found again by its number (compaction copies records
   * unchanged, so it is the same record, found by the same CRC and timestamp).
   *
   * @param found what {@link #locate} found
   * @param seq its sequence number
   * @return it, or null where it was deleted since
   * @throws IOException if the record is corrupt or holds another event
   */
  StoredEvent eventAt(Located found, long seq) throws IOException {
    long pos = found.pos();
    if (found.generation() != generation) {
      Located again = locate(new long[] {seq})[0];
      if (again == null || again.crc() != found.crc() || again.timestamp() != found.timestamp()) {
        return null;
      }
      pos = again.pos();
    }
    RecordReader r = reader(end);
    String problem = pos < dataStart || pos >= end ? "no record" : r.problemAt(pos);
    if (problem == null) {
      problem = malformedAt(r, pos);
    }
    if (problem == null && (!isEvent(r.byteAt(pos + TYPE_AT)) || r.longAt(pos + SEQ_AT) != seq)) {
      problem = "no record of event " + seq;
    }
    if (problem != null) {
      throw corrupt(pos, problem);
    }
    return event(r, pos);
  }

  /**
   * Where the records that compaction would keep start: the first event above the deletion, or the
   * end if none. Every record from {@link #keptFrom} to there is dead (deleted events and deletion
   * markers), as the events of a file are in ascending order. Walks from the sparse index's entry
   * before it, reading only frames (the records were checked when the file was opened).
   *
   * @return its position
   * @throws IOException if a frame on the way is corrupt (the message names the file and the offset)
   */
  long liveFrom() throws IOException {
    RecordReader r = reader(end);
    long pos = Math.max(keptFrom, indexFloor(deletedTo + 1));
    while (pos < end) {
      String problem = r.frameProblemAt(pos);
      if (problem != null) {
        throw corrupt(pos, problem);
      }
      if (isEvent(r.byteAt(pos + TYPE_AT)) && r.longAt(pos + SEQ_AT) > deletedTo) {
        break;
      }
      pos += FRAME + r.intAt(pos);
    }
    return pos;
  }

  /** @return the bytes of dead records that compaction would drop (the compaction marker aside) */
  long deadBytes(long liveFrom) {
    return liveFrom - keptFrom;
  }

  /**
   * Starts rewriting the file without its dead records: makes the new file at {@code temp} (an
   * older one there is replaced), with the header and a compaction marker.
   *
   * @param temp where the new file is made, in the file's directory; no journal file's name
   * @return the compaction, to {@link Compaction#copy} and {@link Compaction#finish}
   * @throws IOException if the new file cannot be made (none is left then)
   */
  Compaction compact(Path temp) throws IOException {
    long from = liveFrom();
    Files.deleteIfExists(temp);
    FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    Compaction c = new Compaction(temp, out, from);
    try {
      DiskIo.writeFully(out, ByteBuffer.wrap(JournalFormat.header(persistenceId)), 0);
      c.writeMarker();
    } catch (IOException | RuntimeException e) {
      c.abort();
      throw e;
    }
    return c;
  }

  /**
   * A rewrite of the file without its dead records, in steps that each run as one task of the IO
   * thread (appends and deletions of the file may run between them: they are copied too, as the
   * file grows). The new file is the header, a compaction marker (the deletion and the highest
   * number as they are when it finishes), the bytes of the old file from the first live event on,
   * unchanged (their records, CRCs and atomic writes as they were), and a sync point. It goes in place of the old
   * one by an atomic rename, so a crash leaves one or the other, both whole; a leftover new file
   * is no journal file by its name, and is deleted when a journal opens the directory.
   */
  final class Compaction {
    private final Path temp;
    private final FileChannel out;
    /** Where the kept bytes start in the old file. */
    private final long from;
    /** Where the kept bytes start in the new one: after the header and the marker. */
    private final long to;
    /** How far the old file is copied. */
    private long copied;

    private Compaction(Path temp, FileChannel out, long from) {
      this.temp = temp;
      this.out = out;
      this.from = from;
      this.to = dataStart + FRAME + COMPACTED_BODY;
      this.copied = from;
    }

    /** @return the file it compacts */
    JournalFile file() {
      return JournalFile.this;
    }

    /** @return the bytes it drops */
    long dropped() {
      return from - keptFrom;
    }

    private void writeMarker() throws IOException {
      DiskIo.writeFully(out, ByteBuffer.wrap(JournalFormat.compacted(deletedTo, highest)), dataStart);
    }

    /**
     * Copies more of the old file; it must be open.
     *
     * @param max the most bytes to copy
     * @param fsync whether to force what it copied (so that no one step forces much)
     * @return whether all of it is copied, up to its present end
     * @throws IOException if reading or writing fails
     */
    boolean copy(long max, boolean fsync) throws IOException {
      long until = Math.min(end, copied + max);
      while (copied < until) {
        out.position(copied - from + to);
        long n = channel.transferTo(copied, until - copied, out);
        if (n <= 0) {
          throw new IOException("journal file " + path + " ends at " + copied + " while being compacted, before "
              + until + " (it was changed behind the journal's back)");
        }
        copied += n;
      }
      if (fsync) {
        out.force(false);
      }
      return copied == end;
    }

    /**
     * Puts the new file in place of the old one, and this object on it: writes the marker again (a
     * deletion may have come since it started), forces the new file (with fsync), renames it over
     * the old one, forces the directory (with fsync). All of the old file must be copied, and it
     * must be open.
     *
     * @param fsync whether to force the new file and the directory
     * @throws IOException if a step fails: before the rename the new file is deleted and the old
     *     one stays in use as it was; after it (forcing the directory failed) this object is on the
     *     new file, whose directory entry may not be durable
     */
    void finish(boolean fsync) throws IOException {
      if (copied != end) {
        throw new IllegalStateException("compaction of " + path + " finishing at " + copied + " of " + end);
      }
      long newEnd = end + to - from;
      byte[] sync = JournalFormat.synced(newEnd);
      try {
        writeMarker();
        // A sync point after the copy: the file is renamed into place only once all of it is on
        // disk, so its last records are no "writes of the last force" a crash may have torn.
        DiskIo.writeFully(out, ByteBuffer.wrap(sync), newEnd);
        // Forced whatever fsync says: after a crash the name must not point at a file whose copy
        // never reached the disk (with fsync off that would lose the whole history, not a tail).
        out.force(true);
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
      closeQuietly(channel);
      channel = out;
      long shift = to - from;
      int kept = 0;
      for (int i = 0; i < indexSize; i++) {
        if (indexPos[i] >= from) {
          indexSeq[kept] = indexSeq[i];
          indexPos[kept++] = indexPos[i] + shift;
        }
      }
      indexSize = kept;
      end = newEnd + sync.length;
      keptFrom = to;
      dirty = false;
      durableEnd = end; // forced above
      generation++;
      if (fsync) {
        DiskIo.forceDirectory(path.getParent());
      }
    }

    /** Gives up: closes and deletes the new file; the old one stays in use as it was. */
    void abort() {
      closeQuietly(out);
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        LOG.warn("the unfinished compaction {} of journal file {} cannot be deleted ({}): the journal deletes it when"
            + " it next opens the directory", temp, path, e.toString());
      }
    }
  }

  private IOException corrupt(long offset, String problem) {
    return new IOException("journal file " + path + " of persistence id [" + persistenceId + "] is corrupt at offset "
        + offset + ": " + problem + "; restore it from a backup, or cut it at that offset to drop the events from there");
  }

  /** @return what is wrong with the fields of the sound record at {@code pos}, or null */
  private static String malformedAt(RecordReader r, long pos) throws IOException {
    int length = r.intAt(pos);
    byte type = r.byteAt(pos + TYPE_AT);
    if (type == TOMBSTONE) {
      return length == TOMBSTONE_BODY && r.longAt(pos + SEQ_AT) >= 0 ? null : "a malformed deletion marker";
    }
    if (type == SYNCED) {
      return length == SYNCED_BODY && r.longAt(pos + SEQ_AT) >= 0 ? null : "a malformed sync point";
    }
    if (type == COMPACTED) {
      return length == COMPACTED_BODY && r.longAt(pos + SEQ_AT) >= 0
          && r.longAt(pos + COMPACTED_HIGHEST_AT) >= r.longAt(pos + SEQ_AT) ? null : "a malformed compaction marker";
    }
    if (!isEvent(type)) {
      return "a record of unknown type " + type;
    }
    boolean tagged = isTagged(type);
    if (length < EVENT_FIXED + (tagged ? 4 : 0)) {
      return "an event record of " + length + " bytes, too short for its fields";
    }
    long recordEnd = pos + FRAME + length;
    long p = pos + MANIFEST_LENGTH_AT;
    if (tagged) {
      int count = r.intAt(pos + TAG_COUNT_AT);
      if (count < 1 || count > MAX_TAGS) {
        return "an event with " + count + " tags (a tagged event has 1 to " + MAX_TAGS + ")";
      }
      p = pos + TAG_COUNT_AT + 4;
      for (int i = 0; i < count; i++) {
        int n = recordEnd - p >= 4 ? r.intAt(p) : -1;
        if (n < 1 || n > MAX_TAG_BYTES || n > recordEnd - p - 4) {
          return "an event whose tag " + (i + 1) + " of " + count + " has a length (" + n + ") out of bounds (1 to "
              + MAX_TAG_BYTES + " bytes) or that does not fit its record";
        }
        p += 4 + n;
      }
      if (recordEnd - p < 4) {
        return "an event record too short for its manifest length after its tags";
      }
    }
    int manifest = r.intAt(p);
    if (manifest < 0 || manifest > recordEnd - p - 4) {
      return "an event whose manifest length (" + manifest + ") does not fit its record";
    }
    return r.longAt(pos + SEQ_AT) >= 1 ? null : "an event with sequence number " + r.longAt(pos + SEQ_AT);
  }

  /** @return the tags of the well-formed event record at {@code pos} */
  private static Set<String> tags(RecordReader r, long pos) throws IOException {
    if (!isTagged(r.byteAt(pos + TYPE_AT))) {
      return Set.of();
    }
    int count = r.intAt(pos + TAG_COUNT_AT);
    Set<String> tags = new HashSet<>(count * 2);
    long p = pos + TAG_COUNT_AT + 4;
    for (int i = 0; i < count; i++) {
      byte[] tag = new byte[r.intAt(p)];
      r.copy(p + 4, tag);
      tags.add(new String(tag, StandardCharsets.UTF_8));
      p += 4 + tag.length;
    }
    return Set.copyOf(tags);
  }

  /** @return where the manifest length of the well-formed event record at {@code pos} is */
  private static long manifestLengthAt(RecordReader r, long pos) throws IOException {
    if (!isTagged(r.byteAt(pos + TYPE_AT))) {
      return pos + MANIFEST_LENGTH_AT;
    }
    int count = r.intAt(pos + TAG_COUNT_AT);
    long p = pos + TAG_COUNT_AT + 4;
    for (int i = 0; i < count; i++) {
      p += 4 + r.intAt(p);
    }
    return p;
  }

  /** @return the well-formed event record at {@code pos} */
  private static StoredEvent event(RecordReader r, long pos) throws IOException {
    int length = r.intAt(pos);
    long at = manifestLengthAt(r, pos);
    int manifestLength = r.intAt(at);
    byte[] manifest = new byte[manifestLength];
    r.copy(at + 4, manifest);
    byte[] payload = new byte[(int) (pos + FRAME + length - at - 4 - manifestLength)];
    r.copy(at + 4 + manifestLength, payload);
    return new StoredEvent(r.longAt(pos + SEQ_AT), r.longAt(pos + TIMESTAMP_AT), r.intAt(pos + SERIALIZER_AT),
        new String(manifest, StandardCharsets.UTF_8), payload, tags(r, pos));
  }
}
