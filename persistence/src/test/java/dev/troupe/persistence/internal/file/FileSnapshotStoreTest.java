package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.SnapshotMetadata;
import dev.troupe.persistence.SnapshotSelectionCriteria;
import dev.troupe.persistence.spi.SelectedSnapshot;
import dev.troupe.persistence.spi.SnapshotStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file snapshot store: the newest selected snapshot that can be read, and deletes. */
class FileSnapshotStoreTest extends PluginTestSupport {
  private static final SnapshotSelectionCriteria LATEST = SnapshotSelectionCriteria.latest();

  @TempDir Path dir;
  private ActorSystem system;

  @BeforeEach
  void startSystem() {
    system = system("");
  }

  private FileSnapshotStore store(ActorSystem in, String hocon) {
    return closeLater(new FileSnapshotStore(in, section(dir, "fsync = on\n" + hocon)));
  }

  private FileSnapshotStore store() {
    return store(system, "");
  }

  private static void save(SnapshotStore s, String pid, long seq, long timestamp, Object snapshot) {
    await(s.save(new SnapshotMetadata(pid, seq, timestamp), snapshot), "save of " + pid + " at " + seq);
  }

  private static Optional<SelectedSnapshot> load(SnapshotStore s, String pid, SnapshotSelectionCriteria criteria) {
    return await(s.load(pid, criteria), "load of " + pid);
  }

  /** @return the sequence number and snapshot loaded, e.g. "5:five", or "none" */
  private static String loaded(SnapshotStore s, String pid, SnapshotSelectionCriteria criteria) {
    return load(s, pid, criteria).map(x -> x.metadata().sequenceNr() + ":" + x.snapshot()).orElse("none");
  }

  private Path file(String pid, long seq, long timestamp) {
    return dir.resolve(pid + "-" + seq + "-" + timestamp + FileSnapshotStore.SUFFIX);
  }

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void loadsTheNewestSnapshotTheCriteriaSelect() {
    FileSnapshotStore s = store();
    save(s, "p", 5, 100, "five");
    save(s, "p", 10, 200, new Evt("ten", 10));
    save(s, "p", 15, 300, "fifteen");
    save(s, "p-1", 20, 400, "another id with a dash");

    SelectedSnapshot newest = load(s, "p", LATEST).orElseThrow();
    assertEquals(new SnapshotMetadata("p", 15, 300), newest.metadata());
    assertEquals("fifteen", newest.snapshot());
    assertEquals("10:" + new Evt("ten", 10), loaded(s, "p", SnapshotSelectionCriteria.create(14, Long.MAX_VALUE)));
    assertEquals("5:five", loaded(s, "p", SnapshotSelectionCriteria.create(Long.MAX_VALUE, 150)));
    assertEquals("none", loaded(s, "p", SnapshotSelectionCriteria.create(Long.MAX_VALUE, Long.MAX_VALUE, 16, 0)));
    assertEquals("none", loaded(s, "p", SnapshotSelectionCriteria.none()));
    assertEquals("none", loaded(s, "q", LATEST));
    assertEquals("20:another id with a dash", loaded(s, "p-1", LATEST));
    s.close();

    FileSnapshotStore reopened = store();
    assertEquals("15:fifteen", loaded(reopened, "p", LATEST));
    assertEquals("20:another id with a dash", loaded(reopened, "p-1", LATEST));
  }

  @Test
  void fallsBackPastCorruptAndCutFiles() throws IOException {
    FileSnapshotStore s = store();
    save(s, "p", 1, 10, "one");
    save(s, "p", 2, 20, "two");
    save(s, "p", 3, 30, "three");
    try (RandomAccessFile f = new RandomAccessFile(file("p", 3, 30).toFile(), "rw")) {
      f.seek(f.length() - 2);
      f.write('X');
    }
    assertEquals("2:two", loaded(s, "p", LATEST));
    try (RandomAccessFile f = new RandomAccessFile(file("p", 2, 20).toFile(), "rw")) {
      f.setLength(20);
    }
    assertEquals("1:one", loaded(s, "p", LATEST));
    Files.delete(file("p", 1, 10));
    assertEquals("none", loaded(s, "p", LATEST), "a file deleted behind the store's back is skipped");
  }

  @Test
  void fallsBackPastASnapshotThatNoLongerDeserializes() {
    FileSnapshotStore s = store();
    save(s, "p", 1, 10, "one");
    save(s, "p", 2, 20, new Evt("two", 2));
    s.close();

    ActorSystem unbound = ActorSystem.create("SnapshotsWithoutBindings", ConfigFactory.empty());
    try {
      FileSnapshotStore reader = store(unbound, "");
      assertEquals("1:one", loaded(reader, "p", LATEST), "a class no longer bound is skipped");
    } finally {
      await(unbound.terminate(), "termination");
    }
  }

  @Test
  void deletesByMetadataAndByCriteria() throws IOException {
    FileSnapshotStore s = store();
    for (long seq = 1; seq <= 6; seq++) {
      save(s, "p", seq, seq * 10, "s" + seq);
    }
    await(s.delete(new SnapshotMetadata("p", 6, 999)), "delete of another timestamp");
    assertEquals("6:s6", loaded(s, "p", LATEST), "a timestamp that does not match deletes nothing");
    await(s.delete(new SnapshotMetadata("p", 6, 60)), "delete by metadata");
    await(s.delete(new SnapshotMetadata("p", 5, 0)), "delete by metadata, any timestamp");
    assertEquals("4:s4", loaded(s, "p", LATEST));
    await(s.delete("p", SnapshotSelectionCriteria.create(3, Long.MAX_VALUE, 2, 0)), "delete 2 and 3");
    assertEquals("1:s1", loaded(s, "p", SnapshotSelectionCriteria.create(3, Long.MAX_VALUE)));
    assertEquals(List.of("p-1-10.snapshot", "p-4-40.snapshot"), names());
    await(s.delete("p", LATEST), "delete all");
    assertEquals(List.of(), names());
    await(s.delete("nobody", LATEST), "delete of an id without snapshots");
  }

  @Test
  void aSaveReplacesTheSnapshotAtItsSequenceNumber() throws IOException {
    FileSnapshotStore s = store();
    save(s, "p", 5, 100, "first");
    save(s, "p", 5, 200, "second");
    assertEquals(new SnapshotMetadata("p", 5, 200), load(s, "p", LATEST).orElseThrow().metadata());
    save(s, "p", 5, 200, "third");
    assertEquals("5:third", loaded(s, "p", LATEST));
    assertEquals(List.of("p-5-200.snapshot"), names());
  }

  @Test
  void temporaryLeftoversAndStrangeFilesAreIgnored() throws IOException {
    FileSnapshotStore first = store();
    save(first, "p", 1, 10, "one");
    first.close();
    Files.write(dir.resolve("p-9-90.snapshot.7.tmp"), new byte[] {1, 2, 3});
    Files.write(dir.resolve("notes.txt"), new byte[] {1});
    Files.write(dir.resolve("p-x-90.snapshot"), new byte[] {1});

    FileSnapshotStore s = store();
    assertEquals("1:one", loaded(s, "p", LATEST));
    assertEquals(List.of("notes.txt", "p-1-10.snapshot", "p-x-90.snapshot"), names(), "the leftover is cleaned");
  }

  @Test
  void anOversizedSnapshotIsNotSavedAndAnOversizedFileIsSkipped() {
    FileSnapshotStore roomy = store();
    save(roomy, "p", 1, 10, "small");
    save(roomy, "p", 2, 20, "x".repeat(100_000));
    roomy.close();

    FileSnapshotStore tight = store(system, "max-snapshot-size = 1 KiB");
    assertEquals("1:small", loaded(tight, "p", LATEST));
    IllegalArgumentException e = failure(tight.save(new SnapshotMetadata("p", 3, 30), "y".repeat(2000)),
        IllegalArgumentException.class, "save of an oversized snapshot");
    assertTrue(e.getMessage().contains("max-snapshot-size"), e.getMessage());
    assertEquals("1:small", loaded(tight, "p", LATEST));
  }

  @Test
  void unsafeIdsGetSafeNamesAndTheirOwnSnapshots() throws IOException {
    FileSnapshotStore s = store();
    List<String> pids = List.of("a/b", "..", "ünï", "x".repeat(500), "a-1", "a");
    for (int i = 0; i < pids.size(); i++) {
      save(s, pids.get(i), i + 1, 7, "of " + pids.get(i));
    }
    for (String n : names()) {
      assertTrue(n.matches("[A-Za-z0-9_-][A-Za-z0-9._-]*-\\d+-7\\.snapshot"), n);
    }
    for (int i = 0; i < pids.size(); i++) {
      assertEquals((i + 1) + ":of " + pids.get(i), loaded(s, pids.get(i), LATEST), pids.get(i));
    }
  }

  @Test
  void callsAfterCloseFail() {
    FileSnapshotStore s = store();
    s.close();
    SnapshotMetadata m = new SnapshotMetadata("p", 1, 1);
    failure(s.save(m, "x"), IllegalStateException.class, "save after close");
    failure(s.load("p", LATEST), IllegalStateException.class, "load after close");
    failure(s.delete(m), IllegalStateException.class, "delete after close");
    failure(s.delete("p", LATEST), IllegalStateException.class, "delete by criteria after close");
  }

  @Test
  void malformedSettingsNameTheirKeys() {
    for (String bad : List.of("max-snapshot-size = -1", "max-snapshot-size = lots", "fsync = 3")) {
      ActorSystem s = system("troupe.persistence.snapshot-store.local." + bad);
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> Persistence.get(s).snapshotStoreFor("troupe.persistence.snapshot-store.local"), bad);
      String key = "troupe.persistence.snapshot-store.local." + bad.substring(0, bad.indexOf(' '));
      assertTrue(e.getMessage().startsWith(key), e.getMessage());
    }
  }
}
