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
    }
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
}
