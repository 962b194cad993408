package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** Tags in the file journal: stored with their events, and found again through the index per tag. */
class FileJournalTagsTest extends JournalTestSupport {

  /** @return an event of {@code pid} numbered {@code seq}, stamped 1000 + seq, with the tags */
  static PersistentRepr event(String pid, long seq, Object payload, String... tags) {
    return new PersistentRepr(pid, seq, payload, 1000 + seq, Set.of(tags));
  }

  static AtomicWrite write(PersistentRepr... events) {
    return new AtomicWrite(events[0].persistenceId(), List.of(events));
  }

  /** @return the events of the tag after the offset, at most max */
  static List<TaggedRepr> byTag(FileJournal j, String tag, long after, long max) {
    List<TaggedRepr> got = Collections.synchronizedList(new ArrayList<>());
    await(j.eventsByTag(tag, after, max, got::add), "eventsByTag " + tag);
    return got;
  }

  static List<TaggedRepr> byTag(FileJournal j, String tag) {
    return byTag(j, tag, 0, Long.MAX_VALUE);
  }

  /** @return each as "offset:pid/seq" */
  static List<String> keys(List<TaggedRepr> events) {
    return events.stream().map(t -> t.offset() + ":" + t.event().persistenceId() + "/" + t.event().sequenceNr()).toList();
  }

  private Path journalFile(String pid) {
    return dir.resolve(pid + FileJournal.SUFFIX);
  }

  private Path tagFile(String tag) {
    return dir.resolve(FileJournal.TAGS_DIR).resolve(tag + FileJournal.TAG_SUFFIX);
  }

  @Test
  void tagsRoundTripThroughReplayAndAnUntaggedEventStaysUntagged() throws IOException {
    FileJournal j = journal("");
    List<PersistentRepr> events = List.of(event("p", 1, new Evt("a", 1), "red", "blue"), event("p", 2, "plain"),
        event("p", 3, "one tag", "red"));
    store(j, write(events.get(0), events.get(1)), write(events.get(2)));
    store(j, write(event("u", 1, "untagged only")));

    assertEquals(events, replay(j, "p", 1, Long.MAX_VALUE, Long.MAX_VALUE));
    assertEquals(Set.of(), replay(j, "p", 2, 2, 1).get(0).tags());
    j.close();

    FileJournal reopened = journal("");
    assertEquals(events, replay(reopened, "p", 1, Long.MAX_VALUE, Long.MAX_VALUE), "after reopening");
    byte[] untagged = Files.readAllBytes(journalFile("u"));
    int type = untagged[JournalFormat.header("u").length + SYNC + JournalFormat.TYPE_AT];
    assertEquals(JournalFormat.EVENT, type, "an untagged event is written as before tags existed");
    byte[] tagged = Files.readAllBytes(journalFile("p"));
    assertEquals(JournalFormat.TAGGED_MORE, tagged[JournalFormat.header("p").length + SYNC + JournalFormat.TYPE_AT]);
  }

  @Test
  void eventsOfSeveralIdsComeInStoreOrderWithOffsetsFromOneAndResume() {
    FileJournal j = journal("");
    store(j, write(event("p", 1, "p1", "t")));
    store(j, write(event("q", 1, "q1", "t", "u")), write(event("p", 2, "p2 untagged")));
    store(j, write(event("p", 3, "p3", "t")));
    store(j, write(event("r", 1, new Evt("r", 1), "t"), event("r", 2, "r2"), event("r", 3, "r3", "t")));

    List<String> all = List.of("1:p/1", "2:q/1", "3:p/3", "4:r/1", "5:r/3");
    List<String> threads = new CopyOnWriteArrayList<>();
    List<TaggedRepr> got = new ArrayList<>();
    await(j.eventsByTag("t", 0, Long.MAX_VALUE, e -> {
      threads.add(Thread.currentThread().getName());
      got.add(e);
    }), "eventsByTag");
    assertEquals(all, keys(got));
    assertTrue(threads.stream().allMatch(t -> t.matches("troupe-file-journal-\\d+")), "on the IO thread: " + threads);
    assertEquals(new TaggedRepr(4, event("r", 1, new Evt("r", 1), "t")), got.get(3), "the whole event, tags and all");
    assertEquals(List.of("1:q/1"), keys(byTag(j, "u")));
    assertEquals(all.subList(2, 5), keys(byTag(j, "t", 2, Long.MAX_VALUE)), "resumes after offset 2");
    assertEquals(all.subList(1, 3), keys(byTag(j, "t", 1, 2)), "at most 2");
    assertEquals(List.of(), byTag(j, "t", 5, 10), "after the last");
    assertEquals(List.of(), byTag(j, "t", 0, 0), "max 0");
    assertEquals(List.of(), byTag(j, "nobody-has-it"));
    assertEquals(all, keys(byTag(j, "t", -3, 100)), "a negative offset reads from the start");
    j.close();

    FileJournal reopened = journal("");
    assertEquals(all, keys(byTag(reopened, "t")), "the same offsets after reopening");
    assertEquals(keys(got), keys(byTag(reopened, "t")));
    assertEquals(got, byTag(reopened, "t"));
    store(reopened, write(event("q", 2, "q2", "t")));
    assertEquals(List.of("6:q/2"), keys(byTag(reopened, "t", 5, 10)), "a later event gets the next offset");
  }

  @Test
  void aPersistenceIdTooLongForAFileHeaderIsRejectedAndTheTagStaysReadable() {
    FileJournal j = journal("");
    String longId = "x".repeat(JournalFormat.MAX_ID_BYTES + 1);
    List<Optional<Exception>> r = await(j.write(List.of(new AtomicWrite(longId,
        List.of(new PersistentRepr(longId, 1, "a", 1001, Set.of("t")))))), "write");
    assertEquals(1, r.size());
    assertInstanceOf(IllegalArgumentException.class, r.get(0).orElseThrow(), "rejected, as an event too large is");
    assertTrue(r.get(0).get().getMessage().contains(JournalFormat.MAX_ID_BYTES + " bytes"), r.get(0).get().getMessage());
    store(j, new AtomicWrite("q", List.of(new PersistentRepr("q", 1, "b", 1001, Set.of("t")))));
    assertEquals(List.of("b"), byTag(j, "t").stream().map(e -> e.event().payload()).toList(),
        "the tag holds no record no read accepts");
    assertEquals(List.of(), seqNrs(j, longId));
  }

  @Test
  void deletedEventsAreLeftOutAndTheirOffsetsSkipped() {
    FileJournal j = journal("");
    for (int i = 1; i <= 5; i++) {
      store(j, write(event("p", i, "p" + i, "t")));
    }
    store(j, write(event("q", 1, "q1", "t")));
    await(j.deleteTo("p", 3), "deleteTo 3");
    List<String> expected = List.of("4:p/4", "5:p/5", "6:q/1");
    assertEquals(expected, keys(byTag(j, "t")));
    assertEquals(expected, keys(byTag(j, "t", 1, 10)));
    assertEquals(List.of("4:p/4"), keys(byTag(j, "t", 0, 1)), "max counts handed-over events, not skipped ones");
    j.close();

    FileJournal reopened = journal("");
    assertEquals(expected, keys(byTag(reopened, "t")));
    await(reopened.deleteTo("p", Long.MAX_VALUE), "deleteTo all");
    assertEquals(List.of("6:q/1"), keys(byTag(reopened, "t")));
  }

  @Test
  void tagsThatAreNoSafeFileNamesWorkAndStayInTheTagsDirectory() throws IOException {
    List<String> tags = List.of("a b", "x/y", "../escape", "/etc/passwd", "..", ".hidden", "a:b*?", "日本語",
        "ü".repeat(128), "t".repeat(256), "t".repeat(101), "t".repeat(100), "safe-tag_1.2");
    FileJournal j = journal("");
    for (int i = 0; i < tags.size(); i++) {
      store(j, write(event("q", i + 1, "q" + i, tags.get(i), "common")));
    }
    for (int i = 0; i < tags.size(); i++) {
      assertEquals(List.of("1:q/" + (i + 1)), keys(byTag(j, tags.get(i))), tags.get(i));
    }
    assertEquals(IntStream.rangeClosed(1, tags.size()).mapToObj(i -> i + ":q/" + i).toList(), keys(byTag(j, "common")));
    j.close();

    List<Path> written;
    try (Stream<Path> all = Files.walk(dir)) {
      written = all.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(FileJournal.TAG_SUFFIX)).toList();
    }
    assertTrue(written.stream().allMatch(p -> p.getParent().equals(dir.resolve(FileJournal.TAGS_DIR))), written.toString());
    List<String> names = written.stream().map(p -> p.getFileName().toString()).toList();
    assertEquals(tags.size() + 1, new HashSet<>(names).size(), "one file per tag: " + names);
    names.forEach(n -> assertTrue(n.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\\.tags"), n));
    assertTrue(names.contains("safe-tag_1.2.tags") && names.contains("t".repeat(100) + ".tags"), "safe tags as they are");

    FileJournal reopened = journal("");
    for (int i = 0; i < tags.size(); i++) {
      assertEquals(List.of("1:q/" + (i + 1)), keys(byTag(reopened, tags.get(i))), "after reopening: " + tags.get(i));
    }
  }

  @Test
  void tooManyOrTooLongOrEmptyTagsAreRejectedAndNothingOfThemIsStored() throws IOException {
    FileJournal j = journal("");
    String[] sixtyFive = IntStream.range(0, 65).mapToObj(i -> "many-" + i).toArray(String[]::new);
    String[] sixtyFourLong = IntStream.range(0, 64).mapToObj(i -> String.format("%03d", i) + "x".repeat(253))
        .toArray(String[]::new);
    List<Optional<Exception>> results = await(j.write(List.of(
        write(event("ok", 1, "fine", "t")),
        write(event("many", 1, "a", "t"), event("many", 2, "b", sixtyFive)),
        write(event("long", 1, "c", "t", "y".repeat(257))),
        write(event("wide", 1, "d", "ü".repeat(129))),
        write(event("empty", 1, "e", "")),
        write(event("surrogate", 1, "f", "\uD800")),
        write(event("bounds", 1, "g", sixtyFourLong)))), "write");

    assertEquals(Optional.empty(), results.get(0));
    for (int i = 1; i <= 5; i++) {
      Exception e = results.get(i).orElseThrow(() -> new AssertionError("the write should be rejected"));
      assertInstanceOf(IllegalArgumentException.class, e);
    }
    assertTrue(results.get(1).orElseThrow().getMessage().contains("65 tags"), results.get(1).toString());
    assertTrue(results.get(2).orElseThrow().getMessage().contains("256 bytes"), results.get(2).toString());
    assertEquals(Optional.empty(), results.get(6), "64 tags of 256 bytes each are the most, and allowed");

    for (String pid : List.of("many", "long", "wide", "empty", "surrogate")) {
      assertEquals(0, highest(j, pid), pid);
      assertFalse(Files.exists(journalFile(pid)), pid);
    }
    assertEquals(List.of("1:ok/1"), keys(byTag(j, "t")), "the rejected writes' other tags are not indexed either");
    assertFalse(Files.exists(tagFile("many-0")));
    assertEquals(List.of(), byTag(j, "y".repeat(257)), "a tag no event can have has no events");
    assertEquals(List.of(), byTag(j, ""));
    assertEquals(Set.of(sixtyFourLong), replay(j, "bounds", 1, 1, 1).get(0).tags());
    assertEquals(List.of("1:bounds/1"), keys(byTag(j, sixtyFourLong[63])));
  }

  @Test
  void anIndexRecordWhoseEventWasCutAwayIsSkippedAndTheEventStoredAgainUnderItsNumberComesOnce() throws IOException {
    FileJournal first = journal("");
    store(first, write(event("p", 1, "p1", "t")));
    long sound = Files.size(journalFile("p"));
    store(first, write(event("p", 2, "lost", "t"), event("p", 3, "lost too", "t")));
    first.close();
    // a crash after the index records were forced, before all of the events were: the write is a torn tail
    byte[] full = Files.readAllBytes(journalFile("p"));
    Files.write(journalFile("p"), Arrays.copyOf(full, (int) (sound + (full.length - sound) / 2)));

    FileJournal j = journal("");
    assertEquals(List.of("1:p/1"), keys(byTag(j, "t")), "the records of the lost events are skipped");
    assertEquals(1, highest(j, "p"));
    // the same numbers and timestamps again, with other payloads (and event 3 without the tag)
    store(j, write(event("p", 2, "again", "t"), event("p", 3, "again, untagged")));
    List<TaggedRepr> got = byTag(j, "t");
    assertEquals(List.of("1:p/1", "4:p/2"), keys(got), "the new event 2 is handed over once, at its own offset");
    assertEquals("again", got.get(1).event().payload());
    assertEquals(List.of("4:p/2"), keys(byTag(j, "t", 1, 10)));
    j.close();

    FileJournal reopened = journal("");
    assertEquals(List.of("1:p/1", "4:p/2"), keys(byTag(reopened, "t")), "after reopening");
  }

  @Test
  void anIndexRecordOfAnEventNeverStoredIsSkipped() throws IOException {
    FileJournal first = journal("");
    store(first, write(event("p", 1, "p1", "t")));
    first.close();
    // a crash after the index records were forced, before any byte of the events was written
    int otherCrc = 0x12345678;
    byte[] pid = "p".getBytes(StandardCharsets.UTF_8);
    byte[] ghost = "ghost".getBytes(StandardCharsets.UTF_8);
    Files.write(tagFile("t"), JournalFormat.entry(pid, 2, 1002, otherCrc), StandardOpenOption.APPEND);
    Files.write(tagFile("t"), JournalFormat.entry(ghost, 1, 1001, otherCrc), StandardOpenOption.APPEND);
    Files.write(tagFile("t"), JournalFormat.entry(pid, 3, 1003, otherCrc), StandardOpenOption.APPEND);

    FileJournal j = journal("");
    assertEquals(List.of("1:p/1"), keys(byTag(j, "t")));
    store(j, write(event("p", 2, "p2", "t")));
    store(j, write(event("ghost", 1, "g1", "t")));
    assertEquals(List.of("1:p/1", "5:p/2", "6:ghost/1"), keys(byTag(j, "t")), "each once, at its own offset");
    assertEquals(List.of("5:p/2"), keys(byTag(j, "t", 1, 1)), "max counts handed-over events only");
    assertEquals(List.of("6:ghost/1"), keys(byTag(j, "t", 5, 1)));
  }

  @Test
  void aTornIndexTailIsCutOnOpen() throws IOException {
    FileJournal first = journal("");
    for (int i = 1; i <= 3; i++) {
      store(first, write(event("p", i, "p" + i, "t")));
    }
    first.close();
    long sound = Files.size(tagFile("t"));
    byte[] entry = JournalFormat.entry("p".getBytes(StandardCharsets.UTF_8), 4, 1004, 0);

    for (byte[] tail : List.of(Arrays.copyOf(entry, 5), Arrays.copyOf(entry, entry.length - 1), new byte[100])) {
      Files.write(tagFile("t"), tail, StandardOpenOption.APPEND);
      FileJournal j = journal("");
      assertEquals(List.of("1:p/1", "2:p/2", "3:p/3"), keys(byTag(j, "t")));
      assertEquals(sound, Files.size(tagFile("t")), "the torn tail is cut away");
      j.close();
    }
    FileJournal j = journal("");
    store(j, write(event("p", 4, "p4", "t")));
    assertEquals(List.of("4:p/4"), keys(byTag(j, "t", 3, 10)));
  }

  @Test
  void aDamagedIndexRecordBeforeTheTailFailsNamingTheFileAndOffset() throws IOException {
    FileJournal j = journal("");
    long[] starts = new long[4];
    for (int i = 1; i <= 3; i++) {
      starts[i] = Files.exists(tagFile("t")) ? Files.size(tagFile("t")) : JournalFormat.tagHeader("t").length;
      store(j, write(event("p", i, "p" + i, "t")));
    }
    long size = Files.size(tagFile("t"));
    flipByte(tagFile("t"), starts[2] + JournalFormat.FRAME + 3);

    assertCorruptAt(failure(j.eventsByTag("t", 0, 10, e -> {}), IOException.class, "eventsByTag"), starts[2]);
    j.close();

    FileJournal reopened = journal("");
    assertCorruptAt(failure(reopened.eventsByTag("t", 0, 10, e -> {}), IOException.class, "eventsByTag after reopening"),
        starts[2]);
    failure(reopened.write(List.of(write(event("p", 4, "p4", "t")))), IOException.class, "a write with the tag");
    assertEquals(3, highest(reopened, "p"), "no event is stored without its index record");
    store(reopened, write(event("p", 4, "p4 untagged")));
    assertEquals(size, Files.size(tagFile("t")), "a corrupt file is left as it is");
  }

  private void assertCorruptAt(IOException e, long offset) {
    assertCorruptIn(e, tagFile("t"), offset);
  }

  /** Overwrites an int in the journal record at {@code start} and seals the record again, as a sound one. */
  private static void patchAndReseal(Path file, long start, int at, int value) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int length = b.getInt((int) start);
    b.putInt((int) start + at, value);
    CRC32C crc = new CRC32C();
    crc.update(bytes, (int) start, 4);
    crc.update(bytes, (int) start + JournalFormat.FRAME, length);
    b.putInt((int) start + 4, (int) crc.getValue());
    Files.write(file, bytes);
  }

  @Test
  void aRecordClaimingTooManyOrTooLongTagsIsCorruptionNotAnAllocation() throws IOException {
    FileJournal first = journal("");
    store(first, write(event("p", 1, "p1", "t")));
    long second = Files.size(journalFile("p")) + SYNC; // its write starts with a sync point
    store(first, write(event("p", 2, "p2", "t")));
    first.close();
    byte[] sound = Files.readAllBytes(journalFile("p"));
    long first1 = JournalFormat.header("p").length + SYNC;
    int count = JournalFormat.TAG_COUNT_AT;
    int length = count + 4;
    Object[][] cases = {{first1, count, 65, "65 tags"}, {second, count, Integer.MAX_VALUE, "tags"},
        {first1, length, 257, "out of bounds"}, {second, length, 0x7FFFFFF0, "out of bounds"}, {second, count, 0, "0 tags"}};
    for (Object[] c : cases) {
      Files.write(journalFile("p"), sound);
      patchAndReseal(journalFile("p"), (Long) c[0], (Integer) c[1], (Integer) c[2]);
      FileJournal j = journal("");
      IOException e = failure(j.replay("p", 1, 2, 2, x -> {}), IOException.class, "replay of " + Arrays.toString(c));
      String m = e.getMessage();
      assertTrue(m.contains(journalFile("p").toString()) && m.contains("corrupt at offset " + c[0] + ":")
          && m.contains((String) c[3]), m);
      failure(j.eventsByTag("t", 0, 10, x -> {}), IOException.class, "eventsByTag of " + Arrays.toString(c));
      assertEquals(sound.length, Files.size(journalFile("p")), "nothing is cut");
      j.close();
    }
  }

  @Test
  void aTagIndexFileOfAnotherTagIsAnErrorNotAMix() throws IOException {
    FileJournal first = journal("");
    store(first, write(event("p", 1, "p1", "a")));
    first.close();
    Files.copy(tagFile("a"), tagFile("b"));
    FileJournal j = journal("");
    IOException e = failure(j.eventsByTag("b", 0, 10, x -> {}), IOException.class, "eventsByTag of b");
    assertTrue(e.getMessage().contains(tagFile("b").toString()) && e.getMessage().contains("tag [b]"), e.getMessage());
    assertEquals(List.of("1:p/1"), keys(byTag(j, "a")));
  }

  @Test
  void longIndexesAreReadInChunksThroughTheSparseIndexWithFewOpenFiles() throws IOException {
    FileJournal j = journal("fsync = off\nmax-open-files = 3");
    int n = 700;
    List<AtomicWrite> writes = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      String pid = "actor-" + (i % 7);
      writes.add(write(event(pid, i, new Evt(pid, i), "t", "tag-" + (i % 5))));
    }
    List<Optional<Exception>> results = await(j.write(writes), n + " writes");
    assertEquals(Collections.nCopies(n, Optional.empty()), results);

    List<TaggedRepr> all = byTag(j, "t");
    assertEquals(n, all.size());
    for (int i = 0; i < n; i++) {
      assertEquals(i + 1, all.get(i).offset());
      assertEquals(i + 1, all.get(i).event().sequenceNr());
    }
    assertEquals(all.subList(600, 610), byTag(j, "t", 600, 10), "resumes past the sparse index's second entry");
    assertEquals(all.subList(255, 700), byTag(j, "t", 255, 1000));
    assertEquals(all.subList(256, 257), byTag(j, "t", 256, 1));
    assertEquals(140, byTag(j, "tag-0").size());
    assertTrue(openFilesIn(dir) <= 3 + 1, "at most 3 journal and tag files and the lock open: " + openFilesIn(dir));
    j.close();

    FileJournal reopened = journal("max-open-files = 2");
    assertEquals(all.subList(500, 700), byTag(reopened, "t", 500, 1000));
    assertEquals(all.stream().filter(t -> t.event().sequenceNr() % 5 == 3).map(t -> t.event()).toList(),
        byTag(reopened, "tag-3").stream().map(TaggedRepr::event).toList());
    assertTrue(openFilesIn(dir) <= 2 + 1, "at most 2 open: " + openFilesIn(dir));
  }

  @Test
  void aReaderThatResumesWhileEventsAreWrittenSeesEachOnceInOrder() {
    FileJournal j = journal("");
    int n = 200;
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      for (int i = 1; i <= n; i++) {
        String pid = "w-" + (i % 3);
        store(j, write(event(pid, i, "e" + i, "t")));
      }
    });
    List<TaggedRepr> seen = new ArrayList<>();
    while (!writer.isDone()) {
      long after = seen.isEmpty() ? 0 : seen.get(seen.size() - 1).offset();
      seen.addAll(byTag(j, "t", after, 17));
    }
    await(writer, "the writer");
    long after = seen.isEmpty() ? 0 : seen.get(seen.size() - 1).offset();
    seen.addAll(byTag(j, "t", after, Long.MAX_VALUE));
    assertEquals(IntStream.rangeClosed(1, n).mapToObj(i -> i + ":w-" + (i % 3) + "/" + i).toList(), keys(seen));
  }

  @Test
  void afterCloseAReadByTagFails() {
    FileJournal j = journal("");
    store(j, write(event("p", 1, "p1", "t")));
    j.close();
    failure(j.eventsByTag("t", 0, 10, e -> {}), IllegalStateException.class, "eventsByTag after close");
  }

  /** @return how many descriptors of this process are open on files under {@code dir} (Linux), or 0 */
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
}
