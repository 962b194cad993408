package dev.troupe.persistence.internal.file;

import static dev.troupe.persistence.internal.file.JournalFormat.NOT_KNOWN;
import static dev.troupe.persistence.internal.file.JournalFormat.SLOT;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only file of the journal (an actor's journal file or a tag's index file), counted
 * against {@code max-open-files}: it may be closed to keep the open files few and opened again with
 * its state kept, and an IO error that leaves its state unknown makes it unusable (the journal
 * forgets it and reads the file again on its next use). IO thread only.
 *
 * <p>It keeps the slot after its header ({@link JournalFormat}) up to date: after each force it
 * says how far the file is on disk, and before an append that will not be forced it says that this
 * is not known. On open, {@link #tornAt} reads it to tell a torn tail from corruption.
 */
abstract class AppendFile {
  private static final Logger LOG = LoggerFactory.getLogger(AppendFile.class);

  /** The file. */
  final Path path;
  /** Null while closed to keep the open files few (the state stays), or after a failure. */
  FileChannel channel;
  /** Where the next record goes: the end of the sound records. */
  long end;
  /** Appended to, not yet forced. */
  boolean dirty;
  /** Set when an IO error left the file's state unknown. */
  private IOException failure;
  /** Where the slot is, right after the header; -1 in a file of the version without one. */
  long slotAt;
  /** What the slot says: every byte before it is on disk; {@link JournalFormat#NOT_KNOWN} if not known. */
  long forcedTo;

  /**
   * Where a file's parts are, as its header says.
   *
   * @param dataStart where its records start
   * @param slotAt where its slot is, or -1 if it has none
   * @param forcedTo what the slot says ({@link JournalFormat#NOT_KNOWN} without one)
   */
  record Layout(long dataStart, long slotAt, long forcedTo) {}

  /**
   * @param path the file
   * @param channel it, open
   * @param layout where its parts are
   */
  AppendFile(Path path, FileChannel channel, Layout layout) {
    this.path = path;
    this.channel = channel;
    this.end = layout.dataStart();
    this.slotAt = layout.slotAt();
    this.forcedTo = layout.forcedTo();
  }

  /**
   * Forces appended records to disk, then says so in the slot (which the next force takes to disk:
   * until then it says less than it could, never more).
   *
   * @throws IOException if forcing fails
   */
  final void force() throws IOException {
    if (dirty && channel != null) {
      channel.force(true);
      dirty = false;
      forced(end);
    }
  }

  /**
   * Says in the slot that every byte before {@code to} is on disk; not forced itself.
   *
   * @param to how far the file is on disk
   * @throws IOException if the write fails
   */
  final void forced(long to) throws IOException {
    if (slotAt >= 0 && forcedTo != to) {
      DiskIo.writeFully(channel, ByteBuffer.wrap(JournalFormat.slot(to)), slotAt);
      forcedTo = to;
    }
  }

  /**
   * Before an append that will not be forced ({@code fsync = off}): the slot stops saying how far
   * the file is on disk, so that damage found after a crash is judged as in a file without one.
   *
   * @throws IOException if the write fails
   */
  final void appendingUnforced() throws IOException {
    if (slotAt >= 0 && forcedTo != NOT_KNOWN) {
      DiskIo.writeFully(channel, ByteBuffer.wrap(JournalFormat.slot(NOT_KNOWN)), slotAt);
      forcedTo = NOT_KNOWN;
    }
  }

  /**
   * Whether the damaged record the scan on open found at {@code pos} is a torn tail (the writes
   * from there were never acknowledged: cut them away) rather than corruption. Where the slot says
   * how far the file is on disk, that decides it: the disk may keep a later page of an unforced
   * write and lose an earlier one, so sound records after the damage prove nothing. Where it does
   * not, the damage is a tail only if no sound record follows it and it claims no impossible length.
   *
   * @param r the scan's reader
   * @param pos where the damage is
   * @param plausible what a record of the file looks like
   * @return whether it is a torn tail
   * @throws IOException if reading fails
   */
  final boolean tornAt(RecordReader r, long pos, RecordReader.Plausible plausible) throws IOException {
    if (forcedTo != NOT_KNOWN) {
      return pos >= forcedTo;
    }
    return !r.oversizeAt(pos) && !r.validRecordAfter(pos + 1, plausible);
  }

  /**
   * @param cut where the scan on open would cut the file (or where it ends, if nothing is cut)
   * @return why that loses bytes that were on disk, or null if it does not
   */
  final String cutsForced(long cut) {
    return cut < forcedTo
        ? "the file must keep at least " + forcedTo + " bytes, which were on disk (its header's slot says so), but"
            + " its sound records end at " + cut
        : null;
  }

  /** @return whether the file is open */
  final boolean isOpen() {
    return channel != null;
  }

  /**
   * Opens the file again after {@link #release}.
   *
   * @return false if it is no longer as this object left it (its size changed): read it again
   * @throws IOException if it cannot be opened
   */
  final boolean reopen() throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    if (ch.size() != end) {
      closeQuietly(ch);
      return false;
    }
    channel = ch;
    return true;
  }

  /** Forces what was appended, then closes the file; the state stays for {@link #reopen}. */
  final void release() {
    try {
      force();
    } catch (IOException e) {
      fail(e);
    }
    closeQuietly(channel);
    channel = null;
  }

  /** @return the IO error that made this object unusable, or null */
  final IOException failure() {
    return failure;
  }

  /**
   * Marks the state unknown after an IO error, and closes the file.
   *
   * @param e the error
   */
  final void fail(IOException e) {
    if (failure == null) {
      failure = e;
    }
    closeQuietly(channel);
    channel = null;
  }

  /** @param ch a channel to close, or null; an error closing it is only logged */
  static void closeQuietly(FileChannel ch) {
    if (ch == null) {
      return;
    }
    try {
      ch.close();
    } catch (IOException e) {
      LOG.debug("closing a journal file failed", e);
    }
  }

  /** Why a header that is not the expected one is wrong, for the error. */
  @FunctionalInterface
  interface HeaderMismatch {
    /**
     * @param got the file's first bytes (at most the expected header's length)
     * @param size the file's size
     * @return the error to throw
     * @throws IOException if reading more of the file to say why fails
     */
    IOException explain(byte[] got, long size) throws IOException;
  }

  /**
   * Checks that a file starts with its header, of this version (then its slot follows) or of the
   * version before the slot, and reads the slot. A file that ends within a header (or slot) that is
   * right so far was cut short while it was made (a crash): it starts again, empty, in this version.
   *
   * @param ch the file
   * @param expected the header it must start with
   * @param unslotted the header of the same name in the version without the slot
   * @param what the file, for the warning (e.g. "journal file x of persistence id [p]")
   * @param fsync whether to force a header written again
   * @param mismatch the error for any other start
   * @return where its parts are
   * @throws IOException what {@code mismatch} says, or if reading or writing fails
   */
  static Layout checkHeader(FileChannel ch, byte[] expected, byte[] unslotted, String what, boolean fsync,
      HeaderMismatch mismatch) throws IOException {
    long size = ch.size();
    ByteBuffer got = ByteBuffer.allocate((int) Math.min(size, expected.length + SLOT));
    DiskIo.readFully(ch, got, 0);
    byte[] g = got.array();
    int n = Math.min(g.length, expected.length);
    if (n == expected.length && java.util.Arrays.equals(g, 0, n, unslotted, 0, n)) {
      return new Layout(n, -1, NOT_KNOWN);
    }
    if (!java.util.Arrays.equals(g, 0, n, expected, 0, n) && !java.util.Arrays.equals(g, 0, n, unslotted, 0, n)) {
      throw mismatch.explain(java.util.Arrays.copyOf(g, n), size);
    }
    if (g.length < expected.length + SLOT) {
      LOG.warn("{} ends within its header ({} of {} bytes), as a crash while it was made leaves it: it starts again,"
          + " empty", what, g.length, expected.length + SLOT);
      ch.truncate(0);
      return writeHeader(ch, expected, fsync);
    }
    long forcedTo = JournalFormat.forcedTo(java.util.Arrays.copyOfRange(g, expected.length, g.length));
    if (forcedTo == NOT_KNOWN) {
      LOG.debug("{} does not say how far it is on disk", what);
    }
    return new Layout(g.length, expected.length, forcedTo);
  }

  /**
   * Writes a new file's header and slot (with fsync, the slot says the header is on disk, and the
   * file is forced).
   *
   * @param ch the file, empty
   * @param header its header
   * @param fsync whether to force it
   * @return where its parts are
   * @throws IOException if writing or forcing fails
   */
  static Layout writeHeader(FileChannel ch, byte[] header, boolean fsync) throws IOException {
    long dataStart = header.length + SLOT;
    long forcedTo = fsync ? dataStart : NOT_KNOWN;
    ByteBuffer b = ByteBuffer.allocate((int) dataStart).put(header).put(JournalFormat.slot(forcedTo)).flip();
    DiskIo.writeFully(ch, b, 0);
    if (fsync) {
      ch.force(true);
    }
    return new Layout(dataStart, header.length, forcedTo);
  }
}
