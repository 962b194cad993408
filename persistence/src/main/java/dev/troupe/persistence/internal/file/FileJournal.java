package dev.troupe.persistence.internal.file;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.internal.PluginContext;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A journal in append-only files on local disk ({@code troupe.persistence.journal.file}): one file
 * per persistent actor in {@code dir}, named by its persistence id where that is a safe file name,
 * else by the id's SHA-256; the format is {@link JournalFormat}'s.
 *
 * <p>Every record carries a CRC32C. A file is read once when first used: a tail that a crash cut
 * short (a last record incomplete or failing its CRC, with nothing sound after it, or an atomic
 * write missing its last events) is cut away with a warning, as it was never acknowledged; a bad
 * record with sound ones after it is corruption, and every call for that actor fails naming the
 * file and offset until someone repairs it. Deleting events appends a marker: replay skips what it
 * deletes, and nothing is ever removed from a file (no compaction; a file grows with its actor's
 * whole history).
 *
 * <p>Serialization runs on the caller's thread (so an event is captured as it was when written);
 * all IO runs on one thread of the plugin's, in order. Writes that queue while one is forced are
 * appended and forced together (group commit). At most {@code max-open-files} files are open; the
 * least recently used one is closed beyond that. A lock file keeps a second journal (of this JVM or
 * another) out of the directory. Thread-safe.
 */
public final class FileJournal implements Journal {
  private static final Logger LOG = LoggerFactory.getLogger(FileJournal.class);
  private static final String SECTION = "troupe.persistence.journal.file";
  private static final AtomicInteger THREADS = new AtomicInteger();
  /** The file name of a persistence id is its stem and this. */
  static final String SUFFIX = ".journal";
  /** Safe ids never start with a dot, so this name is no actor's. */
  static final String LOCK_FILE = ".troupe-journal.lock";
  /** Closed files whose state is kept (no new read when used again), at the least. */
  private static final int KNOWN_MIN = 10_000;

  private final PluginContext context;
  private final Path dir;
  private final boolean fsync;
  private final long maxEventSize;
  private final int maxOpenFiles;
  private final IoThread io;
  private final ConcurrentLinkedQueue<WriteRequest> pending = new ConcurrentLinkedQueue<>();

  // the IO thread's alone
  /** The files read so far, least recently used first; bounded. */
  private final LinkedHashMap<String, JournalFile> known = new LinkedHashMap<>(64, 0.75f, true);
  /** The open ones of them, least recently used first; at most maxOpenFiles. */
  private final LinkedHashMap<String, JournalFile> open = new LinkedHashMap<>(64, 0.75f, true);
  private FileChannel lock;

  /**
   * Reads the section; touches no file (the directory is made and locked on first use).
   *
   * @param system the system it serves
   * @param config its section: dir, fsync, max-event-size, max-open-files
   * @throws dev.troupe.actor.ConfigurationException if a value is missing or malformed, naming it
   */
  public FileJournal(ActorSystem system, Config config) {
    this.context = new PluginContext(system, config, SECTION, FileJournal.class);
    this.dir = context.dir();
    this.fsync = context.flag("fsync");
    this.maxEventSize = context.size("max-event-size", JournalFormat.MAX_EVENT_SIZE);
    this.maxOpenFiles = context.count("max-open-files");
    this.io = new IoThread(context.owner(dir), "troupe-file-journal-", THREADS);
  }

  /** One call of {@link #write}: its writes, serialized, and its result. */
  private static final class WriteRequest {
    final List<JournalFormat.Encoded> accepted = new ArrayList<>();
    final List<Optional<Exception>> results = new ArrayList<>();
    final CompletableFuture<List<Optional<Exception>>> result = new CompletableFuture<>();
    /** The files it appended to: an IO error of one fails it. */
    final Set<JournalFile> touched = Collections.newSetFromMap(new IdentityHashMap<>());
    Throwable failure;

    void complete() {
      Throwable e = failure;
      for (JournalFile f : touched) {
        e = e != null ? e : f.failure();
      }
      if (e != null) {
        result.completeExceptionally(e);
      } else {
        result.complete(Collections.unmodifiableList(results));
      }
    }
  }

  @Override
  public CompletionStage<List<Optional<Exception>>> write(List<AtomicWrite> writes) {
    if (io.isClosed()) {
      return CompletableFuture.failedFuture(io.closedException());
    }
    WriteRequest request = new WriteRequest();
    try {
      Serialization s = context.serialization();
      for (AtomicWrite w : writes) {
        try {
          request.accepted.add(JournalFormat.encode(w, s, maxEventSize));
          request.results.add(Optional.empty());
        } catch (RuntimeException e) { // not serializable, or too large: this write alone is rejected
          request.results.add(Optional.of(e));
        }
      }
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    pending.add(request);
    io.submit(() -> {
      appendPending();
      return null;
    }).whenComplete((v, e) -> {
      if (e != null) {
        failPending(e);
      }
    });
    return request.result;
  }

  private void failPending(Throwable e) {
    for (WriteRequest r; (r = pending.poll()) != null; ) {
      r.result.completeExceptionally(e);
    }
  }

  /** On the IO thread: appends every write queued so far, forces the files once, and completes them. */
  private void appendPending() {
    List<WriteRequest> batch = new ArrayList<>();
    for (WriteRequest r; (r = pending.poll()) != null; ) {
      batch.add(r);
    }
    if (batch.isEmpty()) {
      return; // an earlier run took them
    }
    Set<JournalFile> touched = Collections.newSetFromMap(new IdentityHashMap<>());
    try {
      ready();
      for (WriteRequest r : batch) {
        append(r);
        touched.addAll(r.touched);
      }
      for (JournalFile f : touched) {
        try {
          f.force();
        } catch (IOException e) {
          failed(f, e);
        }
      }
    } catch (Throwable e) { // whatever went wrong, no caller may wait forever
      batch.forEach(r -> r.failure = r.failure != null ? r.failure : e);
    }
    batch.forEach(WriteRequest::complete);
  }

  private void append(WriteRequest r) {
    Map<String, Long> highest = new HashMap<>();
    try {
      for (JournalFormat.Encoded w : r.accepted) {
        String id = w.persistenceId();
        Long before = highest.get(id);
        long stored = before != null ? before : highestStored(id);
        if (w.lowest() <= stored) {
          r.failure = new IllegalStateException("persistence id [" + id + "]: a write of events " + w.lowest() + " to "
              + w.highest() + ", but event " + stored + (before != null ? " comes before it in the same call" : " is"
              + " already stored: two writers of one id") + " (nothing of this call is stored)");
          return;
        }
        highest.put(id, w.highest());
      }
    } catch (IOException e) {
      r.failure = e;
      return;
    }
    for (JournalFormat.Encoded w : r.accepted) {
      JournalFile f;
      try {
        f = file(w.persistenceId(), true);
      } catch (IOException e) {
        r.failure = e;
        return;
      }
      r.touched.add(f);
      try {
        f.append(w, fsync);
      } catch (IOException e) {
        failed(f, e);
        return;
      }
    }
  }

  private long highestStored(String persistenceId) throws IOException {
    JournalFile f = file(persistenceId, false);
    return f == null ? 0 : f.highest();
  }

  @Override
  public CompletionStage<Void> replay(
      String persistenceId, long fromSequenceNr, long toSequenceNr, long max, Consumer<PersistentRepr> onEvent) {
    return withFile(persistenceId, null, f -> {
      Serialization s = context.serialization();
      f.replay(fromSequenceNr, toSequenceNr, max, e -> {
        Object payload;
        try {
          payload = s.deserialize(e.serializerId(), e.manifest(), e.payload());
        } catch (SerializationException x) {
          throw new SerializationException("event " + e.sequenceNr() + " of persistence id [" + persistenceId
              + "] in " + f.path + ": " + x.getMessage(), x);
        }
        onEvent.accept(new PersistentRepr(persistenceId, e.sequenceNr(), payload, e.timestamp()));
      });
      return null;
    });
  }

  @Override
  public CompletionStage<Long> highestSequenceNr(String persistenceId) {
    return withFile(persistenceId, 0L, JournalFile::highest);
  }

  @Override
  public CompletionStage<Void> deleteTo(String persistenceId, long toSequenceNr) {
    return withFile(persistenceId, null, f -> {
      f.deleteTo(toSequenceNr, fsync);
      return null;
    });
  }

  /** Journal files whose headers one task of the IO thread reads when listing ids: writes wait no longer. */
  private static final int LIST_CHUNK = 128;

  @Override
  public CompletionStage<Void> currentPersistenceIds(Consumer<String> onId) {
    return io.submit(() -> {
      ready();
      List<Path> files = new ArrayList<>();
      try (DirectoryStream<Path> in = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
        in.forEach(files::add);
      }
      return files;
    }).thenCompose(files -> readIds(files, 0, onId));
  }

  /** Reads the ids of {@code files} from {@code from} on, a chunk per task of the IO thread. */
  private CompletionStage<Void> readIds(List<Path> files, int from, Consumer<String> onId) {
    if (from >= files.size()) {
      return CompletableFuture.completedFuture(null);
    }
    int to = Math.min(files.size(), from + LIST_CHUNK);
    return io.submit(() -> {
      for (Path p : files.subList(from, to)) {
        String id = idOf(p);
        if (id != null) {
          onId.accept(id);
        }
      }
      return null;
    }).thenCompose(done -> readIds(files, to, onId));
  }

  /** @return the id a journal file holds, or null for a file that is none (skipped with a warning) */
  private static String idOf(Path p) {
    String id;
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      id = JournalFormat.readId(ch);
    } catch (NoSuchFileException gone) {
      return null;
    } catch (IOException e) {
      LOG.warn("listing persistence ids: journal file {} cannot be read: {}", p, e.toString());
      return null;
    }
    String name = p.getFileName().toString();
    if (id == null || !name.equals(DiskIo.stem(id) + SUFFIX)) {
      LOG.warn("listing persistence ids: {} is no journal file of this journal's (its header is missing, damaged,"
          + " or names an id of another file name): left out", p);
      return null;
    }
    return id;
  }

  /** Work on an existing journal file. */
  private interface FileTask<T> {
    T run(JournalFile f) throws IOException;
  }

  /**
   * Runs a task on the IO thread with the file of a persistence id; forgets the file if the task
   * fails with an IO error, so that its next use reads it again.
   *
   * @param ifNone the result where the id has no file
   */
  private <T> CompletionStage<T> withFile(String persistenceId, T ifNone, FileTask<T> task) {
    return io.submit(() -> {
      ready();
      JournalFile f = file(persistenceId, false);
      if (f == null) {
        return ifNone;
      }
      try {
        return task.run(f);
      } catch (IOException e) {
        failed(f, e);
        throw e;
      }
    });
  }

  /** Finishes the calls already made, closes the files and stops the IO thread; later calls fail. */
  @Override
  public void close() {
    io.close(() -> {
      known.values().forEach(JournalFile::release);
      known.clear();
      open.clear();
      if (lock != null) {
        closeQuietly(lock);
        lock = null;
      }
      failPending(io.closedException());
    });
  }

  /** Makes the directory if missing and locks it for this journal, once. */
  private void ready() throws IOException {
    if (lock != null) {
      return;
    }
    Files.createDirectories(dir);
    FileChannel ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock held;
    try {
      held = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      held = null;
    } catch (IOException | RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
    if (held == null) {
      closeQuietly(ch);
      throw new IOException("journal directory " + dir + " is in use by another FileJournal (of this JVM or another"
          + " process): two journals must not share a directory; give each its own " + SECTION + ".dir");
    }
    lock = ch;
  }

  /**
   * The file of a persistence id, open, read once if new to this journal.
   *
   * @param create whether to make the file if it does not exist
   * @return it, or null if it does not exist and create is false
   */
  private JournalFile file(String persistenceId, boolean create) throws IOException {
    JournalFile f = known.get(persistenceId);
    if (f != null) {
      if (f.isOpen()) {
        open.get(persistenceId); // most recently used
        return f;
      }
      if (f.reopen()) {
        opened(f);
        return f;
      }
      LOG.warn("journal file {} changed while this journal had it closed: it is read again", f.path);
      known.remove(persistenceId);
    }
    Path path = dir.resolve(DiskIo.stem(persistenceId) + SUFFIX);
    if (Files.exists(path)) {
      f = JournalFile.open(persistenceId, path, maxEventSize, fsync);
    } else if (create) {
      f = JournalFile.create(persistenceId, path, maxEventSize, fsync);
    } else {
      return null;
    }
    known.put(persistenceId, f);
    opened(f);
    if (known.size() > Math.max(KNOWN_MIN, maxOpenFiles)) {
      Iterator<JournalFile> eldest = known.values().iterator();
      JournalFile gone = eldest.next();
      eldest.remove();
      if (open.remove(gone.persistenceId, gone)) {
        gone.release();
      }
    }
    return f;
  }

  /** Counts an opened file, closing the least recently used ones beyond max-open-files. */
  private void opened(JournalFile f) {
    open.put(f.persistenceId, f);
    while (open.size() > maxOpenFiles) {
      Iterator<JournalFile> eldest = open.values().iterator();
      JournalFile closing = eldest.next();
      eldest.remove();
      closing.release();
      if (closing.failure() != null) {
        known.remove(closing.persistenceId, closing);
      }
    }
  }

  /** Forgets a file after an IO error: its next use reads it again (and cuts what a failed append left). */
  private void failed(JournalFile f, IOException e) {
    f.fail(e);
    known.remove(f.persistenceId, f);
    open.remove(f.persistenceId, f);
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      LOG.debug("closing a file failed", e);
    }
  }
}
