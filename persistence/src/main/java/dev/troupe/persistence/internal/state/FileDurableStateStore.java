package dev.troupe.persistence.internal.state;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.internal.PluginContext;
import dev.troupe.persistence.internal.file.DiskIo;
import dev.troupe.persistence.internal.file.IoThread;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import dev.troupe.serialization.Serialized;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durable state as files on local disk ({@code troupe.persistence.state.file}): one file per
 * persistence id in {@code dir}, named {@code <id>.state}, where {@code <id>} is the persistence id
 * if it is a safe file name, else its SHA-256 hex. A file is (numbers big-endian):
 *
 * <pre>
 * int magic "TRDS" | int version 1 | int n | n bytes: the persistence id, UTF-8 | long revision
 *   | int t | t bytes: the tag, UTF-8 | int serializerId | int m | m bytes: the manifest, UTF-8
 *   | int p (-1: deleted, no value) | int CRC32C of all before it and the payload | p bytes: the value
 * </pre>
 *
 * <p>A write serializes the value on the caller's thread (capturing the state as it was when
 * written), then, on the store's one IO thread, writes a temporary file, forces it (with {@code
 * fsync = on}) and renames it over the old one atomically: the file under an id's name is always
 * whole, the old state or the new. Temporary files a crash left are deleted when the store starts.
 * A delete writes the file without a value, keeping the revision. A damaged file (bad CRC, cut
 * short, another id in its header, over {@code max-state-size}) fails the read naming the file;
 * nothing is skipped.
 *
 * <p>The store remembers each id's revision once it has read or written it, so it must be the
 * directory's only writer: it locks the directory on first use (a lock file, as the file journal
 * does), and a second store on the same directory, of this JVM or another process, fails every call
 * saying so. Thread-safe.
 */
public final class FileDurableStateStore implements DurableStateStore {
  private static final Logger LOG = LoggerFactory.getLogger(FileDurableStateStore.class);
  private static final String SECTION = "troupe.persistence.state.file";
  static final String SUFFIX = ".state";
  private static final String TEMP_SUFFIX = ".tmp";
  /** Safe ids never start with a dot, so this name is no id's file. */
  static final String LOCK_FILE = ".troupe-state.lock";
  private static final int MAGIC = 0x54524453; // "TRDS"
  private static final int VERSION = 1;
  private static final int MAX_MANIFEST = 0xFFFF;
  private static final int MAX_TAG = 0xFFFF;
  /** The header's fixed fields: magic, version, id length, revision, tag length, serializerId, manifest length, value length, CRC. */
  private static final int HEADER_FIXED = 4 + 4 + 4 + 8 + 4 + 4 + 4 + 4 + 4;
  /** The largest max-state-size: a file and its header fit one Java array. */
  private static final long MAX_STATE_SIZE = Integer.MAX_VALUE - (1 << 24);

  private final PluginContext context;
  private final Path dir;
  private final boolean fsync;
  private final long maxStateSize;
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final IoThread io;

  // the IO thread's alone
  /** The revisions of the ids read or written so far. */
  private final Map<String, Long> revisions = new HashMap<>();
  private boolean started;
  private FileChannel lock; // the directory's, held from the first use to close
  private long temps;

  /**
   * Reads the section; touches no file (the directory is made on first use).
   *
   * @param system the system it serves
   * @param config its section: dir, fsync, max-state-size
   * @throws dev.troupe.actor.ConfigurationException if a value is missing or malformed, naming it
   */
  public FileDurableStateStore(ActorSystem system, Config config) {
    this.context = new PluginContext(system, config, SECTION, FileDurableStateStore.class);
    this.dir = context.dir();
    this.fsync = context.flag("fsync");
    this.maxStateSize = context.size("max-state-size", MAX_STATE_SIZE);
    this.io = new IoThread(context.owner(dir), "troupe-file-durable-state-", THREADS);
  }

  /** A file's content, as read. */
  private record Stored(long revision, Optional<Object> value) {}

  @Override
  public CompletionStage<GetObjectResult> getObject(String persistenceId) {
    Objects.requireNonNull(persistenceId, "persistenceId");
    return io.submit(() -> {
      start();
      Stored s = read(persistenceId, true);
      revisions.put(persistenceId, s.revision());
      return new GetObjectResult(s.value(), s.revision());
    });
  }

  @Override
  public CompletionStage<Void> upsertObject(String persistenceId, long revision, Object value, String tag) {
    if (io.isClosed()) {
      return CompletableFuture.failedFuture(io.closedException());
    }
    ByteBuffer header;
    byte[] payload;
    try {
      Objects.requireNonNull(persistenceId, "persistenceId");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(tag, "tag");
      Serialized s = context.serialization().serialize(value);
      payload = s.bytes();
      if (payload.length > maxStateSize) {
        throw new IllegalArgumentException("the state of persistence id [" + persistenceId + "] ("
            + value.getClass().getName() + ") is " + payload.length + " bytes serialized, over max-state-size ("
            + maxStateSize + " bytes)");
      }
      header = header(persistenceId, revision, tag, s.serializerId(), s.manifest(), payload);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return io.submit(() -> {
      write(persistenceId, revision, header, payload);
      return null;
    });
  }

  @Override
  public CompletionStage<Void> deleteObject(String persistenceId, long revision) {
    ByteBuffer header;
    try {
      Objects.requireNonNull(persistenceId, "persistenceId");
      header = header(persistenceId, revision, "", 0, "", null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return io.submit(() -> {
      write(persistenceId, revision, header, new byte[0]);
      return null;
    });
  }

  /** Lets the calls already made finish, then stops the IO thread; later calls fail. */
  @Override
  public void close() {
    io.close(() -> {
      revisions.clear();
      if (lock != null) {
        try {
          lock.close();
        } catch (IOException e) {
          LOG.debug("closing the lock file of {} failed", dir, e);
        }
        lock = null;
      }
    });
  }

  // ------------------------------------------------------------------ the format

  /** @param payload the value, or null for a deleted one */
  private static ByteBuffer header(String persistenceId, long revision, String tag, int serializerId, String manifest,
      byte[] payload) {
    if (revision < 1) {
      throw new IllegalArgumentException("persistence id [" + persistenceId + "]: revision " + revision
          + " cannot be written; the first is 1");
    }
    byte[] id = persistenceId.getBytes(StandardCharsets.UTF_8);
    byte[] t = tag.getBytes(StandardCharsets.UTF_8);
    byte[] m = manifest.getBytes(StandardCharsets.UTF_8);
    if (t.length > MAX_TAG || m.length > MAX_MANIFEST) {
      throw new IllegalArgumentException("the state of persistence id [" + persistenceId + "] has a tag of " + t.length
          + " bytes and a manifest of " + m.length + "; at most " + MAX_TAG + " of each are stored");
    }
    ByteBuffer b = ByteBuffer.allocate(HEADER_FIXED + id.length + t.length + m.length);
    b.putInt(MAGIC).putInt(VERSION).putInt(id.length).put(id).putLong(revision).putInt(t.length).put(t)
        .putInt(serializerId).putInt(m.length).put(m).putInt(payload == null ? -1 : payload.length);
    b.putInt(crc(b.array(), b.position(), payload == null ? new byte[0] : payload));
    return b.flip();
  }

  private static int crc(byte[] header, int headerLength, byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(header, 0, headerLength);
    crc.update(payload);
    return (int) crc.getValue();
  }

  /**
   * @param withValue whether to deserialize the value (else only the revision is wanted)
   * @return what the id's file holds; revision 0 and no value if it has none
   */
  private Stored read(String persistenceId, boolean withValue) throws IOException {
    Path file = file(persistenceId);
    try {
      return parse(persistenceId, file, withValue);
    } catch (NoSuchFileException e) {
      return new Stored(0, Optional.empty());
    } catch (IOException | RuntimeException e) {
      throw new IOException("state file " + file + " of persistence id [" + persistenceId + "] cannot be read: "
          + e.getMessage(), e);
    }
  }

  private Stored parse(String persistenceId, Path file, boolean withValue) throws IOException {
    byte[] id = persistenceId.getBytes(StandardCharsets.UTF_8);
    long size = Files.size(file);
    if (size > HEADER_FIXED + id.length + MAX_TAG + MAX_MANIFEST + maxStateSize) {
      throw new IOException("it is " + size + " bytes, over max-state-size (" + maxStateSize + " bytes) and its header");
    }
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
    try {
      check(b.getInt() == MAGIC, "it is no Troupe durable state file (it does not start with the magic number)");
      int version = b.getInt();
      check(version == VERSION, "it has format version " + version + ", and this store reads version " + VERSION);
      int idLength = b.getInt();
      check(idLength == id.length && id.length <= b.remaining()
              && Arrays.equals(id, 0, id.length, b.array(), b.position(), b.position() + id.length),
          "its header names another persistence id (one whose file name is alike)");
      b.position(b.position() + id.length);
      long revision = b.getLong();
      check(revision >= 1, "its revision " + revision + " is corrupt");
      int tagLength = b.getInt();
      check(tagLength >= 0 && tagLength <= Math.min(MAX_TAG, b.remaining()), "its tag length is corrupt");
      b.position(b.position() + tagLength);
      int serializerId = b.getInt();
      int manifestLength = b.getInt();
      check(manifestLength >= 0 && manifestLength <= Math.min(MAX_MANIFEST, b.remaining()), "its manifest length is corrupt");
      String manifest = new String(b.array(), b.position(), manifestLength, StandardCharsets.UTF_8);
      b.position(b.position() + manifestLength);
      int payloadLength = b.getInt();
      check(payloadLength >= -1 && payloadLength <= maxStateSize,
          "its value is " + payloadLength + " bytes, over max-state-size (" + maxStateSize + ") or corrupt");
      int headerLength = b.position();
      int stored = b.getInt();
      int expected = Math.max(payloadLength, 0);
      check(expected == b.remaining(), "its value should be " + expected + " bytes, and " + b.remaining()
          + " follow the header");
      byte[] payload = Arrays.copyOfRange(b.array(), b.position(), b.limit());
      check(crc(b.array(), headerLength, payload) == stored, "its CRC does not match");
      if (payloadLength < 0 || !withValue) {
        return new Stored(revision, Optional.empty());
      }
      return new Stored(revision, Optional.of(context.serialization().deserialize(serializerId, manifest, payload)));
    } catch (BufferUnderflowException e) {
      throw new IOException("it ends within its header (" + b.limit() + " bytes)", e);
    }
  }

  private static void check(boolean ok, String problem) throws IOException {
    if (!ok) {
      throw new IOException(problem);
    }
  }

  // ------------------------------------------------------------------ the disk

  private void write(String persistenceId, long revision, ByteBuffer header, byte[] payload) throws IOException {
    start();
    Long known = revisions.get(persistenceId);
    long current = known != null ? known : read(persistenceId, false).revision();
    if (revision != current + 1) {
      revisions.put(persistenceId, current);
      throw RevisionConflict.of(persistenceId, revision, current);
    }
    Path target = file(persistenceId);
    Path temp = dir.resolve(target.getFileName() + "." + ++temps + TEMP_SUFFIX);
    revisions.remove(persistenceId); // unknown until the rename is done: read again if it fails
    try {
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer[] parts = {header.duplicate(), ByteBuffer.wrap(payload)};
        while (parts[0].hasRemaining() || parts[1].hasRemaining()) {
          ch.write(parts);
        }
        if (fsync) {
          ch.force(true);
        }
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temp);
      throw e;
    }
    revisions.put(persistenceId, revision);
    if (fsync) {
      DiskIo.forceDirectory(dir);
    }
  }

  /** Makes the directory and deletes the temporary files a crash left; once. */
  private void start() throws IOException {
    if (started) {
      return;
    }
    Files.createDirectories(dir);
    lock = DiskIo.lockDirectory(dir, LOCK_FILE, "durable state directory " + dir + " is in use by another"
        + " FileDurableStateStore (of this JVM or another process): two stores must not share a directory (each caches"
        + " revisions, and a second writer's updates would be lost); give each its own troupe.persistence.state.file.dir");
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*" + SUFFIX + ".*" + TEMP_SUFFIX)) {
      for (Path p : entries) {
        LOG.debug("deleting {}, a temporary durable state file that a crash left", p);
        deleteQuietly(p);
      }
    }
    started = true;
  }

  private Path file(String persistenceId) {
    return dir.resolve(DiskIo.stem(persistenceId) + SUFFIX);
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      LOG.debug("cannot delete {}: {}", p, e.toString());
    }
  }
}
