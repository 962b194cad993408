package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
import dev.troupe.serialization.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Compaction of the file journal: deleted events leave the file, and nothing else changes. */
class FileJournalCompactionTest extends JournalTestSupport {
  private static final String PAD = "x".repeat(100);

  private Path file(String pid) {
    return dir.resolve(pid + FileJournal.SUFFIX);
  }

  private Path temp(String pid) {
    return dir.resolve(pid + FileJournal.SUFFIX + FileJournal.COMPACT_SUFFIX);
  }

  /** @return events from..to of {@code pid}, one write each, every third tagged "red", in one call */
  private static AtomicWrite[] events(String pid, long from, long to) {
    return LongStream.rangeClosed(from, to).mapToObj(n -> n % 3 == 0
        ? FileJournalTagsTest.write(FileJournalTagsTest.event(pid, n, PAD + n, "red"))
        : write(pid, n, PAD + n)).toArray(AtomicWrite[]::new);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static void idle(FileJournal j) {
    await(j.compactionsIdle(), "the compactions");
  }

  /** @return the "offset:pid/seq" of the events tagged red */
  private static List<String> red(FileJournal j) {
    return FileJournalTagsTest.keys(FileJournalTagsTest.byTag(j, "red"));
  }

  private static List<String> ids(FileJournal j) {
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    await(j.currentPersistenceIds(ids::add), "currentPersistenceIds");
    return ids;
  }

  /** @return the offsets and keys of the red events from {@code from} to {@code to}, as first stored 1..to */
  private static List<String> redKeys(long from, long to) {
    List<String> keys = new ArrayList<>();
    for (long n = 3; n <= to; n += 3) {
      if (n >= from) {
        keys.add(n / 3 + ":p/" + n);
      }
    }
    return keys;
  }

  @Test
  void compactionShrinksTheFileAndKeepsReplayHighestWritesAndTagsAlsoAfterReopening() throws IOException {
    FileJournal j = journal("compact-after = 1 KiB");
    store(j, events("p", 1, 100));
    byte[] before = Files.readAllBytes(file("p"));
    await(j.deleteTo("p", 80), "deleteTo 80");
    idle(j);

    assertEquals(1, j.compactions());
    byte[] after = Files.readAllBytes(file("p"));
    assertTrue(after.length < before.length / 3, "the file shrinks: " + before.length + " -> " + after.length);
    int header = JournalFormat.header("p").length;
    byte[] marker = JournalFormat.compacted(80, 100);
    assertArrayEquals(JournalFormat.header("p"), Arrays.copyOf(after, header));
    assertArrayEquals(marker, Arrays.copyOfRange(after, header, header + marker.length), "the compaction marker");
    int kept = after.length - header - marker.length - SYNC;
    // the file as deleteTo left it: a sync point and the deletion marker
    byte[] deleted = concat(concat(before, JournalFormat.synced(before.length)), JournalFormat.tombstone(80));
    assertArrayEquals(Arrays.copyOfRange(deleted, deleted.length - kept, deleted.length),
        Arrays.copyOfRange(after, header + marker.length, after.length - SYNC), "the live records, byte for byte");
    assertArrayEquals(JournalFormat.synced(after.length - SYNC), Arrays.copyOfRange(after, after.length - SYNC,
        after.length), "a sync point after them");
    assertFalse(Files.exists(temp("p")));

    assertEquals(range(81, 100), seqNrs(j, "p"));
    assertEquals(PAD + 81, replay(j, "p", 81, 81, 1).get(0).payload());
    assertEquals(100, highest(j, "p"));
    assertEquals(redKeys(81, 100), red(j), "tagged events keep their offsets; deleted ones are skipped");
    store(j, events("p", 101, 103));
    assertEquals(range(81, 103), seqNrs(j, "p"));
    assertEquals(redKeys(81, 103), red(j));
    assertEquals(List.of("p"), ids(j));
    j.close();

    FileJournal reopened = journal("compact-after = 1 KiB");
    assertEquals(103, highest(reopened, "p"));
    assertEquals(range(81, 103), seqNrs(reopened, "p"));
    assertEquals(redKeys(81, 103), red(reopened));
    store(reopened, events("p", 104, 105));
    assertEquals(range(81, 105), seqNrs(reopened, "p"));
  }

  @Test
  void deletingEverythingLeavesTheHeaderAndMarkerAndKeepsTheNumbering() throws IOException {
    FileJournal j = journal("compact-after = 1 KiB");
    store(j, events("p", 1, 50));
    await(j.deleteTo("p", Long.MAX_VALUE), "deleteTo all");
    idle(j);
    assertEquals(JournalFormat.header("p").length + JournalFormat.compacted(50, 50).length + SYNC, Files.size(file("p")));
    assertEquals(50, highest(j, "p"));
    assertEquals(List.of(), seqNrs(j, "p"));
    assertEquals(List.of(), red(j));
    j.close();

    FileJournal reopened = journal("compact-after = 1 KiB");
    assertEquals(50, highest(reopened, "p"), "the highest never goes down");
    IllegalStateException again = failure(reopened.write(List.of(write("p", 50, "again"))),
        IllegalStateException.class, "a write of a number the compacted file had");
    assertTrue(again.getMessage().contains("already stored"), again.getMessage());
    store(reopened, write("p", 51, "next"));
    assertEquals(List.of(51L), seqNrs(reopened, "p"));
    await(reopened.deleteTo("p", 40), "a deletion below the one kept");
    assertEquals(List.of(51L), seqNrs(reopened, "p"));
    assertEquals(List.of("p"), ids(reopened));
  }

  @Test
  void aFileIsCompactedOnlyWithEnoughDeadBytesAndNoFewerThanItsLiveOnes() throws IOException {
    FileJournal off = journal("compact-after = off");
    store(off, events("off", 1, 100));
    long full = Files.size(file("off"));
    await(off.deleteTo("off", 100), "deleteTo all, compaction off");
    idle(off);
    assertEquals(0, off.compactions());
    assertEquals(full + SYNC + JournalFormat.tombstone(1).length, Files.size(file("off")),
        "only the deletion marker is added (after a sync point)");
    assertEquals(100, highest(off, "off"));
    off.close();

    FileJournal big = journal("compact-after = 1 MiB");
    store(big, events("p", 1, 100));
    await(big.deleteTo("p", 100), "deleteTo all, under the threshold");
    idle(big);
    assertEquals(0, big.compactions(), "fewer dead bytes than compact-after");
    big.close();

    FileJournal j = journal("compact-after = 1 KiB");
    store(j, events("q", 1, 100));
    await(j.deleteTo("q", 30), "deleteTo 30");
    idle(j);
    assertEquals(0, j.compactions(), "over compact-after, but fewer dead bytes than live ones");
    await(j.deleteTo("q", 60), "deleteTo 60");
    idle(j);
    assertEquals(1, j.compactions(), "more dead bytes than live ones");
    assertEquals(range(61, 100), seqNrs(j, "q"));
    assertEquals(100, highest(j, "q"));
  }

  @Test
  void aCompactionCutShortBeforeItsRenameIsDeletedOnOpenAndTheOldFileIsIntact() throws IOException {
    FileJournal first = journal("compact-after = off");
    store(first, events("p", 1, 20));
    await(first.deleteTo("p", 10), "deleteTo 10");
    first.close();
    byte[] old = Files.readAllBytes(file("p"));
    // what a crash while copying leaves: the new file's header and marker, and part of the records
    byte[] partial = Arrays.copyOf(old, JournalFormat.header("p").length + 100);
    Files.write(temp("p"), partial);
    Files.write(temp("gone"), partial); // of an id whose file is gone meanwhile

    FileJournal j = journal("compact-after = 1 KiB");
    assertEquals(List.of("p"), ids(j), "the unfinished compaction is no journal file");
    assertFalse(Files.exists(temp("p")), "deleted when the journal opened the directory");
    assertFalse(Files.exists(temp("gone")));
    assertArrayEquals(old, Files.readAllBytes(file("p")), "the old file is intact");
    assertEquals(range(11, 20), seqNrs(j, "p"));
    assertEquals(20, highest(j, "p"));
  }

  @Test
  void closingDuringACompactionLeavesOneWholeFileAndNoCompactionFile() throws IOException {
    FileJournal j = journal("compact-after = 1 KiB");
    j.compactChunk(64);
    store(j, events("p", 1, 100));
    await(j.deleteTo("p", 90), "deleteTo 90");
    j.close(); // gives up the compaction, or finds it done
    assertFalse(Files.exists(temp("p")));

    FileJournal reopened = journal("compact-after = off");
    assertEquals(range(91, 100), seqNrs(reopened, "p"));
    assertEquals(100, highest(reopened, "p"));
    assertEquals(redKeys(91, 100), red(reopened));
  }

  @Test
  void aCompactedFileIsWholeAfterACrashRightAfterTheRename() throws IOException {
    FileJournal j = journal("compact-after = 1 KiB");
    store(j, events("p", 1, 60));
    await(j.deleteTo("p", 55), "deleteTo 55");
    idle(j);
    assertEquals(1, j.compactions());
    byte[] compacted = Files.readAllBytes(file("p"));
    j.close();
    // the directory as the rename leaves it, whatever happens next: the new file in place, no other
    Path elsewhere = dir.resolve("after-rename");
    Files.createDirectories(elsewhere);
    Files.write(elsewhere.resolve("p" + FileJournal.SUFFIX), compacted);

    FileJournal reopened = closeLater(new FileJournal(system, section(elsewhere, "compact-after = 1 KiB")));
    assertEquals(range(56, 60), seqNrs(reopened, "p"));
    assertEquals(60, highest(reopened, "p"));
    assertEquals(compacted.length, Files.size(elsewhere.resolve("p" + FileJournal.SUFFIX)), "nothing is cut");
    store(reopened, write("p", 61, "next"));
    assertEquals(range(56, 61), seqNrs(reopened, "p"));
  }

  @Test
  void anAtomicWriteWhoseFirstEventsAreDeletedKeepsItsRecordsTogether() throws IOException {
    FileJournal j = journal("compact-after = 1 KiB");
    store(j, events("p", 1, 40));
    store(j, write("p", 41, PAD + 41, PAD + 42, PAD + 43, PAD + 44)); // one atomic write: four records
    await(j.deleteTo("p", 42), "deleteTo 42, within the atomic write");
    idle(j);
    assertEquals(1, j.compactions());
    byte[] after = Files.readAllBytes(file("p"));
    int firstKept = JournalFormat.header("p").length + JournalFormat.compacted(0, 0).length;
    assertEquals(JournalFormat.EVENT_MORE, after[firstKept + JournalFormat.TYPE_AT],
        "event 43 is still the write's continuation record");
    assertEquals(range(43, 44), seqNrs(j, "p"));
    j.close();

    FileJournal reopened = journal("compact-after = 1 KiB");
    assertEquals(range(43, 44), seqNrs(reopened, "p"), "its last records read as a whole write");
    assertEquals(after.length, Files.size(file("p")), "and are not cut as a torn write");
    assertEquals(44, highest(reopened, "p"));
  }

  @Test
  void aReplayInChunksAcrossACompactionReturnsEachLiveEventOnceInOrder() {
    FileJournal j = journal("fsync = off\ncompact-after = 1 KiB");
    j.compactChunk(256); // a compaction of many tasks, each between two chunks of the replay
    store(j, events("p", 1, 300));
    List<Long> seen = Collections.synchronizedList(new ArrayList<>());
    List<Long> compactionsSeen = Collections.synchronizedList(new ArrayList<>());
    List<CompletionStage<List<Optional<Exception>>>> late = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<Void> done = new CompletableFuture<>();

    replayFrom(j, 201, seen, compactionsSeen, late, done); // deletes to 200 once it has event 201
    await(done, "the replay in chunks of one event");
    idle(j);

    assertEquals(range(201, 302), seen, "each live event once, in order, the ones written meanwhile included");
    assertTrue(compactionsSeen.contains(0L) && compactionsSeen.contains(1L),
        "the compaction finished while the replay ran: " + compactionsSeen);
    assertEquals(1, j.compactions());
    assertEquals(List.of(), await(late.get(0), "the deletion during the replay"));
    assertEquals(List.of(Optional.empty()), await(late.get(1), "the write during the replay"));
    assertEquals(range(201, 302), seqNrs(j, "p"));
    assertEquals(302, highest(j, "p"));
  }

  /**
   * Replays one event from {@code from}, and from the IO thread asks for the next one, until none is
   * left. With event 201 it deletes to 200, from the IO thread too: from then on the IO thread runs
   * a step of the compaction and a chunk of the replay in turn (each queues its next task behind the
   * other's), so the file is switched while the replay runs, whatever the speed of the threads.
   */
  private static void replayFrom(FileJournal j, long from, List<Long> seen, List<Long> compactionsSeen,
      List<CompletionStage<List<Optional<Exception>>>> late, CompletableFuture<Void> done) {
    AtomicBoolean any = new AtomicBoolean();
    j.replay("p", from, Long.MAX_VALUE, 1, e -> {
      any.set(true);
      seen.add(e.sequenceNr());
      compactionsSeen.add(j.compactions());
      if (e.sequenceNr() == 201) {
        late.add(j.deleteTo("p", 200).thenApply(v -> List.of()));
      }
      if (e.sequenceNr() == 250) {
        late.add(j.write(List.of(write("p", 301, PAD + 301, PAD + 302))));
      }
      replayFrom(j, e.sequenceNr() + 1, seen, compactionsSeen, late, done);
    }).whenComplete((v, x) -> {
      if (x != null) {
        done.completeExceptionally(x);
      } else if (!any.get()) {
        done.complete(null);
      }
    });
  }

  @Test
  void deletionsAndWritesWhileACompactionRunsAreKept() {
    FileJournal j = journal("compact-after = 1 KiB");
    j.compactChunk(128);
    store(j, events("p", 1, 100));
    CompletionStage<Void> first = j.deleteTo("p", 50);
    CompletionStage<List<Optional<Exception>>> more = j.write(List.of(events("p", 101, 110)));
    CompletionStage<Void> second = j.deleteTo("p", 70);
    await(first, "deleteTo 50");
    await(more, "write 101..110");
    await(second, "deleteTo 70");
    idle(j);
    assertTrue(j.compactions() >= 1);
    assertEquals(range(71, 110), seqNrs(j, "p"));
    assertEquals(redKeys(71, 110), red(j));
    j.close();

    FileJournal reopened = journal("compact-after = 1 KiB");
    assertEquals(range(71, 110), seqNrs(reopened, "p"));
    assertEquals(110, highest(reopened, "p"));
    assertEquals(redKeys(71, 110), red(reopened));
  }

  @Test
  void aPositionFoundBeforeACompactionIsFoundAgainByNumberAfterIt() throws IOException {
    Serialization s = Serialization.get(system);
    JournalFile f = JournalFile.create("p", file("p"), 1 << 20, false);
    try {
      for (int n = 1; n <= 10; n++) {
        f.append(JournalFormat.encode(write("p", n, PAD + n), s, 1 << 20), false);
      }
      JournalFile.Located[] found = f.locate(new long[] {3, 9});
      f.deleteTo(5, false);
      JournalFile.Compaction c = f.compact(temp("p"));
      while (!c.copy(16, false)) {
        // a few bytes per step
      }
      c.finish(false);
      assertEquals(1, f.generation());
      assertNotEquals(found[1].pos(), f.locate(new long[] {9})[0].pos(), "the event moved");
      JournalFile.StoredEvent nine = f.eventAt(found[1], 9);
      assertEquals(9, nine.sequenceNr());
      assertEquals(PAD + 9, s.deserialize(nine.serializerId(), nine.manifest(), nine.payload()));
      assertNull(f.eventAt(found[0], 3), "deleted since: not found again");
    } finally {
      f.release();
    }
  }

  @Test
  void malformedCompactAfterFailsNamingTheKey() {
    for (String bad : List.of("lots", "0", "-1 KiB", "on", "[1]")) {
      ActorSystem s = system("troupe.persistence.journal.file.compact-after = " + bad);
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> new FileJournal(s, s.settings().config().getConfig("troupe.persistence.journal.file")), bad);
      assertTrue(e.getMessage().startsWith("troupe.persistence.journal.file.compact-after"), e.getMessage());
      assertTrue(e.getMessage().contains("off"), "says how to turn it off: " + e.getMessage());
    }
    for (String good : List.of("off", "\"off\"", "1", "16 MiB")) {
      ActorSystem s = system("troupe.persistence.journal.file.compact-after = " + good);
      closeLater(new FileJournal(s, s.settings().config().getConfig("troupe.persistence.journal.file")));
    }
  }
}
