package dev.troupe.persistence.internal.file;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What both file plugins need of the disk: file names for persistence ids, and whole reads and writes. */
public final class DiskIo {
  private static final Logger LOG = LoggerFactory.getLogger(DiskIo.class);
  private static final int MAX_SAFE_LENGTH = 100;

  private DiskIo() {}

  /**
   * The stem of a persistence id's file names: the id itself where it is safe as a file name on
   * every common file system ([A-Za-z0-9._-], 1 to 100 characters, not starting with '.'), else the
   * hex of its SHA-256. Two ids never share a stem unless one is another's hash; the files' headers
   * hold the full id, so even that is caught.
   *
   * @param persistenceId an actor's id
   * @return a name with no separator, no "..", and no leading '.'
   */
  public static String stem(String persistenceId) {
    return isSafe(persistenceId) ? persistenceId : sha256Hex(persistenceId);
  }

  private static boolean isSafe(String id) {
    if (id.isEmpty() || id.length() > MAX_SAFE_LENGTH || id.charAt(0) == '.') {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static String sha256Hex(String id) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /**
   * Writes all of {@code src} at {@code position}.
   *
   * @param channel the file
   * @param src the bytes
   * @param position where they go
   * @throws IOException if the write fails
   */
  static void writeFully(FileChannel channel, ByteBuffer src, long position) throws IOException {
    long at = position;
    while (src.hasRemaining()) {
      at += channel.write(src, at);
    }
  }

  /**
   * Fills {@code dst} from {@code position}.
   *
   * @param channel the file
   * @param dst where the bytes go; filled to its limit
   * @param position where they start
   * @throws IOException if the read fails, or the file ends first
   */
  static void readFully(FileChannel channel, ByteBuffer dst, long position) throws IOException {
    long at = position;
    while (dst.hasRemaining()) {
      int n = channel.read(dst, at);
      if (n < 0) {
        throw new EOFException("the file ends at " + at + ", before " + (at + dst.remaining()));
      }
      at += n;
    }
  }

  /**
   * Makes the directory's entries (a new or renamed or deleted file) durable, where the platform
   * can (Linux and macOS can; Windows cannot open a directory, and needs no such step).
   *
   * @param dir the directory
   * @throws IOException if the directory could be opened but not forced
   */
  public static void forceDirectory(Path dir) throws IOException {
    FileChannel ch;
    try {
      ch = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException e) {
      LOG.debug("cannot open directory {} to force it ({}): its entries are as durable as the platform makes them",
          dir, e.toString());
      return;
    }
    try (ch) {
      ch.force(true);
    }
  }

  /**
   * Locks a plugin's directory for this plugin instance, against a second one of this JVM or of
   * another process (an exclusive lock on a lock file in it).
   *
   * @param dir the directory, which exists
   * @param lockFile the lock file's name
   * @param inUse the message when another holds it: what is in use and how to fix it
   * @return the lock file's channel, holding the lock until it is closed
   * @throws IOException if another holds the lock (with {@code inUse}), or the file cannot be opened
   */
  public static FileChannel lockDirectory(Path dir, String lockFile, String inUse) throws IOException {
    FileChannel ch = FileChannel.open(dir.resolve(lockFile), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock held;
    try {
      held = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      held = null;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (held == null) {
      ch.close();
      throw new IOException(inUse);
    }
    return ch;
  }
}
