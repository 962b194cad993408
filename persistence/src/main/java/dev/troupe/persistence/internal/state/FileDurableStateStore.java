package dev.troupe.persistence.internal.state;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.internal.PluginContext;
import dev.troupe.persistence.internal.file.DiskIo;
import dev.troupe.persistence.internal.file.IoThread;
import dev.troupe.persistence.state.DurableStateRecord;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durable state as files on local disk ({@code troupe.persistence.state.file}): one file per
 * persistence id in {@code dir}, named {@code <id>.state}, where {@code <id>} is the persistence id
 * if it is a safe file name, else its SHA-256 hex. A file is (numbers big-endian):
 *
 * <pre>
 * int magic "TRDS" | int version 2 | int n | n bytes: the persistence id, UTF-8 | long revision
 *   | long offset | long timestamp | int t | t bytes: the tag, UTF-8 | int serializerId
 *   | int m | m bytes: the manifest, UTF-8 | int p (-1: deleted, no value) | int CRC32C of the value
 *   | int CRC32C of the header (all before it) | p bytes: the value
 * </pre>
 *
 * <p>A write serializes the value on the caller's thread (capturing the state as it was when
 * written), then, on the store's one IO thread, writes a temporary file, forces it (with {@code
 * fsync = on}) and renames it over the old one atomically: the file under an id's name is always
 * whole, the old state or the new. Temporary files a crash left are deleted when the store starts.
 * A delete writes the file without a value, keeping the revision and the tag. A damaged file (bad
 * CRC, cut short, another id in its header, over {@code max-state-size}) fails the read naming the
 * file; nothing is skipped.
 *
 * <p>Queries ({@link #changesByTag}, {@link #highestOffset}, {@link #persistenceIds}): each write
 * and delete, of any id, takes the next offset of one sequence for the directory, stored in the
 * file's header with the time. When the store starts it reads the header of every file (at most
 * the fixed fields, the id, the tag and the manifest: never the value, so a large or hostile file
 * costs no more than that) and keeps in memory, per id, its revision, tag and offset, and per tag
 * the offsets of its ids' latest changes; the next offset is one above the highest found. A file
 * whose header is damaged is named in a warning, and fails every query (saying which files, up to
 * ten, and how many) until it is repaired or removed and the store starts again: a query cannot
 * tell what such a file holds, and must not skip it silently. Reading the values of a query's
 * changes reads their files, checked as a {@code getObject} does.
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
  private static final int VERSION = 2;
  private static final int MAX_MANIFEST = 0xFFFF;
  private static final int MAX_TAG = 0xFFFF;
  /** The longest id a header holds, in bytes of UTF-8 (as the file journal's). */
  private static final int MAX_ID = 1 << 20;
  /**
   * The header's fixed fields: magic, version, id length, revision, offset, timestamp, tag length,
   * serializerId, manifest length, value length, value CRC, header CRC.
   */
  private static final int HEADER_FIXED = 4 + 4 + 4 + 8 + 8 + 8 + 4 + 4 + 4 + 4 + 4 + 4;
  /** The longest header: what reading a file's header when the store starts costs at most. */
  private static final int MAX_HEADER = HEADER_FIXED + MAX_ID + MAX_TAG + MAX_MANIFEST;
  /** The first read of a header, enough for most. */
  private static final int FIRST_HEADER_READ = 4096;
  /** Damaged files named in a query's failure. */
  private static final int DAMAGED_NAMED = 10;
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
  /** Every id with a file, as its header says, sorted for {@link #persistenceIds}. */
  private final TreeMap<String, Indexed> index = new TreeMap<>();
  private final TagIndex byTag = new TagIndex();
  /** The highest offset stored or given to a write. */
  private long lastOffset;
  /** The files whose header could not be read when the store started, and why. */
  private final List<String> damaged = new ArrayList<>();

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
  private record Stored(long revision, Optional<Object> value, long offset) {}

  /** What the store keeps of an id's file: its header's revision, tag, offset and time. */
  private record Indexed(long revision, String tag, long offset, long timestamp, boolean deleted) {}

  /** A file's header, as read. */
  private record Header(String persistenceId, long revision, long offset, long timestamp, String tag,
      int serializerId, String manifest, int payloadLength, int payloadCrc, int length) {}

  /** A write's value, serialized (null for a delete). */
  private record Payload(int serializerId, String manifest, byte[] bytes, int crc) {}

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
    Payload payload;
    try {
      checkId(persistenceId);
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(tag, "tag");
      checkRevision(persistenceId, revision);
      Serialized s = context.serialization().serialize(value);
      byte[] bytes = s.bytes();
      if (bytes.length > maxStateSize) {
        throw new IllegalArgumentException("the state of persistence id [" + persistenceId + "] ("
            + value.getClass().getName() + ") is " + bytes.length + " bytes serialized, over max-state-size ("
            + maxStateSize + " bytes)");
      }
      checkLengths(persistenceId, tag, s.manifest());
      CRC32C crc = new CRC32C();
      crc.update(bytes);
      payload = new Payload(s.serializerId(), s.manifest(), bytes, (int) crc.getValue());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return io.submit(() -> {
      write(persistenceId, revision, tag, payload);
      return null;
    });
  }

  @Override
  public CompletionStage<Void> deleteObject(String persistenceId, long revision) {
    try {
      checkId(persistenceId);
      checkRevision(persistenceId, revision);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return io.submit(() -> {
      write(persistenceId, revision, null, null);
      return null;
    });
  }

  @Override
  public CompletionStage<Void> changesByTag(String tag, long afterOffset, long max, Consumer<DurableStateRecord> onChange) {
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(onChange, "onChange");
    return io.submit(() -> {
      startForQuery();
      long n = 0;
      for (Map.Entry<Long, String> e : byTag.after(tag, afterOffset).entrySet()) {
        if (n++ >= max) {
          break;
        }
        String id = e.getValue();
        Indexed i = index.get(id);
        Optional<Object> value = Optional.empty();
        if (!i.deleted()) {
          Stored s = read(id, true);
          if (s.offset() != i.offset() || s.revision() != i.revision()) {
            throw new IOException("state file " + file(id) + " of persistence id [" + id + "] holds revision "
                + s.revision() + " at offset " + s.offset() + ", where this store wrote or read revision "
                + i.revision() + " at offset " + i.offset() + ": was it changed by another program?");
          }
          value = s.value();
        }
        onChange.accept(new DurableStateRecord(i.offset(), id, i.revision(), value, i.timestamp()));
      }
      return null;
    });
  }

  @Override
  public CompletionStage<Long> highestOffset() {
    return io.submit(() -> {
      startForQuery();
      return lastOffset;
    });
  }

  @Override
  public CompletionStage<Void> persistenceIds(Optional<String> afterId, long max, Consumer<String> onId) {
    Objects.requireNonNull(afterId, "afterId");
    Objects.requireNonNull(onId, "onId");
    return io.submit(() -> {
      startForQuery();
      long n = 0;
      for (String id : (afterId.isPresent() ? index.tailMap(afterId.get(), false) : index).keySet()) {
        if (n++ >= max) {
          break;
        }
        onId.accept(id);
      }
      return null;
    });
  }

  /** Lets the calls already made finish, then stops the IO thread; later calls fail. */
  @Override
  public void close() {
    io.close(() -> {
      revisions.clear();
      index.clear();
      byTag.clear();
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

  private static void checkId(String persistenceId) {
    Objects.requireNonNull(persistenceId, "persistenceId");
    if (persistenceId.length() > MAX_ID / 3 && persistenceId.getBytes(StandardCharsets.UTF_8).length > MAX_ID) {
      throw new IllegalArgumentException("persistence id [" + persistenceId.substring(0, 64) + "...] is over " + MAX_ID
          + " bytes of UTF-8, the longest a durable state file holds");
    }
  }

  private static void checkRevision(String persistenceId, long revision) {
    if (revision < 1) {
      throw new IllegalArgumentException("persistence id [" + persistenceId + "]: revision " + revision
          + " cannot be written; the first is 1");
    }
  }

  private static void checkLengths(String persistenceId, String tag, String manifest) {
    int t = tag.getBytes(StandardCharsets.UTF_8).length;
    int m = manifest.getBytes(StandardCharsets.UTF_8).length;
    if (t > MAX_TAG || m > MAX_MANIFEST) {
      throw new IllegalArgumentException("the state of persistence id [" + persistenceId + "] has a tag of " + t
          + " bytes and a manifest of " + m + "; at most " + MAX_TAG + " of each are stored");
    }
  }

  /** @param payload the value, or null for a deleted one */
  private static ByteBuffer header(String persistenceId, long revision, long offset, long timestamp, String tag,
      Payload payload) {
    byte[] id = persistenceId.getBytes(StandardCharsets.UTF_8);
    byte[] t = tag.getBytes(StandardCharsets.UTF_8);
    byte[] m = (payload == null ? "" : payload.manifest()).getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(HEADER_FIXED + id.length + t.length + m.length);
    b.putInt(MAGIC).putInt(VERSION).putInt(id.length).put(id).putLong(revision).putLong(offset).putLong(timestamp)
        .putInt(t.length).put(t).putInt(payload == null ? 0 : payload.serializerId()).putInt(m.length).put(m)
        .putInt(payload == null ? -1 : payload.bytes().length).putInt(payload == null ? 0 : payload.crc());
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue());
    return b.flip();
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
      return new Stored(0, Optional.empty(), 0);
    } catch (IOException | RuntimeException e) {
      throw new IOException("state file " + file + " of persistence id [" + persistenceId + "] cannot be read: "
          + e.getMessage(), e);
    }
  }

  private Stored parse(String persistenceId, Path file, boolean withValue) throws IOException {
    long size = Files.size(file);
    if (size > MAX_HEADER + maxStateSize) {
      throw new IOException("it is " + size + " bytes, over max-state-size (" + maxStateSize + " bytes) and its header");
    }
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
    Header h = parseHeader(b);
    check(h.persistenceId().equals(persistenceId), "its header names another persistence id (one whose file name is alike)");
    int expected = Math.max(h.payloadLength(), 0);
    check(expected == b.limit() - h.length(), "its value should be " + expected + " bytes, and "
        + (b.limit() - h.length()) + " follow the header");
    CRC32C crc = new CRC32C();
    crc.update(b.array(), h.length(), expected);
    check((int) crc.getValue() == h.payloadCrc(), "the CRC of its value does not match");
    if (h.payloadLength() < 0 || !withValue) {
      return new Stored(h.revision(), Optional.empty(), h.offset());
    }
    byte[] payload = Arrays.copyOfRange(b.array(), h.length(), b.limit());
    return new Stored(h.revision(), Optional.of(context.serialization().deserialize(h.serializerId(), h.manifest(),
        payload)), h.offset());
  }

  /**
   * Reads and checks a header (its CRC, its lengths, the value's length against max-state-size).
   *
   * @param b the file's first bytes, at least the whole header
   * @throws IOException saying what is wrong, or that it ends within the header ({@link
   *     BufferUnderflowException} as the cause)
   */
  private Header parseHeader(ByteBuffer b) throws IOException {
    try {
      check(b.getInt() == MAGIC, "it is no Troupe durable state file (it does not start with the magic number)");
      int version = b.getInt();
      check(version == VERSION, "it has format version " + version + ", and this store reads version " + VERSION
          + (version == 1 ? " (version 1 was written before durable state queries: write the state again from its"
              + " actor on a store of that version, or remove the file)" : ""));
      int idLength = b.getInt();
      check(idLength >= 0 && idLength <= MAX_ID, "its id length is corrupt");
      need(b, idLength);
      String id = new String(b.array(), b.position(), idLength, StandardCharsets.UTF_8);
      b.position(b.position() + idLength);
      long revision = b.getLong();
      check(revision >= 1, "its revision " + revision + " is corrupt");
      long offset = b.getLong();
      check(offset >= 1, "its offset " + offset + " is corrupt");
      long timestamp = b.getLong();
      int tagLength = b.getInt();
      check(tagLength >= 0 && tagLength <= MAX_TAG, "its tag length is corrupt");
      need(b, tagLength);
      String tag = new String(b.array(), b.position(), tagLength, StandardCharsets.UTF_8);
      b.position(b.position() + tagLength);
      int serializerId = b.getInt();
      int manifestLength = b.getInt();
      check(manifestLength >= 0 && manifestLength <= MAX_MANIFEST, "its manifest length is corrupt");
      need(b, manifestLength);
      String manifest = new String(b.array(), b.position(), manifestLength, StandardCharsets.UTF_8);
      b.position(b.position() + manifestLength);
      int payloadLength = b.getInt();
      int payloadCrc = b.getInt();
      int headerLength = b.position();
      int stored = b.getInt();
      CRC32C crc = new CRC32C();
      crc.update(b.array(), 0, headerLength);
      check((int) crc.getValue() == stored, "the CRC of its header does not match");
      check(payloadLength >= -1 && payloadLength <= maxStateSize,
          "its value is " + payloadLength + " bytes, over max-state-size (" + maxStateSize + ")");
      return new Header(id, revision, offset, timestamp, tag, serializerId, manifest, payloadLength, payloadCrc,
          b.position());
    } catch (BufferUnderflowException e) {
      throw new IOException("it ends within its header (" + b.limit() + " bytes)", e);
    }
  }

  /** Fails as a read past the end does, if fewer than {@code n} bytes remain. */
  private static void need(ByteBuffer b, int n) {
    if (n > b.remaining()) {
      throw new BufferUnderflowException();
    }
  }

  private static void check(boolean ok, String problem) throws IOException {
    if (!ok) {
      throw new IOException(problem);
    }
  }

  // ------------------------------------------------------------------ the disk

  /**
   * @param tag null for a delete: it keeps the stored one
   * @param payload null for a delete
   */
  private void write(String persistenceId, long revision, String tag, Payload payload) throws IOException {
    start();
    Long known = revisions.get(persistenceId);
    long current = known != null ? known : read(persistenceId, false).revision();
    if (revision != current + 1) {
      revisions.put(persistenceId, current);
      throw RevisionConflict.of(persistenceId, revision, current);
    }
    Indexed before = index.get(persistenceId);
    String t = tag != null ? tag : before != null ? before.tag() : "";
    long offset = ++lastOffset; // taken even if the write fails: no two files ever share one
    long timestamp = System.currentTimeMillis();
    ByteBuffer header = header(persistenceId, revision, offset, timestamp, t, payload);
    Path target = file(persistenceId);
    Path temp = dir.resolve(target.getFileName() + "." + ++temps + TEMP_SUFFIX);
    revisions.remove(persistenceId); // unknown until the rename is done: read again if it fails
    try {
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer[] parts = {header, ByteBuffer.wrap(payload == null ? new byte[0] : payload.bytes())};
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
    indexed(persistenceId, new Indexed(revision, t, offset, timestamp, payload == null));
    if (fsync) {
      DiskIo.forceDirectory(dir);
    }
  }

  /** Puts an id's latest change in the index, in place of its last. */
  private void indexed(String persistenceId, Indexed now) {
    Indexed before = index.put(persistenceId, now);
    byTag.changed(persistenceId, now.tag(), now.offset(), before == null ? null : before.tag(),
        before == null ? 0 : before.offset());
    lastOffset = Math.max(lastOffset, now.offset());
  }

  /** Starts the store for a query: fails if a file's header could not be read, naming the files. */
  private void startForQuery() throws IOException {
    start();
    if (!damaged.isEmpty()) {
      throw new IOException("durable state directory " + dir + " has " + damaged.size() + " damaged file(s), so a"
          + " query cannot tell what they hold: " + String.join("; ", damaged.subList(0, Math.min(DAMAGED_NAMED,
          damaged.size()))) + (damaged.size() > DAMAGED_NAMED ? "; ..." : "")
          + ". Repair or remove them (their actors cannot read their state either), then start the store again");
    }
  }

  /** Reads the header of every state file into the index; a damaged one is remembered and named. */
  private void scan() throws IOException {
    long files = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path p : entries) {
        if (!Files.isRegularFile(p)) {
          continue;
        }
        files++;
        try {
          Header h = readHeader(p);
          String name = DiskIo.stem(h.persistenceId()) + SUFFIX;
          check(name.equals(p.getFileName().toString()), "its header names persistence id [" + h.persistenceId()
              + "], whose file is " + name);
          indexed(h.persistenceId(), new Indexed(h.revision(), h.tag(), h.offset(), h.timestamp(), h.payloadLength() < 0));
        } catch (IOException | RuntimeException e) {
          String problem = p + " (" + e.getMessage() + ")";
          LOG.warn("durable state file {} is damaged: {}. Queries of the store fail until it is repaired or removed",
              p, e.getMessage());
          damaged.add(problem);
        }
      }
    }
    LOG.debug("durable state directory {}: {} files, {} damaged, highest offset {}", dir, files, damaged.size(),
        lastOffset);
  }

  /** Reads a file's header alone: its first 4 KiB, or as much more as its lengths say, at most {@link #MAX_HEADER}. */
  private Header readHeader(Path p) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      long size = ch.size();
      int first = (int) Math.min(size, FIRST_HEADER_READ);
      try {
        return parseHeader(readFully(ch, first));
      } catch (IOException e) {
        if (!(e.getCause() instanceof BufferUnderflowException) || size <= first) {
          throw e;
        }
      }
      return parseHeader(readFully(ch, (int) Math.min(size, MAX_HEADER)));
    }
  }

  private static ByteBuffer readFully(FileChannel ch, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining()) {
      if (ch.read(b, b.position()) < 0) {
        break;
      }
    }
    return b.flip();
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
    scan();
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
