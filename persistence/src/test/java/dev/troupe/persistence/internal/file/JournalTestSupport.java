package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Journals on a temporary directory, and writing and reading them in a line. */
abstract class JournalTestSupport extends PluginTestSupport {
  /** The bytes of a sync point, which starts each write appended after a force (with fsync). */
  static final int SYNC = JournalFormat.synced(0).length;
  @TempDir Path dir;
  ActorSystem system;

  @BeforeEach
  void startSystem() {
    system = system("");
  }

  /** @return a journal on {@link #dir} with fsync on and the given keys */
  FileJournal journal(String hocon) {
    return closeLater(new FileJournal(system, section(dir, "fsync = on\n" + hocon)));
  }

  /** @return an atomic write of the payloads, numbered from {@code from}, stamped 1000 + their number */
  static AtomicWrite write(String pid, long from, Object... payloads) {
    List<PersistentRepr> events = new ArrayList<>();
    for (Object p : payloads) {
      long seq = from + events.size();
      events.add(new PersistentRepr(pid, seq, p, 1000 + seq));
    }
    return new AtomicWrite(pid, events);
  }

  /** Writes and checks that each write was stored. */
  static void store(Journal j, AtomicWrite... writes) {
    List<Optional<Exception>> results = await(j.write(List.of(writes)), "write");
    assertEquals(Collections.nCopies(writes.length, Optional.empty()), results, "every write is stored");
  }

  /** @return the events replayed */
  static List<PersistentRepr> replay(Journal j, String pid, long from, long to, long max) {
    List<PersistentRepr> got = Collections.synchronizedList(new ArrayList<>());
    await(j.replay(pid, from, to, max, got::add), "replay of " + pid);
    return got;
  }

  /** @return the sequence numbers of all events of {@code pid} replayed */
  static List<Long> seqNrs(Journal j, String pid) {
    return replay(j, pid, 1, Long.MAX_VALUE, Long.MAX_VALUE).stream().map(PersistentRepr::sequenceNr).toList();
  }

  static List<Long> range(long from, long to) {
    return LongStream.rangeClosed(from, to).boxed().toList();
  }

  static long highest(Journal j, String pid) {
    return await(j.highestSequenceNr(pid), "highestSequenceNr of " + pid);
  }

  /** Asserts that an error reports {@code file} corrupt at {@code offset}. */
  static void assertCorruptIn(IOException e, Path file, long offset) {
    String m = e.getMessage();
    assertTrue(m.contains(file.toString()) && m.contains("corrupt at offset " + offset + ":"), m);
  }

  /** Writes {@code bytes} over a file's, from {@code offset}. */
  static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      f.write(bytes);
    }
  }

  /** Inverts the bits of one byte of a file. */
  static void flipByte(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(~b & 0xFF);
    }
  }
}
