package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.persistence.spi.PersistentRepr;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The file journal's files after crashes and damage, and the names it gives them. */
class FileJournalRecoveryTest extends JournalTestSupport {

  private Path file(String pid) {
    return dir.resolve(pid + FileJournal.SUFFIX);
  }

  /** Stores events 1..n of {@code pid}, one write each. @return where each one's record starts (index = seqNr) */
  private long[] storeOneByOne(FileJournal j, String pid, int n) throws IOException {
    long[] starts = new long[n + 1];
    for (int i = 1; i <= n; i++) {
      // each write, the first included, starts with a sync point (every byte before it was forced)
      starts[i] = (Files.exists(file(pid)) ? Files.size(file(pid)) : JournalFormat.header(pid).length) + SYNC;
      store(j, write(pid, i, new Evt("event", i)));
    }
    return starts;
  }

  @Test
  void aTornTailIsCutAtEveryPointOfTheLastWriteAndLaterWritesAppend() throws IOException {
    FileJournal first = journal("");
    store(first, write("p", 1, new Evt("a", 1)));
    store(first, write("p", 2, "b"));
    long sound = Files.size(file("p"));
    store(first, write("p", 3, new Evt("c", 3), "d")); // the last write: two records, all or nothing
    first.close();
    byte[] full = Files.readAllBytes(file("p"));

    for (int cut = (int) sound; cut < full.length; cut++) {
      Files.write(file("p"), Arrays.copyOf(full, cut));
      FileJournal j = journal("");
      assertEquals(2, highest(j, "p"), "cut at " + cut);
      long size = Files.size(file("p"));
      assertTrue(size == sound || size == sound + SYNC,
          "the torn write is cut away, its sync point kept if whole (cut at " + cut + ", size " + size + ")");
      store(j, write("p", 3, "new"));
      List<PersistentRepr> got = replay(j, "p", 1, Long.MAX_VALUE, Long.MAX_VALUE);
      assertEquals(List.of(new Evt("a", 1), "b", "new"), got.stream().map(PersistentRepr::payload).toList(), "cut at " + cut);
      j.close();
    }
  }

  @Test
  void aTailOfZerosIsCutAway() throws IOException {
    FileJournal first = journal("");
    storeOneByOne(first, "p", 3);
    first.close();
    long sound = Files.size(file("p"));
    Files.write(file("p"), new byte[4096], StandardOpenOption.APPEND);

    FileJournal j = journal("");
    assertEquals(range(1, 3), seqNrs(j, "p"));
    assertEquals(sound, Files.size(file("p")));
  }

  @Test
  void aFlippedByteInAMiddleRecordFailsNamingTheFileAndOffset() throws IOException {
    FileJournal j = journal("");
    long[] starts = storeOneByOne(j, "p", 5);
    long size = Files.size(file("p"));
    flipByte(file("p"), starts[3] + 20);

    IOException seen = failure(j.replay("p", 1, 5, 5, e -> {}), IOException.class, "replay by the journal that wrote it");
    assertCorruptAt(seen, starts[3]);
    j.close();

    FileJournal reopened = journal("");
    assertCorruptAt(failure(reopened.replay("p", 1, 5, 5, e -> {}), IOException.class, "replay after reopening"), starts[3]);
    assertCorruptAt(failure(reopened.highestSequenceNr("p"), IOException.class, "highestSequenceNr"), starts[3]);
    assertCorruptAt(failure(reopened.write(List.of(write("p", 6, "x"))), IOException.class, "write"), starts[3]);
    assertEquals(size, Files.size(file("p")), "a corrupt file is left as it is");
  }

  private void assertCorruptAt(IOException e, long offset) {
    assertCorruptIn(e, file("p"), offset);
  }

  @Test
  void aHugeLengthIsCorruptionNotAnAllocationInTheMiddleOrAtTheEnd() throws IOException {
    FileJournal first = journal("");
    long[] starts = storeOneByOne(first, "p", 3);
    first.close();
    byte[] sound = Files.readAllBytes(file("p"));
    byte[] huge = {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0};

    for (int seq : new int[] {2, 3}) {
      Files.write(file("p"), sound);
      overwrite(file("p"), starts[seq], huge);
      FileJournal j = journal("");
      IOException e = failure(j.replay("p", 1, 3, 3, x -> {}), IOException.class, "replay with a huge length in " + seq);
      assertCorruptAt(e, starts[seq]);
      assertTrue(e.getMessage().contains("over the most a record may have"), e.getMessage());
      assertEquals(sound.length, Files.size(file("p")), "nothing is cut");
      j.close();
    }
  }

  @Test
  void unsafeIdsGetDistinctSafeFilesInsideTheDirectory() throws IOException {
    List<String> pids = List.of("a/b", "a\\b", "..", "../escape", "/etc/passwd", ".hidden", "", "ünïcödé", "日本語",
        "x".repeat(500), "x".repeat(100), "x".repeat(101), "a b", "a:b", "a*?", "safe-id_1.2", "-");
    Path journalDir = dir.resolve("journal");
    FileJournal j = closeLater(new FileJournal(system, section(journalDir, "")));
    for (int i = 0; i < pids.size(); i++) {
      store(j, write(pids.get(i), 1, new Evt(pids.get(i), i)));
    }
    List<Path> written;
    try (Stream<Path> all = Files.walk(dir)) {
      written = all.filter(Files::isRegularFile).toList();
    }
    assertTrue(written.stream().allMatch(p -> p.getParent().equals(journalDir)), "every file is in the directory: " + written);
    List<String> names = written.stream().map(p -> p.getFileName().toString())
        .filter(n -> !n.equals(FileJournal.LOCK_FILE)).toList();
    assertEquals(pids.size(), new HashSet<>(names).size(), "one file per id: " + names);
    for (String n : names) {
      assertTrue(n.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\\.journal"), n);
    }
    assertTrue(names.contains("x".repeat(100) + ".journal") && names.contains("safe-id_1.2.journal"), "safe ids as they are");
    j.close();

    FileJournal reopened = closeLater(new FileJournal(system, section(journalDir, "")));
    for (int i = 0; i < pids.size(); i++) {
      assertEquals(List.of(new Evt(pids.get(i), i)),
          replay(reopened, pids.get(i), 1, 1, 1).stream().map(PersistentRepr::payload).toList(), pids.get(i));
    }
  }

  @Test
  void aFileHoldingAnotherIdsEventsIsAnErrorNotAMix() throws IOException {
    FileJournal first = journal("");
    storeOneByOne(first, "a", 2);
    first.close();
    Files.move(file("a"), file("b"));
    Files.write(file("c"), "not a journal".getBytes(StandardCharsets.UTF_8));
    byte[] before = Files.readAllBytes(file("b"));

    FileJournal j = journal("");
    IOException other = failure(j.highestSequenceNr("b"), IOException.class, "highestSequenceNr of b");
    assertTrue(other.getMessage().contains(file("b").toString()) && other.getMessage().contains("[a]"), other.getMessage());
    failure(j.write(List.of(write("b", 1, "x"))), IOException.class, "a write of b");
    assertArrayEquals(before, Files.readAllBytes(file("b")), "the other id's file is untouched");
    IOException junk = failure(j.replay("c", 1, 1, 1, e -> {}), IOException.class, "replay of c");
    assertTrue(junk.getMessage().contains("no Troupe journal file"), junk.getMessage());
  }

  @Test
  void aFileCutWithinItsHeaderStartsAgainEmpty() throws IOException {
    byte[] header = JournalFormat.header("p");
    for (int cut : new int[] {0, 3, header.length - 1}) {
      Files.write(file("p"), Arrays.copyOf(header, cut));
      FileJournal j = journal("");
      assertEquals(0, highest(j, "p"), "cut at " + cut);
      store(j, write("p", 1, "a"));
      j.close();
      FileJournal reopened = journal("");
      assertEquals(List.of(1L), seqNrs(reopened, "p"), "cut at " + cut);
      reopened.close();
      Files.delete(file("p"));
    }
  }
}
