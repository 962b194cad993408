package dev.troupe.persistence.internal.file;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.persistence.internal.PluginContext;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
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
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * short or tore (an atomic write missing its last events, or damage in the writes of the last
 * force: with {@code fsync = on}, damage after the last sync point, whatever sound records follow
 * it, as the disk may keep a later page of an unforced write and lose an earlier one; with {@code
 * fsync = off}, damage with nothing sound after it) is cut away with a warning, as it was never
 * acknowledged; other damage (a bad record with a sync point after it, or with {@code fsync = off}
 * any sound record after it, or a record claiming an impossible length) is corruption, and every
 * call for that actor fails naming the file and offset until someone repairs it. See {@link
 * JournalFormat} for the sync points. Deleting events appends a marker: replay skips what it
 * deletes.
 *
 * <p><b>Compaction.</b> When a deletion leaves at least {@code compact-after} bytes of dead records
 * (deleted events and deletion markers) at the start of a file, and no fewer than the bytes of the
 * records after them, the file is rewritten without them ({@code JournalFile.Compaction}): a new
 * file {@code <name>.journal.compacting} gets the header, a compaction marker that keeps the
 * deletion and the highest sequence number, and the rest of the old file byte for byte, copied
 * 4 MiB per task of the IO thread (so other files' writes wait for one chunk at most, and the
 * file's own appends and deletions between chunks are copied too); it is
 * forced and renamed over the old file, and the directory forced (with {@code fsync = on}). A crash
 * leaves the old file or the new one, each whole; a leftover {@code .compacting} file is no journal
 * file by its name (ids are listed from {@code *.journal} only), and is deleted when a journal
 * opens the directory. One file is compacted at a time (one more descriptor than {@code
 * max-open-files} while it runs). The rule "no fewer dead bytes than live ones" bounds the work: a
 * compaction copies at most as many bytes as it frees, so a file with a long live history is not
 * copied again and again for a little space. Reads hold no file position between tasks (a replay
 * asks again by sequence number for each chunk, and a read by tag finds and reads its events in
 * one task), and a position found before the file was switched is found again by number ({@code
 * JournalFile.generation}). Tag index files are not compacted: their records of deleted events
 * stay, and are skipped as ever.
 *
 * <p>Serialization runs on the caller's thread (so an event is captured as it was when written);
 * all IO runs on one thread of the plugin's, in order. Writes that queue while one is forced are
 * appended and forced together (group commit). At most {@code max-open-files} files are open, tag
 * index files included; the least recently used one is closed beyond that. A lock file keeps a
 * second journal (of this JVM or another) out of the directory. Thread-safe.
 *
 * <p><b>Tags.</b> An event's tags are stored in its record, and each tag has an index file in
 * {@code dir/tags} ({@link TagFile}, named as journal files are: the tag where it is a safe file
 * name, else its SHA-256): a record per event stored with the tag, in the order the journal stored
 * them, so that the k-th record is the event of offset k for {@link #eventsByTag}. A group commit
 * appends the index records of all its events first, forces the index files, and only then
 * appends and forces the events: with {@code fsync = on}, an event on disk always has its index
 * records on disk, whatever the moment of a crash. (With {@code fsync = off} nothing is promised
 * on a crash of the machine, for the index as for the events.) The other way round, a crash (or an
 * IO error) may leave index records whose events were never stored, or were cut away as a torn
 * tail, and a later event may then reuse their numbers; so {@link #eventsByTag} checks every record
 * against the journal (an event of that number is stored and not deleted, carries the tag, and has
 * the timestamp and the record CRC32C that the index record names) and skips the ones that fail:
 * an event stored again under a lost number is handed over once, at the offset of its own record.
 * (Only an event identical to the lost one in every byte, its timestamp to the millisecond
 * included, would pass as both.)
 *
 * <p>Tag index files count against {@code max-open-files} with the journal files, in one
 * least-recently-used order, rather than in a budget of their own: that key stays the one bound on
 * the descriptors the journal holds, and a tag that is written or read often stays open just as an
 * actor that is. Of each tag index file only its length, its number of records and a sparse index
 * (where every 256th record starts) are kept, for as many files as of the
 * journal files.
 *
 * <p>Why one file: everything here runs on the one IO thread and shares its state — the known and
 * open files (journal and tag index files under one {@code max-open-files} budget), the queue of
 * writes, the running compaction — and each operation (group commit, replay, tags, compaction, id
 * listing) is a few tasks over that state; split apart, each piece would need all of it. The
 * per-file work lives in {@link JournalFile} (with its compaction), {@link TagFile}, {@link
 * AppendFile} and {@link RecordReader}; the bytes in {@link JournalFormat}. A further split, if it
 * grows: the compaction queue and steps into a class of their own that the IO thread drives.
 */
public final class FileJournal implements Journal {
  private static final Logger LOG = LoggerFactory.getLogger(FileJournal.class);
  private static final String SECTION = "troupe.persistence.journal.file";
  private static final AtomicInteger THREADS = new AtomicInteger();
  /** The file name of a persistence id is its stem and this. */
  static final String SUFFIX = ".journal";
  /** Safe ids never start with a dot, so this name is no actor's. */
  static final String LOCK_FILE = ".troupe-journal.lock";
  /** The directory of the tag index files, in the journal's. */
  static final String TAGS_DIR = "tags";
  /** The file name of a tag's index file is its stem and this. */
  static final String TAG_SUFFIX = ".tags";
  /** Closed files whose state is kept (no new read when used again), at the least. */
  private static final int KNOWN_MIN = 10_000;
  /** A journal file being compacted is rewritten to its name and this; no journal file's name ends so. */
  static final String COMPACT_SUFFIX = ".compacting";
  /** Bytes one task of the IO thread copies when compacting a file: other writes wait no longer. */
  private static final long COMPACT_CHUNK = 4L << 20;

  private final PluginContext context;
  private final Path dir;
  private final boolean fsync;
  private final long maxEventSize;
  private final int maxAppendFiles;
  /** compact-after in bytes; 0: off. */
  private final long compactAfter;
  private final IoThread io;
  private final ConcurrentLinkedQueue<WriteRequest> pending = new ConcurrentLinkedQueue<>();

  // the IO thread's alone
  /** The files read so far, least recently used first; bounded. */
  private final LinkedHashMap<String, JournalFile> known = new LinkedHashMap<>(64, 0.75f, true);
  /** The tag index files read so far, least recently used first; bounded as {@link #known}. */
  private final LinkedHashMap<String, TagFile> knownTags = new LinkedHashMap<>(64, 0.75f, true);
  /** The open journal and tag index files (each its own key), least recently used first; at most maxAppendFiles. */
  private final LinkedHashMap<AppendFile, AppendFile> open = new LinkedHashMap<>(64, 0.75f, true);
  private FileChannel lock;
  /** The compaction running, if any; one at a time. */
  private JournalFile.Compaction compacting;
  /** Ids whose files were found worth compacting while another one ran; checked again when their turn comes. */
  private final Set<String> compactQueue = new LinkedHashSet<>();
  /** Who waits for the compactions to end ({@link #compactionsIdle}). */
  private final List<CompletableFuture<Void>> idleWaiters = new ArrayList<>();
  /** Bytes a compaction copies per task; tests make it small. */
  private long compactChunk = COMPACT_CHUNK;
  /** Compactions done (read by tests). */
  private volatile long compactions;

  /**
   * Reads the section; touches no file (the directory is made and locked on first use).
   *
   * @param system the system it serves
   * @param config its section: dir, fsync, max-event-size, max-open-files, compact-after
   * @throws ConfigurationException if a value is missing or malformed, naming it
   */
  public FileJournal(ActorSystem system, Config config) {
    this.context = new PluginContext(system, config, SECTION, FileJournal.class);
    this.dir = context.dir();
    this.fsync = context.flag("fsync");
    this.maxEventSize = context.size("max-event-size", JournalFormat.MAX_EVENT_SIZE);
    this.maxAppendFiles = context.count("max-open-files");
    this.compactAfter = compactAfter(context);
    this.io = new IoThread(context.owner(dir), "troupe-file-journal-", THREADS);
  }

  /** @return compact-after in bytes: a size of at least 1 byte, or 0 for {@code off} */
  private static long compactAfter(PluginContext context) {
    String name = "compact-after";
    try {
      if (context.string(name).trim().equals("off")) {
        return 0;
      }
      return context.size(name, Long.MAX_VALUE);
    } catch (ConfigurationException e) {
      throw new ConfigurationException(e.getMessage() + " (a size of dead bytes, e.g. 16 MiB, or off: never compact)",
          e);
    }
  }

  /** One call of {@link #write}: its writes, serialized, and its result. */
  private static final class WriteRequest {
    final List<JournalFormat.Encoded> accepted = new ArrayList<>();
    final List<Optional<Exception>> results = new ArrayList<>();
    final CompletableFuture<List<Optional<Exception>>> result = new CompletableFuture<>();
    /** The files it appended to: an IO error of one fails it. */
    final Set<JournalFile> touched = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * The tag index files it appended to (an IO error of one before its events are appended fails
     * it): few, and none for most writes, so a list made on first use.
     */
    List<TagFile> touchedTags = List.of();
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

  /**
   * On the IO thread: appends every write queued so far and completes them. Checks them all first;
   * then appends the tag index records of the sound ones and forces the index files once; then
   * appends their events, if their index records are in place, and forces the journal files once.
   */
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
      List<WriteRequest> sound = new ArrayList<>();
      Map<String, Long> highest = new HashMap<>();
      for (WriteRequest r : batch) {
        if (check(r, highest)) {
          sound.add(r);
        }
      }
      Set<TagFile> tagFiles = Collections.newSetFromMap(new IdentityHashMap<>());
      for (WriteRequest r : sound) {
        appendIndex(r);
        tagFiles.addAll(r.touchedTags);
      }
      for (TagFile t : tagFiles) {
        try {
          t.force();
        } catch (IOException e) {
          failed(t, e);
        }
      }
      for (WriteRequest r : sound) {
        for (TagFile t : r.touchedTags) {
          r.failure = r.failure != null ? r.failure : t.failure();
        }
        if (r.failure == null) { // its index records are in place (and forced, with fsync)
          append(r);
          touched.addAll(r.touched);
        }
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

  /**
   * Checks that each write of a call numbers its events above those stored or to be stored before
   * it in the batch; fails the call if not.
   *
   * @param highest the highest number of each id stored or to be stored by the calls before it;
   *     this call's are added if it is sound
   * @return whether it is
   */
  private boolean check(WriteRequest r, Map<String, Long> highest) {
    Map<String, Long> mine = new HashMap<>();
    try {
      for (JournalFormat.Encoded w : r.accepted) {
        String id = w.persistenceId();
        Long before = mine.get(id);
        Long batch = highest.get(id);
        long stored = before != null ? before : batch != null ? batch : highestStored(id);
        if (w.lowest() <= stored) {
          r.failure = new IllegalStateException("persistence id [" + id + "]: a write of events " + w.lowest() + " to "
              + w.highest() + ", but event " + stored + (before != null ? " comes before it in the same call" : " is"
              + " already stored: two writers of one id") + " (nothing of this call is stored)");
          return false;
        }
        mine.put(id, w.highest());
      }
    } catch (IOException e) {
      r.failure = e;
      return false;
    }
    highest.putAll(mine);
    return true;
  }

  /** Appends the tag index records of a call's events; an IO error fails the call. */
  private void appendIndex(WriteRequest r) {
    for (JournalFormat.Encoded w : r.accepted) {
      for (Map.Entry<String, List<byte[]>> e : w.indexEntries().entrySet()) {
        TagFile t;
        try {
          t = tagFile(e.getKey(), true);
        } catch (IOException x) {
          r.failure = x;
          return;
        }
        if (r.touchedTags.isEmpty()) {
          r.touchedTags = new ArrayList<>(2);
        }
        if (!r.touchedTags.contains(t)) {
          r.touchedTags.add(t);
        }
        try {
          t.append(e.getValue(), fsync);
        } catch (IOException x) {
          failed(t, x);
          r.failure = x;
          return;
        }
      }
    }
  }

  private void append(WriteRequest r) {
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
        onEvent.accept(new PersistentRepr(persistenceId, e.sequenceNr(), payload, e.timestamp(), e.tags()));
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
      if (compacting != null) {
        compactQueue.add(persistenceId); // checked when its turn comes (again, if it is the one running)
      } else {
        startCompaction(persistenceId);
      }
      return null;
    });
  }

  /**
   * On the IO thread: starts compacting the file of an id if it has compact-after bytes of dead
   * records and no more live ones (see the class comment). A failure to start is logged only: the
   * file stays as it is, and a later deletion tries again.
   *
   * @return whether it started
   */
  private boolean startCompaction(String persistenceId) {
    if (compactAfter == 0 || compacting != null) {
      return false;
    }
    JournalFile f = null;
    try {
      f = file(persistenceId, false);
      if (f == null) {
        return false;
      }
      long live = f.liveFrom();
      long dead = f.deadBytes(live);
      if (dead < compactAfter || dead < f.end - live) {
        return false;
      }
      compacting = f.compact(compactTemp(persistenceId));
    } catch (IOException e) {
      LOG.warn("journal file {} of persistence id [{}] cannot be compacted: {}", f != null ? f.path : persistenceId,
          persistenceId, e.toString());
      return false;
    }
    submitCompactStep();
    return true;
  }

  private Path compactTemp(String persistenceId) {
    return dir.resolve(DiskIo.stem(persistenceId) + SUFFIX + COMPACT_SUFFIX);
  }

  private void submitCompactStep() {
    io.submit(() -> {
      compactStep();
      return null;
    });
  }

  /**
   * On the IO thread: copies one chunk of the file being compacted, or, with all of it copied,
   * puts the new file in its place; then goes on with the next file waiting, if any. Gives up
   * (deleting the new file, keeping the old one) if the file was forgotten or read again meanwhile
   * (an IO error, or it changed while closed), or on an IO error of its own.
   */
  private void compactStep() {
    JournalFile.Compaction c = compacting;
    if (c == null) {
      return; // given up at close
    }
    JournalFile f = c.file();
    String id = f.persistenceId;
    long generation = f.generation();
    boolean done = false;
    try {
      if (known.get(id) != f || file(id, false) != f) {
        LOG.warn("compaction of journal file {} given up: the file was read again meanwhile", f.path);
        c.abort();
      } else if (!c.copy(compactChunk, fsync)) {
        submitCompactStep();
        return;
      } else {
        c.finish(fsync);
        done = true;
        compactions++;
        LOG.debug("journal file {} of persistence id [{}] compacted: {} bytes of deleted events dropped", f.path, id,
            c.dropped());
      }
    } catch (IOException | RuntimeException e) {
      if (f.generation() != generation) { // renamed, but the directory was not forced: read the file again
        LOG.warn("journal file {} of persistence id [{}] was compacted, but forcing its directory failed: {}", f.path,
            id, e.toString());
        if (e instanceof IOException x) {
          failed(f, x);
        }
      } else {
        c.abort();
        LOG.warn("journal file {} of persistence id [{}] cannot be compacted (it stays as it was): {}", f.path, id,
            e.toString());
      }
    }
    compacting = null;
    nextCompaction(done ? id : null);
  }

  /** On the IO thread: starts the next compaction worth it (first of {@code again}, just compacted), if any. */
  private void nextCompaction(String again) {
    if (again != null) {
      compactQueue.remove(again);
      startCompaction(again); // a deletion during its compaction may have left enough dead bytes again
    }
    while (compacting == null && !compactQueue.isEmpty()) {
      Iterator<String> first = compactQueue.iterator();
      String id = first.next();
      first.remove();
      startCompaction(id);
    }
    if (compacting == null) {
      idleWaiters.forEach(w -> w.complete(null));
      idleWaiters.clear();
    }
  }

  /** @return completes once no compaction runs or waits (for tests) */
  CompletionStage<Void> compactionsIdle() {
    return io.submit(() -> {
      CompletableFuture<Void> idle = new CompletableFuture<>();
      if (compacting == null && compactQueue.isEmpty()) {
        idle.complete(null);
      } else {
        idleWaiters.add(idle);
      }
      return idle;
    }).thenCompose(idle -> idle);
  }

  /** @return how many compactions finished (for tests) */
  long compactions() {
    return compactions;
  }

  /** @param bytes how many bytes a compaction copies per task (tests make it small, to see the steps) */
  void compactChunk(long bytes) {
    io.submit(() -> compactChunk = bytes);
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

  /** Tag index records that one task of the IO thread reads and checks in eventsByTag: writes wait no longer. */
  private static final int TAG_CHUNK = 128;

  /** Where a read by tag stands between its tasks: after which offset, how many events are left to hand over. */
  private record TagProgress(long after, long left, boolean done) {}

  /**
   * Reads the tag's index file, 128 records per task of the IO thread (so writes
   * wait for one chunk at most), checks each record against its event (see the class comment),
   * reading the events of one persistence id of a chunk in one pass over its file, and hands over
   * the events that pass in order of offsets. A tag that no event can have (empty, or too long)
   * has no events.
   */
  @Override
  public CompletionStage<Void> eventsByTag(String tag, long afterOffset, long max, Consumer<TaggedRepr> onEvent) {
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(onEvent, "onEvent");
    return readTag(tag, new TagProgress(Math.max(0, afterOffset), max, max <= 0), onEvent);
  }

  private CompletionStage<Void> readTag(String tag, TagProgress from, Consumer<TaggedRepr> onEvent) {
    return io.submit(() -> {
      ready();
      return from.done() ? from : readTagChunk(tag, from, onEvent);
    }).thenCompose(next -> next.done() ? CompletableFuture.completedFuture(null) : readTag(tag, next, onEvent));
  }

  /** On the IO thread: reads, checks and hands over one chunk of a tag's index. */
  private TagProgress readTagChunk(String tag, TagProgress from, Consumer<TaggedRepr> onEvent) throws IOException {
    TagFile t = JournalFormat.tagBytes(tag) == null ? null : tagFile(tag, false);
    if (t == null) {
      return new TagProgress(from.after(), from.left(), true);
    }
    TagFile.Chunk chunk;
    try {
      chunk = t.read(from.after(), TAG_CHUNK);
    } catch (IOException e) {
      failed(t, e);
      throw e;
    }
    List<TagFile.Entry> entries = chunk.entries();
    if (entries.isEmpty()) {
      return new TagProgress(from.after(), from.left(), true);
    }
    // where each entry's event is, found per persistence id in one pass over its file
    Map<String, List<Integer>> byId = new LinkedHashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      byId.computeIfAbsent(entries.get(i).persistenceId(), id -> new ArrayList<>()).add(i);
    }
    JournalFile.Located[] located = new JournalFile.Located[entries.size()];
    for (Map.Entry<String, List<Integer>> e : byId.entrySet()) {
      long[] seqs = e.getValue().stream().mapToLong(i -> entries.get(i).sequenceNr()).sorted().distinct().toArray();
      JournalFile.Located[] found = withJournalFile(e.getKey(), f -> f.locate(seqs));
      if (found == null) {
        continue; // no file: its events were never stored
      }
      for (int i : e.getValue()) {
        located[i] = found[Arrays.binarySearch(seqs, entries.get(i).sequenceNr())];
      }
    }
    Serialization s = context.serialization();
    long left = from.left();
    long after = from.after();
    for (int i = 0; i < entries.size() && left > 0; i++) {
      TagFile.Entry entry = entries.get(i);
      after = entry.offset();
      JournalFile.Located l = located[i];
      if (l == null || l.timestamp() != entry.timestamp() || l.crc() != entry.eventCrc() || !l.tags().contains(tag)) {
        continue; // its event was never stored, is deleted, or is another one stored under its number since
      }
      String id = entry.persistenceId();
      JournalFile.StoredEvent e = withJournalFile(id, f -> f.eventAt(l, entry.sequenceNr()));
      if (e == null) {
        continue;
      }
      Object payload;
      try {
        payload = s.deserialize(e.serializerId(), e.manifest(), e.payload());
      } catch (SerializationException x) {
        throw new SerializationException("event " + e.sequenceNr() + " of persistence id [" + id + "] (of tag [" + tag
            + "], offset " + entry.offset() + "): " + x.getMessage(), x);
      }
      onEvent.accept(new TaggedRepr(entry.offset(), new PersistentRepr(id, e.sequenceNr(), payload, e.timestamp(),
          e.tags())));
      left--;
    }
    return new TagProgress(after, left, left <= 0 || chunk.atEnd()); // with some left, the whole chunk was read
  }

  /**
   * On the IO thread: runs a task with the file of a persistence id, forgetting the file if it
   * fails with an IO error.
   *
   * @return the task's result, or null where the id has no file
   */
  private <T> T withJournalFile(String persistenceId, FileTask<T> task) throws IOException {
    JournalFile f = file(persistenceId, false);
    if (f == null) {
      return null;
    }
    try {
      return task.run(f);
    } catch (IOException e) {
      failed(f, e);
      throw e;
    }
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
      return withJournalFile(persistenceId, task);
    });
  }

  /** Finishes the calls already made, closes the files and stops the IO thread; later calls fail. */
  @Override
  public void close() {
    io.close(() -> {
      if (compacting != null) {
        compacting.abort();
        compacting = null;
      }
      compactQueue.clear();
      idleWaiters.forEach(w -> w.completeExceptionally(io.closedException()));
      idleWaiters.clear();
      known.values().forEach(JournalFile::release);
      known.clear();
      knownTags.values().forEach(TagFile::release);
      knownTags.clear();
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
    FileChannel ch = DiskIo.lockDirectory(dir, LOCK_FILE, "journal directory " + dir + " is in use by another FileJournal"
        + " (of this JVM or another process): two journals must not share a directory; give each its own " + SECTION
        + ".dir");
    lock = ch;
    deleteUnfinishedCompactions();
  }

  /** Deletes the new files of compactions that a crash cut short: their old files are whole and in use. */
  private void deleteUnfinishedCompactions() throws IOException {
    try (DirectoryStream<Path> in = Files.newDirectoryStream(dir, "*" + SUFFIX + COMPACT_SUFFIX)) {
      for (Path p : in) {
        LOG.info("deleting {}, a compaction that did not finish (its journal file is as it was before it)", p);
        Files.deleteIfExists(p);
      }
    }
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
        open.get(f); // most recently used
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
    forgetEldest(known);
    return f;
  }

  /**
   * The index file of a tag, open, read once if new to this journal.
   *
   * @param tag a tag that an event may have
   * @param create whether to make the file (and the directory) if it does not exist
   * @return it, or null if it does not exist and create is false
   */
  private TagFile tagFile(String tag, boolean create) throws IOException {
    TagFile t = knownTags.get(tag);
    if (t != null) {
      if (t.isOpen()) {
        open.get(t); // most recently used
        return t;
      }
      if (t.reopen()) {
        opened(t);
        return t;
      }
      LOG.warn("tag index file {} changed while this journal had it closed: it is read again", t.path);
      knownTags.remove(tag);
    }
    Path tags = dir.resolve(TAGS_DIR);
    Path path = tags.resolve(DiskIo.stem(tag) + TAG_SUFFIX);
    if (Files.exists(path)) {
      t = TagFile.open(tag, path, fsync);
    } else if (create) {
      if (!Files.isDirectory(tags)) {
        Files.createDirectories(tags);
        if (fsync) {
          DiskIo.forceDirectory(dir);
        }
      }
      t = TagFile.create(tag, path, fsync);
    } else {
      return null;
    }
    knownTags.put(tag, t);
    opened(t);
    forgetEldest(knownTags);
    return t;
  }

  /** Forgets the least recently used file of {@code files} beyond the number kept. */
  private <F extends AppendFile> void forgetEldest(LinkedHashMap<String, F> files) {
    if (files.size() > Math.max(KNOWN_MIN, maxAppendFiles)) {
      Iterator<F> eldest = files.values().iterator();
      F gone = eldest.next();
      eldest.remove();
      if (open.remove(gone, gone)) {
        gone.release();
      }
    }
  }

  /** Counts an opened file, closing the least recently used ones beyond max-open-files. */
  private void opened(AppendFile f) {
    open.put(f, f);
    while (open.size() > maxAppendFiles) {
      Iterator<AppendFile> eldest = open.values().iterator();
      AppendFile closing = eldest.next();
      eldest.remove();
      closing.release();
      if (closing.failure() != null) {
        forget(closing);
      }
    }
  }

  private void forget(AppendFile f) {
    if (f instanceof JournalFile j) {
      known.remove(j.persistenceId, j);
    } else if (f instanceof TagFile t) {
      knownTags.remove(t.tag, t);
    }
  }

  /** Forgets a file after an IO error: its next use reads it again (and cuts what a failed append left). */
  private void failed(JournalFile f, IOException e) {
    f.fail(e);
    forget(f);
    open.remove(f, f);
  }

  /** Forgets a tag index file after an IO error, as {@link #failed(JournalFile, IOException)}. */
  private void failed(TagFile t, IOException e) {
    t.fail(e);
    forget(t);
    open.remove(t, t);
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      LOG.debug("closing a file failed", e);
    }
  }
}
