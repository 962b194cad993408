package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.persistence.spi.TaggedRepr;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The slot after a file's header, which says how far the file is on disk: what it tells apart
 * after a crash (a torn tail from corruption), and files that do not have one.
 */
class FileJournalSlotTest extends JournalTestSupport {

  private Path file(String pid) {
    return dir.resolve(pid + FileJournal.SUFFIX);
  }

  private static int slotAt(String pid) {
    return JournalFormat.header(pid, JournalFormat.VERSION).length;
  }

  /** @return what the slot of a journal file of {@code pid} says */
  private long slot(String pid) throws IOException {
    byte[] bytes = Files.readAllBytes(file(pid));
    return JournalFormat.forcedTo(Arrays.copyOfRange(bytes, slotAt(pid), dataStart(pid)));
  }

  /** Stores events 1..n of {@code pid}, one write each. @return where each one's record starts (index = seqNr) */
  private long[] storeOneByOne(FileJournal j, String pid, int n) throws IOException {
    long[] starts = new long[n + 1];
    for (int i = 1; i <= n; i++) {
      starts[i] = Files.exists(file(pid)) ? Files.size(file(pid)) : dataStart(pid);
      store(j, write(pid, i, "e" + i));
    }
    return starts;
  }

  private void assertCorruptAt(IOException e, Path file, long offset) {
    String m = e.getMessage();
    assertTrue(m.contains(file.toString()) && m.contains("corrupt at offset " + offset + ":"), m);
  }

  /** The same file in the version before the slot: its header of version 1, then the same records. */
  private static byte[] asVersionOne(byte[] file, String pid) {
    byte[] header = JournalFormat.header(pid, JournalFormat.VERSION_UNSLOTTED);
    int records = dataStart(pid);
    byte[] old = Arrays.copyOf(header, header.length + file.length - records);
    System.arraycopy(file, records, old, header.length, file.length - records);
    return old;
  }

  @Test
  void theSlotFollowsEachForceAndSaysWhereTheFileEnds() throws IOException {
    FileJournal j = journal("");
    store(j, write("p", 1, "a"));
    assertEquals(Files.size(file("p")), slot("p"));
    store(j, write("p", 2, "b"), write("p", 3, "c"));
    assertEquals(Files.size(file("p")), slot("p"));
    await(j.deleteTo("p", 2), "deleteTo 2");
    assertEquals(Files.size(file("p")), slot("p"), "after a deletion marker too");
  }

  @Test
  void damageInTheWritesOfTheLastForceIsATornTailEvenWithSoundRecordsAfterIt() throws IOException {
    FileJournal first = journal("");
    storeOneByOne(first, "p", 2);
    long sound = Files.size(file("p"));
    byte[] before = Files.readAllBytes(file("p"));
    store(first, write("p", 3, "c"), write("p", 4, "d")); // one force: the disk may keep the second and lose the first
    first.close();
    byte[] after = Files.readAllBytes(file("p"));

    for (int hole : new int[] {0, 3, 8, 16}) { // zeros where a page of the first write never reached the disk
      byte[] image = crashImage(after, after.length, before, slotAt("p"));
      Arrays.fill(image, (int) sound + hole, (int) sound + hole + 4, (byte) 0);
      Files.write(file("p"), image);
      FileJournal j = journal("");
      assertEquals(2, highest(j, "p"), "hole at " + hole);
      assertEquals(sound, Files.size(file("p")), "the writes from the damage on are cut away (hole at " + hole + ")");
      store(j, write("p", 3, "new"));
      assertEquals(range(1, 3), seqNrs(j, "p"));
      j.close();
    }
  }

  @Test
  void damageWhereTheSlotSaysTheFileWasOnDiskIsCorruptionEvenInTheLastRecord() throws IOException {
    FileJournal j = journal("");
    long[] starts = storeOneByOne(j, "p", 3);
    j.close();
    long size = Files.size(file("p"));
    flipByte(file("p"), starts[3] + 20);

    FileJournal reopened = journal("");
    assertCorruptAt(failure(reopened.highestSequenceNr("p"), IOException.class, "highestSequenceNr"), file("p"), starts[3]);
    assertEquals(size, Files.size(file("p")), "an acknowledged event is never cut away");
  }

  @Test
  void aFileShorterThanItsSlotSaysIsCorruption() throws IOException {
    FileJournal j = journal("");
    long[] starts = storeOneByOne(j, "p", 3);
    j.close();
    Files.write(file("p"), Arrays.copyOf(Files.readAllBytes(file("p")), (int) starts[3]));

    FileJournal reopened = journal("");
    IOException e = failure(reopened.replay("p", 1, 3, 3, x -> {}), IOException.class, "replay");
    assertCorruptAt(e, file("p"), starts[3]);
    assertTrue(e.getMessage().contains("were on disk"), e.getMessage());
  }

  @Test
  void aSlotWhoseWriteWasCutSaysNothingAndDamageIsJudgedByWhatFollows() throws IOException {
    FileJournal first = journal("");
    long[] starts = storeOneByOne(first, "p", 4);
    first.close();
    overwrite(file("p"), slotAt("p") + 2, new byte[] {0x55, 0x55}); // its CRC no longer matches
    byte[] damaged = Files.readAllBytes(file("p"));

    Files.write(file("p"), Arrays.copyOf(damaged, damaged.length - 3));
    FileJournal j = journal("");
    assertEquals(3, highest(j, "p"), "a torn last record, nothing after it: cut");
    j.close();

    Files.write(file("p"), damaged);
    flipByte(file("p"), starts[3] + 20);
    FileJournal again = journal("");
    assertCorruptAt(failure(again.highestSequenceNr("p"), IOException.class, "highestSequenceNr"), file("p"), starts[3]);
  }

  @Test
  void appendsThatAreNotForcedMakeTheSlotSayNothing() throws IOException {
    FileJournal forced = journal("");
    storeOneByOne(forced, "p", 2);
    forced.close();
    assertEquals(Files.size(file("p")), slot("p"));

    FileJournal unforced = journal("fsync = off");
    long sound = Files.size(file("p"));
    store(unforced, write("p", 3, "c"), write("p", 4, "d"));
    unforced.close();
    assertEquals(JournalFormat.NOT_KNOWN, slot("p"));
    FileJournal fresh = journal("fsync = off");
    store(fresh, write("q", 1, "a"));
    fresh.close();
    assertEquals(JournalFormat.NOT_KNOWN, slot("q"), "a new file without fsync");

    flipByte(file("p"), sound + 10); // what a crash, or a bad disk, may leave: nothing tells which
    FileJournal j = journal("fsync = off");
    assertCorruptAt(failure(j.highestSequenceNr("p"), IOException.class, "highestSequenceNr"), file("p"), sound);
  }

  @Test
  void aVersionOneFileIsReadAsBeforeAndCompactionGivesItTheSlot() throws IOException {
    FileJournal first = journal("");
    long[] starts = storeOneByOne(first, "p", 40);
    first.close();
    byte[] old = asVersionOne(Files.readAllBytes(file("p")), "p");
    int shift = dataStart("p") - JournalFormat.header("p", JournalFormat.VERSION_UNSLOTTED).length;

    Files.write(file("p"), old);
    flipByte(file("p"), starts[39] - shift + 20); // a sound record follows: corruption, as before the slot
    FileJournal damaged = journal("");
    assertCorruptAt(failure(damaged.highestSequenceNr("p"), IOException.class, "highestSequenceNr"), file("p"),
        starts[39] - shift);
    damaged.close();

    Files.write(file("p"), Arrays.copyOf(old, old.length - 3)); // nothing follows: a torn tail
    FileJournal j = journal("compact-after = 1 KiB");
    assertEquals(39, highest(j, "p"));
    store(j, write("p", 40, "again"));
    assertArrayEquals(JournalFormat.header("p", JournalFormat.VERSION_UNSLOTTED),
        Arrays.copyOf(Files.readAllBytes(file("p")), slotAt("p")), "appends keep its version");
    await(j.deleteTo("p", 30), "deleteTo 30");
    await(j.compactionsIdle(), "the compaction");
    assertEquals(1, j.compactions());
    assertArrayEquals(JournalFormat.header("p", JournalFormat.VERSION),
        Arrays.copyOf(Files.readAllBytes(file("p")), slotAt("p")), "compaction writes this version");
    assertEquals(Files.size(file("p")), slot("p"));
    store(j, write("p", 41, "after"));
    assertEquals(Files.size(file("p")), slot("p"), "the moved slot follows the forces");
    j.close();

    FileJournal reopened = journal("");
    assertEquals(range(31, 41), seqNrs(reopened, "p"));
  }

  @Test
  void aTagIndexFileCutInTheWritesOfItsLastForceIsATornTail() throws IOException {
    Path tags = dir.resolve("tags").resolve("t" + FileJournal.TAG_SUFFIX);
    FileJournal first = journal("");
    store(first, FileJournalTagsTest.write(FileJournalTagsTest.event("p", 1, "p1", "t")));
    byte[] tagsBefore = Files.readAllBytes(tags);
    byte[] eventsBefore = Files.readAllBytes(file("p"));
    store(first, FileJournalTagsTest.write(FileJournalTagsTest.event("p", 2, "p2", "t")),
        FileJournalTagsTest.write(FileJournalTagsTest.event("p", 3, "p3", "t")));
    first.close();
    // a crash while the index records were forced: the second reached the disk, the first did not,
    // and none of the events (appended only after that force) did
    byte[] tagsAfter = Files.readAllBytes(tags);
    int tagSlotAt = JournalFormat.tagHeader("t", JournalFormat.TAG_VERSION).length;
    byte[] image = crashImage(tagsAfter, tagsAfter.length, tagsBefore, tagSlotAt);
    Arrays.fill(image, tagsBefore.length, tagsBefore.length + 6, (byte) 0);
    Files.write(tags, image);
    Files.write(file("p"), eventsBefore);

    FileJournal j = journal("");
    List<TaggedRepr> got = FileJournalTagsTest.byTag(j, "t");
    assertEquals(List.of("1:p/1"), FileJournalTagsTest.keys(got));
    assertEquals(tagsBefore.length, Files.size(tags), "the torn index records are cut away");
  }
}
