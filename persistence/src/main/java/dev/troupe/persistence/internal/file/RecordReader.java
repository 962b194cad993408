package dev.troupe.persistence.internal.file;

import static dev.troupe.persistence.internal.file.JournalFormat.FRAME;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * Reads the framed records of a journal or tag index file ({@link JournalFormat}: a length, a
 * CRC32C, a body) through a window of {@value #WINDOW} bytes, up to a size fixed when made. It
 * never allocates by what a file claims: a length over the most a body may have is a problem, not
 * a buffer.
 */
final class RecordReader {
  /** Whether a sound-looking record at a position may be one of the file's kind, before its CRC is checked. */
  interface Plausible {
    boolean test(RecordReader r, long pos, int length) throws IOException;
  }

  private static final int WINDOW = 64 * 1024;
  private final FileChannel channel;
  private final long size;
  private final long maxBody;
  private final int minBody;
  private final String maxHint;
  private final ByteBuffer buf = ByteBuffer.allocate(WINDOW);
  private long start;
  private int filled;

  /**
   * @param channel the file
   * @param size where reading ends
   * @param minBody the fewest bytes a body has
   * @param maxBody the most bytes a body may have
   * @param maxHint what makes up that most, for the message of a record claiming more
   */
  RecordReader(FileChannel channel, long size, int minBody, long maxBody, String maxHint) {
    this.channel = channel;
    this.size = size;
    this.minBody = minBody;
    this.maxBody = maxBody;
    this.maxHint = maxHint;
  }

  /** @return where in {@link #buf} the {@code n} bytes at {@code pos} are ({@code n <= WINDOW}, within the size) */
  private int at(long pos, int n) throws IOException {
    if (pos < start || pos + n > start + filled) {
      buf.clear().limit((int) Math.min(WINDOW, size - pos));
      DiskIo.readFully(channel, buf, pos);
      start = pos;
      filled = buf.limit();
    }
    return (int) (pos - start);
  }

  int intAt(long pos) throws IOException {
    return buf.getInt(at(pos, 4));
  }

  long longAt(long pos) throws IOException {
    return buf.getLong(at(pos, 8));
  }

  byte byteAt(long pos) throws IOException {
    return buf.get(at(pos, 1));
  }

  /** Fills {@code dst} with the bytes from {@code pos}. */
  void copy(long pos, byte[] dst) throws IOException {
    for (int done = 0; done < dst.length; ) {
      int n = Math.min(WINDOW, dst.length - done);
      buf.get(at(pos + done, n), dst, done, n);
      done += n;
    }
  }

  private boolean crcMatches(long pos, int length) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), at(pos, 4), 4);
    for (long done = 0; done < length; ) {
      int n = (int) Math.min(WINDOW, length - done);
      crc.update(buf.array(), at(pos + FRAME + done, n), n);
      done += n;
    }
    return (int) crc.getValue() == intAt(pos + 4);
  }

  /** @return why no sound record starts at {@code pos}, or null if one does (its CRC matches) */
  String problemAt(long pos) throws IOException {
    String problem = frameProblemAt(pos);
    if (problem != null) {
      return problem;
    }
    int length = intAt(pos);
    return crcMatches(pos, length) ? null : "a record of " + length + " bytes whose CRC does not match";
  }

  /**
   * @return why the frame at {@code pos} cannot start a record (cut short, a length out of bounds
   *     or past the end), or null if it may: its CRC is not checked
   */
  String frameProblemAt(long pos) throws IOException {
    if (size - pos < FRAME) {
      return "a record header cut short (" + (size - pos) + " of " + FRAME + " bytes)";
    }
    int length = intAt(pos);
    if (oversizeAt(pos)) {
      return "a record length of " + Integer.toUnsignedString(length) + " bytes, over the most a record may have ("
          + maxBody + " bytes: " + maxHint + ")";
    }
    if (length < minBody) {
      return "a record length of " + length + " bytes (under the least a record has)";
    }
    if (length > size - pos - FRAME) {
      return "a record of " + length + " bytes that runs past the end (" + (size - pos - FRAME) + " bytes are left)";
    }
    return null;
  }

  /** @return whether a whole record header at {@code pos} claims more than any record has */
  boolean oversizeAt(long pos) throws IOException {
    if (size - pos < FRAME) {
      return false;
    }
    int length = intAt(pos);
    return length < 0 || length > maxBody;
  }

  /**
   * Whether a sound record starts anywhere in [from, size): if so, what lies before it is no torn
   * tail but corruption.
   *
   * @param from the first position to try
   * @param plausible what the file's records look like besides their length and CRC
   */
  boolean validRecordAfter(long from, Plausible plausible) throws IOException {
    for (long p = from; p <= size - FRAME - minBody; p++) {
      int length = intAt(p);
      if (length < minBody || length > maxBody || length > size - p - FRAME) {
        continue;
      }
      if (plausible.test(this, p, length) && crcMatches(p, length)) {
        return true;
      }
    }
    return false;
  }
}
