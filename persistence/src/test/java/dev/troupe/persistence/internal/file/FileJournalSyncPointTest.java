package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The sync points of a journal file (every byte before one was on disk when it was written): where
 * they are written, and what they tell apart after a crash, a torn tail from corruption.
 */
class FileJournalSyncPointTest extends JournalTestSupport {

  private Path file(String pid) {
    return dir.resolve(pid + FileJournal.SUFFIX);
  }

  private void assertCorruptAt(IOException e, long offset) {
    assertCorruptIn(e, file("p"), offset);
  }

  @Test
  void withFsyncEachWriteAfterAForceStartsWithASyncPointAtItsOwnPositionAndWithoutItNone() throws IOException {
    FileJournal j = journal("");
    int header = JournalFormat.header("p").length;
    store(j, write("p", 1, "a"));
    long first = Files.size(file("p"));
    store(j, write("p", 2, "b"), write("p", 3, "c")); // one force, one sync point
    byte[] bytes = Files.readAllBytes(file("p"));
    assertArrayEquals(JournalFormat.synced(header), Arrays.copyOfRange(bytes, header, header + SYNC), "the first write's");
    assertArrayEquals(JournalFormat.synced(first), Arrays.copyOfRange(bytes, (int) first, (int) first + SYNC),
        "the next force's");
    j.close();

    FileJournal reopened = journal("");
    long before = Files.size(file("p"));
    store(reopened, write("p", 4, "d"));
    long next = Files.size(file("p"));
    store(reopened, write("p", 5, "e"));
    reopened.close();
    byte[] after = Files.readAllBytes(file("p"));
    assertEquals(JournalFormat.EVENT, after[(int) before + JournalFormat.TYPE_AT],
        "none before the first write after opening: nothing said the file was on disk");
    assertArrayEquals(JournalFormat.synced(next), Arrays.copyOfRange(after, (int) next, (int) next + SYNC));

    FileJournal unforced = journal("fsync = off");
    store(unforced, write("q", 1, "a"));
    store(unforced, write("q", 2, "b"));
    unforced.close();
    byte[] q = Files.readAllBytes(file("q"));
    int header2 = JournalFormat.header("q").length;
    assertEquals(JournalFormat.EVENT, q[header2 + JournalFormat.TYPE_AT], "none without fsync");
    assertEquals(range(1, 2), seqNrs(journal(""), "q"));
  }

  @Test
  void damageInTheWritesOfTheLastForceIsATornTailEvenWithSoundRecordsAfterIt() throws IOException {
    FileJournal first = journal("");
    store(first, write("p", 1, "a"));
    store(first, write("p", 2, "b"));
    long sound = Files.size(file("p"));
    store(first, write("p", 3, "c"), write("p", 4, "d")); // one force: the disk may keep the second and lose the first
    first.close();
    byte[] full = Files.readAllBytes(file("p"));

    // zeros where a page of the force's writes never reached the disk: in its sync point or in write 3
    for (int hole : new int[] {0, 4, SYNC, SYNC + 4, SYNC + 8, SYNC + 16}) {
      byte[] image = full.clone();
      Arrays.fill(image, (int) sound + hole, (int) sound + hole + 4, (byte) 0);
      Files.write(file("p"), image);
      FileJournal j = journal("");
      assertEquals(2, highest(j, "p"), "hole at " + hole);
      long size = Files.size(file("p"));
      assertTrue(size == sound || size == sound + SYNC,
          "the force's writes are cut away from the damage on (hole at " + hole + ", size " + size + ")");
      store(j, write("p", 3, "new"));
      assertEquals(range(1, 3), seqNrs(j, "p"), "hole at " + hole);
      j.close();
    }
  }

  @Test
  void damageWithASyncPointAfterItIsCorruptionAndNothingIsCut() throws IOException {
    FileJournal j = journal("");
    store(j, write("p", 1, "a"));
    long second = Files.size(file("p")) + SYNC;
    store(j, write("p", 2, "b"));
    store(j, write("p", 3, "c"));
    j.close();
    long size = Files.size(file("p"));
    flipByte(file("p"), second + 12); // in event 2; event 3's write starts with a sync point

    FileJournal reopened = journal("");
    assertCorruptAt(failure(reopened.highestSequenceNr("p"), IOException.class, "highestSequenceNr"), second);
    assertEquals(size, Files.size(file("p")), "an acknowledged event is never cut away");
  }

  @Test
  void aSyncPointCutShortOrDamagedIsATornTailItself() throws IOException {
    FileJournal first = journal("");
    store(first, write("p", 1, "a"));
    long sound = Files.size(file("p"));
    store(first, write("p", 2, "b"));
    first.close();
    byte[] full = Files.readAllBytes(file("p"));
    for (int cut = (int) sound + 1; cut < sound + SYNC; cut++) {
      Files.write(file("p"), Arrays.copyOf(full, cut));
      FileJournal j = journal("");
      assertEquals(1, highest(j, "p"), "cut at " + cut);
      assertEquals(sound, Files.size(file("p")));
      j.close();
    }
  }

  @Test
  void withoutFsyncDamageIsCorruptionIfAnySoundRecordFollows() throws IOException {
    FileJournal first = journal("fsync = off");
    store(first, write("p", 1, "a"));
    long second = Files.size(file("p"));
    store(first, write("p", 2, "b"), write("p", 3, "c"));
    first.close();
    byte[] full = Files.readAllBytes(file("p"));
    flipByte(file("p"), second + 12);

    FileJournal j = journal("fsync = off");
    assertCorruptAt(failure(j.highestSequenceNr("p"), IOException.class, "highestSequenceNr"), second);
    j.close();

    Files.write(file("p"), full);
    flipByte(file("p"), full.length - 3); // the last record, nothing after it: a torn tail
    FileJournal again = journal("fsync = off");
    assertEquals(2, highest(again, "p"));
  }

  @Test
  void aCompactedFileEndsWithASyncPointSoItsLastRecordsAreNoTornTail() throws IOException {
    FileJournal j = journal("compact-after = 1 KiB");
    String pad = "x".repeat(100);
    for (int i = 1; i <= 40; i++) {
      store(j, write("p", i, pad + i));
    }
    await(j.deleteTo("p", 30), "deleteTo 30");
    await(j.compactionsIdle(), "the compaction");
    assertEquals(1, j.compactions());
    j.close();
    long size = Files.size(file("p"));
    byte[] compacted = Files.readAllBytes(file("p"));
    assertArrayEquals(JournalFormat.synced(size - SYNC), Arrays.copyOfRange(compacted, (int) size - SYNC, (int) size));
    flipByte(file("p"), size - SYNC - 5); // in the last event, which compaction forced

    FileJournal reopened = journal("");
    IOException e = failure(reopened.replay("p", 31, 40, 10, x -> {}), IOException.class, "replay");
    assertTrue(e.getMessage().contains("is corrupt at offset"), e.getMessage());
    assertEquals(size, Files.size(file("p")), "nothing is cut");
  }
}
