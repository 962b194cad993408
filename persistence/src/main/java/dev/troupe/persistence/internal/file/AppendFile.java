package dev.troupe.persistence.internal.file;

import java.io.IOException;
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
  /** Where the file ended when this object last forced it (or made it forced); -1 if it has not. */
  long durableEnd = -1;

  /**
   * @param path the file
   * @param channel it, open
   * @param dataStart where its records start (after its header)
   */
  AppendFile(Path path, FileChannel channel, long dataStart) {
    this.path = path;
    this.channel = channel;
    this.end = dataStart;
  }

  /**
   * Forces appended records to disk.
   *
   * @throws IOException if forcing fails
   */
  final void force() throws IOException {
    if (dirty && channel != null) {
      channel.force(true);
      dirty = false;
      durableEnd = end;
    }
  }

  /**
   * @param fsync whether the next append will be forced
   * @return whether the next append should start with a sync point: it will be forced, and every
   *     byte before it is known to be on disk (this object forced all it appended)
   */
  final boolean syncPointDue(boolean fsync) {
    return fsync && durableEnd == end;
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
   * Checks that a file starts with its header. A file that ends within a header that is right so
   * far was cut short while it was made (a crash): it starts again, empty.
   *
   * @param ch the file
   * @param expected the header it must start with
   * @param what the file, for the warning (e.g. "journal file x of persistence id [p]")
   * @param fsync whether to force a header written again
   * @param mismatch the error for any other start
   * @return where the records start
   * @throws IOException what {@code mismatch} says, or if reading or writing fails
   */
  static long checkHeader(FileChannel ch, byte[] expected, String what, boolean fsync, HeaderMismatch mismatch)
      throws IOException {
    long size = ch.size();
    java.nio.ByteBuffer got = java.nio.ByteBuffer.allocate((int) Math.min(size, expected.length));
    DiskIo.readFully(ch, got, 0);
    byte[] g = got.array();
    if (!java.util.Arrays.equals(g, 0, g.length, expected, 0, g.length)) {
      throw mismatch.explain(g, size);
    }
    if (g.length < expected.length) {
      LOG.warn("{} ends within its header ({} of {} bytes), as a crash while it was made leaves it: it starts again,"
          + " empty", what, g.length, expected.length);
      ch.truncate(0);
      DiskIo.writeFully(ch, java.nio.ByteBuffer.wrap(expected), 0);
      if (fsync) {
        ch.force(true);
      }
    }
    return expected.length;
  }
}
