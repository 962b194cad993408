package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.serialization.SerializationException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The file journal's calls: what is stored comes back, in order, across instances and threads. */
class FileJournalTest extends JournalTestSupport {

  @Test
  void recordsAndStringsRoundTripOnTheJournalsOwnThread() {
    FileJournal j = journal("");
    store(j, write("p", 1, new Evt("a", 1)), write("p", 2, "two", new Evt("b", 3), "four"));
    store(j, write("q", 1, ""));

    List<String> threads = new CopyOnWriteArrayList<>();
    List<PersistentRepr> got = new ArrayList<>();
    await(j.replay("p", 1, Long.MAX_VALUE, Long.MAX_VALUE, e -> {
      threads.add(Thread.currentThread().getName());
      got.add(e);
    }), "replay");

    assertEquals(List.of(new PersistentRepr("p", 1, new Evt("a", 1), 1001), new PersistentRepr("p", 2, "two", 1002),
        new PersistentRepr("p", 3, new Evt("b", 3), 1003), new PersistentRepr("p", 4, "four", 1004)), got);
    assertTrue(threads.stream().allMatch(t -> t.matches("troupe-file-journal-\\d+")), "replay runs on the IO thread: " + threads);
    assertEquals(4, highest(j, "p"));
    assertEquals(List.of(new PersistentRepr("q", 1, "", 1001)), replay(j, "q", 1, 1, 1));
    assertEquals(0, highest(j, "nobody"));
    assertEquals(List.of(), seqNrs(j, "nobody"));
    await(j.deleteTo("nobody", 5), "deleteTo of an id without events");
    assertEquals(List.of(), await(j.write(List.of()), "a write of nothing"));
    assertFalse(Files.exists(dir.resolve("nobody.journal")), "reads and deletes make no file");
  }

  @Test
  void aNewInstanceRecoversEverythingAndTheHighestAfterDeletes() {
    FileJournal first = journal("");
    for (int i = 1; i <= 10; i++) {
      store(first, write("p", i, "e" + i));
    }
    await(first.deleteTo("p", 4), "deleteTo 4");
    assertEquals(range(5, 10), seqNrs(first, "p"));
    first.close();

    FileJournal second = journal("");
    assertEquals(10, highest(second, "p"));
    assertEquals(range(5, 10), seqNrs(second, "p"));
    await(second.deleteTo("p", Long.MAX_VALUE), "deleteTo all");
    assertEquals(List.of(), seqNrs(second, "p"));
    assertEquals(10, highest(second, "p"), "the highest stays when everything is deleted");
    store(second, write("p", 11, "e11"));
    second.close();

    FileJournal third = journal("");
    assertEquals(11, highest(third, "p"));
    assertEquals(List.of(11L), seqNrs(third, "p"), "deleting all spares the events written after it");
  }

  @Test
  void aWriteNotAboveTheHighestFailsTheCallAndStoresNothingOfIt() {
    FileJournal j = journal("");
    store(j, write("p", 1, "a", "b", "c"));

    IllegalStateException e = failure(j.write(List.of(write("fresh", 1, "x"), write("p", 3, "again"))),
        IllegalStateException.class, "a write of an event already stored");
    assertTrue(e.getMessage().contains("[p]") && e.getMessage().contains("two writers"), e.getMessage());
    failure(j.write(List.of(write("other", 1, "x"), write("other", 1, "y"))), IllegalStateException.class,
        "two writes of one number in one call");

    assertEquals(0, highest(j, "fresh"), "nothing of a failed call is stored");
    assertEquals(0, highest(j, "other"));
    assertEquals(range(1, 3), seqNrs(j, "p"));
    store(j, write("p", 4, "d"));
    assertEquals(range(1, 4), seqNrs(j, "p"));
  }

  @Test
  void anUnserializableOrOversizedWriteIsRejectedAndTheOthersAreStored() {
    FileJournal j = journal("max-event-size = 1 KiB");
    List<Optional<Exception>> results = await(j.write(List.of(write("p", 1, "ok"), write("p", 2, new Unbound("no")),
        write("p", 3, "x".repeat(2000)), write("p", 4, new Evt("fine", 4)))), "write");

    assertEquals(Optional.empty(), results.get(0));
    assertInstanceOf(SerializationException.class, results.get(1).orElseThrow());
    Exception big = results.get(2).orElseThrow();
    assertTrue(big instanceof IllegalArgumentException && big.getMessage().contains("max-event-size"), big.toString());
    assertEquals(Optional.empty(), results.get(3));
    assertEquals(List.of(1L, 4L), seqNrs(j, "p"));
    assertEquals(4, highest(j, "p"));
  }

  /** @return a journal holding events 1 to 5000 of "p", in writes of 50 */
  private FileJournal fiveThousandEvents() {
    FileJournal j = journal("fsync = off");
    List<AtomicWrite> writes = new ArrayList<>();
    for (int from = 1; from <= 5000; from += 50) {
      writes.add(write("p", from, Stream.iterate(from, n -> n + 1).limit(50).map(n -> new Evt("e", n)).toArray()));
    }
    await(j.write(writes), "5000 events");
    return j;
  }

  private static List<Long> seqNrs(List<PersistentRepr> events) {
    return events.stream().map(PersistentRepr::sequenceNr).toList();
  }

  @Test
  void replayKeepsToItsBounds() {
    FileJournal j = fiveThousandEvents();
    assertEquals(range(4900, 5000), seqNrs(replay(j, "p", 4900, Long.MAX_VALUE, Long.MAX_VALUE)));
    List<PersistentRepr> ten = replay(j, "p", 1000, 1999, 10);
    assertEquals(range(1000, 1009), seqNrs(ten));
    assertEquals(new Evt("e", 1000), ten.get(0).payload());
    assertEquals(range(1, 5), seqNrs(replay(j, "p", 0, 5, 100)));
    assertEquals(List.of(), replay(j, "p", 300, 200, 100), "from above to");
    assertEquals(List.of(), replay(j, "p", 1, 100, 0), "max 0");
    assertEquals(List.of(), replay(j, "p", 5001, Long.MAX_VALUE, 100), "above the highest");
    await(j.deleteTo("p", 2500), "deleteTo");
    assertEquals(range(2501, 2600), seqNrs(replay(j, "p", 1, 2600, Long.MAX_VALUE)));
    j.close();

    FileJournal reopened = journal("");
    assertEquals(range(2501, 2510), seqNrs(replay(reopened, "p", 1, Long.MAX_VALUE, 10)));
    assertEquals(range(4990, 5000), seqNrs(replay(reopened, "p", 4990, 6000, 100)));
  }

  @Test
  void aReplayFromAHighNumberStartsNearItThroughTheIndex() throws IOException {
    FileJournal j = fiveThousandEvents();
    // break an early record behind the journal's back: a replay from a high number never reads it
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve("p.journal").toFile(), "rw")) {
      f.seek(200);
      int b = f.read();
      f.seek(200);
      f.write(~b & 0xFF);
    }
    assertEquals(range(4745, 4750), seqNrs(replay(j, "p", 4745, 4750, 100)), "the index leads past the broken start");
    IOException e = failure(j.replay("p", 1, 10, 10, x -> {}), IOException.class, "a replay over the damage");
    assertTrue(e.getMessage().contains("corrupt at offset"), e.getMessage());
  }

  @Test
  void manyActorsShareFewOpenFilesAndKeepAllTheirEvents() throws IOException {
    FileJournal j = journal("fsync = off\nmax-open-files = 8");
    int pids = 200;
    for (int round = 1; round <= 3; round++) {
      List<AtomicWrite> writes = new ArrayList<>();
      for (int p = 0; p < pids; p++) {
        writes.add(write("actor-" + p, round, new Evt("r" + round, p)));
      }
      await(j.write(writes), "round " + round);
      assertTrue(openFilesIn(dir) <= 8 + 1, "at most 8 journal files and the lock open, but " + openFilesIn(dir));
    }
    for (int p = pids - 1; p >= 0; p--) {
      List<PersistentRepr> got = replay(j, "actor-" + p, 1, Long.MAX_VALUE, Long.MAX_VALUE);
      assertEquals(List.of(new Evt("r1", p), new Evt("r2", p), new Evt("r3", p)),
          got.stream().map(PersistentRepr::payload).toList(), "actor-" + p);
    }
    assertTrue(openFilesIn(dir) <= 8 + 1, "still at most 8 open after replays: " + openFilesIn(dir));
    j.close();
    assertEquals(0, openFilesIn(dir), "close closes every file");
  }

  /** @return how many descriptors of this process are open on files in {@code dir} (Linux), or 0 */
  private static long openFilesIn(Path dir) throws IOException {
    Path fds = Path.of("/proc/self/fd");
    if (!Files.isDirectory(fds)) {
      return 0;
    }
    Path real = dir.toRealPath();
    try (Stream<Path> all = Files.list(fds)) {
      return all.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).startsWith(real);
        } catch (IOException e) {
          return false; // closed meanwhile
        }
      }).count();
    }
  }

  @Test
  void sixteenWritersOfTheirOwnIdsAllReplayInOrder() throws Exception {
    FileJournal j = journal("");
    int threads = 16;
    int events = 500;
    int batch = 10;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String pid = "writer-" + t;
        done.add(pool.submit(() -> {
          for (int from = 1; from <= events; from += batch) {
            Object[] payloads = Stream.iterate(from, n -> n + 1).limit(batch).map(n -> new Evt(pid, n)).toArray();
            store(j, write(pid, from, payloads));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(20, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    for (int t = 0; t < threads; t++) {
      String pid = "writer-" + t;
      List<PersistentRepr> got = replay(j, pid, 1, Long.MAX_VALUE, Long.MAX_VALUE);
      assertEquals(range(1, events), got.stream().map(PersistentRepr::sequenceNr).toList(), pid);
      for (PersistentRepr e : got) {
        assertEquals(new Evt(pid, (int) e.sequenceNr()), e.payload());
      }
    }
  }

  @Test
  void callsAfterCloseFailAndCallsBeforeItFinish() {
    FileJournal j = journal("");
    CompletionStage<List<Optional<Exception>>> before = j.write(List.of(write("p", 1, "a")));
    j.close();
    j.close();
    assertEquals(List.of(Optional.empty()), await(before, "a write made before close"));

    failure(j.write(List.of(write("p", 2, "b"))), IllegalStateException.class, "write after close");
    failure(j.replay("p", 1, 1, 1, e -> {}), IllegalStateException.class, "replay after close");
    failure(j.highestSequenceNr("p"), IllegalStateException.class, "highestSequenceNr after close");
    failure(j.deleteTo("p", 1), IllegalStateException.class, "deleteTo after close");
    assertEquals(List.of(1L), seqNrs(journal(""), "p"));
  }

  @Test
  void aSecondJournalOnTheSameDirectoryIsRefused() {
    FileJournal first = journal("");
    store(first, write("p", 1, "a"));
    IOException e = failure(journal("").highestSequenceNr("p"), IOException.class, "a second journal's call");
    assertTrue(e.getMessage().contains("in use by another FileJournal"), e.getMessage());
  }

  @Test
  void aFailingCallbackFailsItsReplayOnly() {
    FileJournal j = journal("");
    store(j, write("p", 1, "a", "b"));
    IllegalArgumentException e = failure(j.replay("p", 1, 2, 2, x -> {
      throw new IllegalArgumentException("boom");
    }), IllegalArgumentException.class, "replay with a failing callback");
    assertEquals("boom", e.getMessage());
    assertEquals(range(1, 2), seqNrs(j, "p"));
  }

  @Test
  void malformedSettingsNameTheirKeys() {
    for (String bad : List.of("max-event-size = -1", "max-event-size = lots", "max-open-files = 0",
        "fsync = sometimes", "dir = \"\"")) {
      String key = bad.substring(0, bad.indexOf(' '));
      ActorSystem s = system("troupe.persistence.journal.file." + bad);
      ConfigurationException direct = assertThrows(ConfigurationException.class,
          () -> new FileJournal(s, s.settings().config().getConfig("troupe.persistence.journal.file")), bad);
      assertTrue(direct.getMessage().startsWith("troupe.persistence.journal.file." + key), direct.getMessage());
      ConfigurationException viaPersistence = assertThrows(ConfigurationException.class,
          () -> Persistence.get(s).journalFor("troupe.persistence.journal.file"), bad);
      assertTrue(viaPersistence.getMessage().contains("troupe.persistence.journal.file." + key), viaPersistence.getMessage());
    }
    ConfigurationException other = assertThrows(ConfigurationException.class,
        () -> new FileJournal(system, section(dir, "max-event-size = -1")));
    assertTrue(other.getMessage().contains("max-event-size") && other.getMessage().contains("FileJournal"),
        other.getMessage());
  }

  @Test
  void aSectionOfOnesOwnNeedsOnlyTheKeysItChangesAndIsNamedInErrors() {
    ActorSystem s = system("my-journal { class = \"" + FileJournal.class.getName() + "\"\n dir = \""
        + dir.toString().replace("\\", "\\\\") + "\"\n fsync = off }\n"
        + "bad-journal { class = \"" + FileJournal.class.getName() + "\"\n max-open-files = many }");
    store(Persistence.get(s).journalFor("my-journal"), write("p", 1, "a"));
    assertTrue(Files.exists(dir.resolve("p.journal")));
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> Persistence.get(s).journalFor("bad-journal"));
    assertTrue(e.getMessage().startsWith("bad-journal.max-open-files"), e.getMessage());
  }
}
