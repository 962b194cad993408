package dev.troupe.persistence.internal.file;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.SnapshotMetadata;
import dev.troupe.persistence.SnapshotSelectionCriteria;
import dev.troupe.persistence.internal.PluginContext;
import dev.troupe.persistence.spi.SelectedSnapshot;
import dev.troupe.persistence.spi.SnapshotStore;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
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
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots as files on local disk ({@code troupe.persistence.snapshot-store.local}): one file per
 * snapshot in {@code dir}, named {@code <id>-<sequenceNr>-<timestamp>.snapshot}, where {@code <id>}
 * is the persistence id if it is a safe file name, else its SHA-256 hex. A file is (numbers
 * big-endian):
 *
 * <pre>
 * int magic "TRSN" | int version 1 | int n | n bytes: the persistence id, UTF-8 | long sequenceNr | long timestamp
 *   | int serializerId | int m | m bytes: the manifest, UTF-8 | int p | int CRC32C of all before it and the payload
 *   | p bytes: the payload
 * </pre>
 *
 * <p>A save writes a temporary file, forces it (with {@code fsync = on}), and renames it into
 * place atomically, so a file under a snapshot's name is always whole; temporary files a crash
 * left are deleted when the store starts. A load tries the newest selected snapshot first and
 * falls back to older ones past any that is unreadable, corrupt, too large or no longer
 * deserializes, with a warning each.
 *
 * <p>The store lists its directory once, on first use, and keeps that list up to date itself: it
 * expects to be the directory's only writer. Serialization runs on the caller's thread (capturing
 * the state as it was when saved), all IO on one thread of the store's. Thread-safe.
 */
public final class FileSnapshotStore implements SnapshotStore {
  private static final Logger LOG = LoggerFactory.getLogger(FileSnapshotStore.class);
  private static final String SECTION = "troupe.persistence.snapshot-store.local";
  private static final AtomicInteger THREADS = new AtomicInteger();
  static final String SUFFIX = ".snapshot";
  private static final String TEMP_SUFFIX = ".tmp";
  private static final int MAGIC = 0x5452534E; // "TRSN"
  private static final int VERSION = 1;
  private static final int MAX_MANIFEST = 0xFFFF;
  /** The header's fixed fields: magic, version, id length, seqNr, timestamp, serializerId, manifest length, payload length, CRC. */
  private static final int HEADER_FIXED = 4 + 4 + 4 + 8 + 8 + 4 + 4 + 4 + 4;
  /** The largest max-snapshot-size: a file and its header fit one Java array. */
  private static final long MAX_SNAPSHOT_SIZE = Integer.MAX_VALUE - (1 << 24);
  /** Newest first: highest sequence number, then latest timestamp. */
  private static final Comparator<SnapshotFile> NEWEST_FIRST =
      Comparator.comparingLong(SnapshotFile::sequenceNr).thenComparingLong(SnapshotFile::timestamp).reversed();

  private final PluginContext context;
  private final Path dir;
  private final boolean fsync;
  private final long maxSnapshotSize;
  private final IoThread io;

  // the IO thread's alone
  /** The snapshot files by the stem of their names; null until the directory is listed. */
  private Map<String, NavigableSet<SnapshotFile>> byStem;
  private long temps;

  /** A snapshot file, as its name describes it. */
  private record SnapshotFile(long sequenceNr, long timestamp, Path path) {}

  /**
   * Reads the section; touches no file (the directory is made and listed on first use).
   *
   * @param system the system it serves
   * @param config its section: dir, fsync, max-snapshot-size
   * @throws dev.troupe.actor.ConfigurationException if a value is missing or malformed, naming it
   */
  public FileSnapshotStore(ActorSystem system, Config config) {
    this.context = new PluginContext(system, config, SECTION, FileSnapshotStore.class);
    this.dir = context.dir();
    this.fsync = context.flag("fsync");
    this.maxSnapshotSize = context.size("max-snapshot-size", MAX_SNAPSHOT_SIZE);
    this.io = new IoThread(context.owner(dir), "troupe-file-snapshot-store-", THREADS);
  }

  @Override
  public CompletionStage<Optional<SelectedSnapshot>> load(String persistenceId, SnapshotSelectionCriteria criteria) {
    return io.submit(() -> {
      NavigableSet<SnapshotFile> files = files(persistenceId);
      for (SnapshotFile f : new ArrayList<>(files)) {
        SnapshotMetadata m = new SnapshotMetadata(persistenceId, f.sequenceNr(), f.timestamp());
        if (!criteria.matches(m)) {
          continue;
        }
        try {
          return Optional.of(new SelectedSnapshot(m, read(persistenceId, f)));
        } catch (NoSuchFileException e) {
          LOG.warn("snapshot file {} of persistence id [{}] is gone (deleted by someone else?): an older one is tried",
              f.path(), persistenceId);
          files.remove(f);
        } catch (IOException | SerializationException e) {
          LOG.warn("snapshot file {} of persistence id [{}] is skipped for an older one: {}", f.path(), persistenceId,
              e.getMessage());
        }
      }
      return Optional.empty();
    });
  }

  @Override
  public CompletionStage<Void> save(SnapshotMetadata metadata, Object snapshot) {
    if (io.isClosed()) {
      return CompletableFuture.failedFuture(io.closedException());
    }
    ByteBuffer header;
    byte[] payload;
    try {
      if (metadata.timestamp() < 0) {
        throw new IllegalArgumentException("a snapshot's timestamp must not be negative: " + metadata);
      }
      Serialized s = context.serialization().serialize(snapshot);
      payload = s.bytes();
      if (payload.length > maxSnapshotSize) {
        throw new IllegalArgumentException("the snapshot " + metadata + " (" + snapshot.getClass().getName() + ") is "
            + payload.length + " bytes serialized, over max-snapshot-size (" + maxSnapshotSize + " bytes)");
      }
      header = header(metadata, s);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return io.submit(() -> {
      write(metadata, header, payload);
      return null;
    });
  }

  @Override
  public CompletionStage<Void> delete(SnapshotMetadata metadata) {
    return io.submit(() -> {
      delete(metadata.persistenceId(), f -> f.sequenceNr() == metadata.sequenceNr()
          && (metadata.timestamp() == 0 || f.timestamp() == metadata.timestamp()));
      return null;
    });
  }

  @Override
  public CompletionStage<Void> delete(String persistenceId, SnapshotSelectionCriteria criteria) {
    return io.submit(() -> {
      delete(persistenceId, f -> criteria.matches(new SnapshotMetadata(persistenceId, f.sequenceNr(), f.timestamp())));
      return null;
    });
  }

  /** Lets the calls already made finish, then stops the IO thread; later calls fail. */
  @Override
  public void close() {
    io.close(() -> byStem = null);
  }

  private static ByteBuffer header(SnapshotMetadata m, Serialized s) {
    byte[] id = m.persistenceId().getBytes(StandardCharsets.UTF_8);
    byte[] manifest = s.manifest().getBytes(StandardCharsets.UTF_8);
    if (manifest.length > MAX_MANIFEST) {
      throw new IllegalArgumentException("the snapshot " + m + " has a manifest of " + manifest.length
          + " bytes; at most " + MAX_MANIFEST + " are stored");
    }
    ByteBuffer b = ByteBuffer.allocate(HEADER_FIXED + id.length + manifest.length);
    b.putInt(MAGIC).putInt(VERSION).putInt(id.length).put(id).putLong(m.sequenceNr()).putLong(m.timestamp())
        .putInt(s.serializerId()).putInt(manifest.length).put(manifest).putInt(s.bytes().length);
    b.putInt(crc(b.array(), b.position(), s.bytes()));
    return b.flip();
  }

  private static int crc(byte[] header, int headerLength, byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(header, 0, headerLength);
    crc.update(payload);
    return (int) crc.getValue();
  }

  private void write(SnapshotMetadata m, ByteBuffer header, byte[] payload) throws IOException {
    files(m.persistenceId()); // lists the directory on first use
    String stem = DiskIo.stem(m.persistenceId());
    String name = stem + "-" + m.sequenceNr() + "-" + m.timestamp() + SUFFIX;
    Path target = dir.resolve(name);
    Path temp = dir.resolve(name + "." + ++temps + TEMP_SUFFIX);
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
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temp);
      throw e;
    }
    SnapshotFile saved = new SnapshotFile(m.sequenceNr(), m.timestamp(), target);
    NavigableSet<SnapshotFile> files = byStem.computeIfAbsent(stem, k -> new TreeSet<>(NEWEST_FIRST));
    files.remove(saved);
    files.add(saved);
    // the one snapshot at this sequence number: older saves of it (other timestamps) go
    delete(m.persistenceId(), f -> f.sequenceNr() == m.sequenceNr() && f.timestamp() != m.timestamp());
    if (fsync) {
      DiskIo.forceDirectory(dir);
    }
  }

  private void delete(String persistenceId, Predicate<SnapshotFile> which) throws IOException {
    boolean deleted = false;
    NavigableSet<SnapshotFile> files = files(persistenceId);
    for (Iterator<SnapshotFile> it = files.iterator(); it.hasNext(); ) {
      SnapshotFile f = it.next();
      if (which.test(f)) {
        Files.deleteIfExists(f.path());
        it.remove();
        deleted = true;
      }
    }
    if (files.isEmpty()) {
      byStem.remove(DiskIo.stem(persistenceId));
    }
    if (deleted && fsync) {
      DiskIo.forceDirectory(dir);
    }
  }

  private Object read(String persistenceId, SnapshotFile f) throws IOException {
    byte[] id = persistenceId.getBytes(StandardCharsets.UTF_8);
    long size = Files.size(f.path());
    if (size > HEADER_FIXED + id.length + MAX_MANIFEST + maxSnapshotSize) {
      throw new IOException("it is " + size + " bytes, over max-snapshot-size (" + maxSnapshotSize + " bytes) and its header");
    }
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f.path()));
    try {
      check(b.getInt() == MAGIC, "it is no Troupe snapshot file (it does not start with the magic number)");
      int version = b.getInt();
      check(version == VERSION, "it has format version " + version + ", and this store reads version " + VERSION);
      int idLength = b.getInt();
      check(idLength == id.length && Arrays.equals(id, 0, id.length, b.array(), b.position(), b.position() + id.length),
          "its header names another persistence id (one whose file names are alike)");
      b.position(b.position() + id.length);
      long seq = b.getLong();
      long timestamp = b.getLong();
      check(seq == f.sequenceNr() && timestamp == f.timestamp(),
          "its header says sequence number " + seq + " and timestamp " + timestamp + ", its name other ones");
      int serializerId = b.getInt();
      int manifestLength = b.getInt();
      check(manifestLength >= 0 && manifestLength <= Math.min(MAX_MANIFEST, b.remaining()), "its manifest length is corrupt");
      String manifest = new String(b.array(), b.position(), manifestLength, StandardCharsets.UTF_8);
      b.position(b.position() + manifestLength);
      int payloadLength = b.getInt();
      check(payloadLength <= maxSnapshotSize,
          "its snapshot is " + Integer.toUnsignedString(payloadLength) + " bytes, over max-snapshot-size (" + maxSnapshotSize + ")");
      int headerLength = b.position();
      int stored = b.getInt();
      check(payloadLength >= 0 && payloadLength == b.remaining(),
          "its snapshot should be " + payloadLength + " bytes, and " + b.remaining() + " follow the header");
      byte[] payload = Arrays.copyOfRange(b.array(), b.position(), b.limit());
      check(crc(b.array(), headerLength, payload) == stored, "its CRC does not match");
      return context.serialization().deserialize(serializerId, manifest, payload);
    } catch (BufferUnderflowException e) {
      throw new IOException("it ends within its header (" + b.limit() + " bytes)", e);
    }
  }

  private static void check(boolean ok, String problem) throws IOException {
    if (!ok) {
      throw new IOException(problem);
    }
  }

  /**
   * @return the snapshot files of a persistence id, newest first, listing the directory on first
   *     use; a set that cannot change if it has none
   */
  private NavigableSet<SnapshotFile> files(String persistenceId) throws IOException {
    if (byStem == null) {
      Files.createDirectories(dir);
      Map<String, NavigableSet<SnapshotFile>> all = new HashMap<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
        for (Path p : entries) {
          String name = p.getFileName().toString();
          if (name.endsWith(TEMP_SUFFIX) && name.contains(SUFFIX + ".")) {
            LOG.debug("deleting {}, a temporary snapshot file that a crash left", p);
            deleteQuietly(p);
          } else if (name.endsWith(SUFFIX)) {
            addParsed(all, p, name.substring(0, name.length() - SUFFIX.length()));
          }
        }
      }
      byStem = all;
    }
    return byStem.getOrDefault(DiskIo.stem(persistenceId), Collections.emptyNavigableSet());
  }

  /** Adds the file of a name {@code <stem>-<sequenceNr>-<timestamp>} (numbers in decimal); ignores other names. */
  private static void addParsed(Map<String, NavigableSet<SnapshotFile>> all, Path p, String base) {
    int b = base.lastIndexOf('-');
    int a = b > 0 ? base.lastIndexOf('-', b - 1) : -1;
    if (a <= 0) {
      return;
    }
    String seq = base.substring(a + 1, b);
    String timestamp = base.substring(b + 1);
    if (!seq.matches("[0-9]{1,19}") || !timestamp.matches("[0-9]{1,19}")) {
      return;
    }
    try {
      all.computeIfAbsent(base.substring(0, a), k -> new TreeSet<>(NEWEST_FIRST))
          .add(new SnapshotFile(Long.parseLong(seq), Long.parseLong(timestamp), p));
    } catch (NumberFormatException e) {
      LOG.debug("{} is named like a snapshot file, but its numbers are too large: ignored", p);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      LOG.debug("cannot delete {}: {}", p, e.toString());
    }
  }
}
