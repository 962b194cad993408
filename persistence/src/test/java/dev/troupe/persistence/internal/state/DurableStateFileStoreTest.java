package dev.troupe.persistence.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.internal.file.DiskIo;
import dev.troupe.persistence.state.DurableStateStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file durable state store: the contract, and what files add (reopening, damage, sizes, names). */
class DurableStateFileStoreTest extends DurableStateStoreContract {
  @TempDir Path dir;

  private static Config section(Path dir, String hocon) {
    return ConfigFactory.parseString(hocon).withValue("dir", ConfigValueFactory.fromAnyRef(dir.toString()));
  }

  private FileDurableStateStore store(ActorSystem in, String hocon) {
    return closeLater(new FileDurableStateStore(in, section(dir, hocon)));
  }

  @Override
  DurableStateStore newStore(ActorSystem in) {
    return store(in, "fsync = on");
  }

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> !n.equals(FileDurableStateStore.LOCK_FILE))
          .sorted().toList();
    }
  }

  @Test
  void aNewStoreOnTheSameDirectoryReadsWhatTheLastOneWrote() throws IOException {
    FileDurableStateStore s = store(system, "fsync = off");
    upsert(s, "a", 1, new Account("ann", 1));
    upsert(s, "a", 2, new Account("ann", 2));
    upsert(s, "b", 1, new Account("bob", 1));
    delete(s, "b", 2);
    upsert(s, "weird/id", 1, "text");
    s.close();
    assertEquals(Stream.of("a.state", "b.state", DiskIo.stem("weird/id") + ".state").sorted().toList(),
        names());

    FileDurableStateStore reopened = store(system, "");
    assertEquals(result(new Account("ann", 2), 2), get(reopened, "a"));
    assertEquals(result(null, 2), get(reopened, "b"), "the delete's revision survives");
    assertEquals(result("text", 1), get(reopened, "weird/id"));
    failure(reopened.upsertObject("b", 2, "b again", ""), IllegalStateException.class,
        "a write at the stored revision, checked against the file (not yet read by this store)");
    upsert(reopened, "b", 3, new Account("bob", 3));
    assertEquals(result(new Account("bob", 3), 3), get(reopened, "b"));
    assertTrue(failure(s.getObject("a"), IllegalStateException.class, "a get of a closed store").getMessage()
        .contains("is closed"));
  }

  @Test
  void aSecondStoreOnTheSameDirectoryIsRefusedWhileTheFirstHoldsIt() throws IOException {
    FileDurableStateStore first = store(system, "fsync = off");
    upsert(first, "a", 1, "one");
    FileDurableStateStore second = store(system, "fsync = off");
    IOException e = failure(second.getObject("a"), IOException.class, "a second store would lose the first's updates");
    assertTrue(e.getMessage().contains("troupe.persistence.state.file.dir") && e.getMessage().contains(dir.toString()),
        e.getMessage());
    first.close();
    FileDurableStateStore third = store(system, "fsync = off");
    assertEquals(result("one", 1), get(third, "a"), "the directory is free once the first store closed");
  }

  @Test
  void unsafeIdsGetHashedFileNamesInsideTheDirectory() throws IOException {
    idsThatAreNoSafeFileNamesAreKeptApart();
    for (String name : names()) {
      assertTrue(name.matches("[A-Za-z0-9_-][A-Za-z0-9._-]*\\.state"), name);
    }
    assertTrue(names().contains(DiskIo.stem("../escape") + ".state"));
    assertTrue(names().contains("a.state.1.tmp.state"), "a safe id that looks like a temporary file keeps its name");
    assertTrue(!Files.exists(dir.resolveSibling("escape.state")), "nothing is written outside the directory");
    assertEquals(64, DiskIo.stem("Account|a/b").length(), "a SHA-256 in hex");
  }

  @Test
  void aDamagedFileFailsTheReadNamingTheFile() throws IOException {
    FileDurableStateStore s = store(system, "");
    upsert(s, "a", 1, new Account("ann", 1));
    upsert(s, "b", 1, new Account("bob", 1));
    Path a = dir.resolve("a.state");
    try (RandomAccessFile f = new RandomAccessFile(a.toFile(), "rw")) {
      f.seek(f.length() - 2);
      int old = f.read();
      f.seek(f.length() - 2);
      f.write(old ^ 0x20);
    }
    String msg = failure(s.getObject("a"), IOException.class, "a get of a flipped file").getMessage();
    assertTrue(msg.contains(a.toString()) && msg.contains("CRC"), msg);
    try (RandomAccessFile f = new RandomAccessFile(a.toFile(), "rw")) {
      f.setLength(20);
    }
    msg = failure(s.getObject("a"), IOException.class, "a get of a cut file").getMessage();
    assertTrue(msg.contains(a.toString()) && msg.contains("ends within its header"), msg);
    Files.copy(dir.resolve("b.state"), dir.resolve("c.state"));
    msg = failure(s.getObject("c"), IOException.class, "a get of another id's file").getMessage();
    assertTrue(msg.contains("another persistence id"), msg);
    Files.writeString(dir.resolve("d.state"), "hello, not a state file");
    msg = failure(s.getObject("d"), IOException.class, "a get of a foreign file").getMessage();
    assertTrue(msg.contains("magic"), msg);
    assertEquals(result(new Account("bob", 1), 1), get(s, "b"), "other ids are not affected");
  }

  @Test
  void aValueOverMaxStateSizeIsRefusedAndALargerFileIsNotRead() {
    FileDurableStateStore s = store(system, "max-state-size = 200 B");
    upsert(s, "a", 1, "small");
    String msg = failure(s.upsertObject("a", 2, "x".repeat(500), ""), IllegalArgumentException.class,
        "a write of 500 bytes").getMessage();
    assertTrue(msg.contains("over max-state-size") && msg.contains("[a]"), msg);
    assertEquals(result("small", 1), get(s, "a"), "the stored state is kept");
    upsert(s, "a", 2, "y".repeat(150));
    s.close();

    FileDurableStateStore smaller = store(system, "max-state-size = 10 B");
    msg = failure(smaller.getObject("a"), IOException.class, "a get of a file over the limit").getMessage();
    assertTrue(msg.contains("max-state-size") && msg.contains("a.state"), msg);
  }

  @Test
  void temporaryFilesACrashLeftAreDeletedAndValuesNeedABinding() throws IOException {
    Files.writeString(dir.resolve("a.state.7.tmp"), "half a write");
    FileDurableStateStore s = store(system, "");
    upsert(s, "a", 1, new Account("ann", 1));
    assertEquals(List.of("a.state"), names());
    record Unbound(String name) {}
    failure(s.upsertObject("a", 2, new Unbound("no serializer"), ""), RuntimeException.class, "an unbound value");
    assertEquals(result(new Account("ann", 1), 1), get(s, "a"));
  }

  @Test
  void theStoreIsMadeFromConfigurationAndMalformedKeysAreNamed() {
    ActorSystem configured = system("troupe.persistence.state.plugin = \"troupe.persistence.state.file\"\n"
        + "troupe.persistence.state.file.dir = \"" + dir.toString().replace("\\", "\\\\") + "\"\n");
    Persistence p = Persistence.get(configured);
    DurableStateStore s = p.durableStateStoreFor("");
    assertSame(FileDurableStateStore.class, s.getClass());
    upsert(s, "a", 1, new Account("ann", 1));
    assertEquals(result(new Account("ann", 1), 1), get(p.durableStateStoreFor("troupe.persistence.state.file"), "a"));

    for (String bad : List.of("max-state-size = lots", "max-state-size = 0", "fsync = maybe", "dir = \"\"")) {
      ActorSystem b = system("troupe.persistence.state.file." + bad + "\n");
      String key = "troupe.persistence.state.file." + bad.substring(0, bad.indexOf(' '));
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> Persistence.get(b).durableStateStoreFor("troupe.persistence.state.file"), bad);
      assertTrue(e.getMessage().contains(key), e.getMessage());
    }
    ActorSystem empty = system("troupe.persistence.state.plugin = \"\"\n");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> Persistence.get(empty).durableStateStoreFor(""));
    assertTrue(e.getMessage().contains("troupe.persistence.state.plugin"), e.getMessage());
  }
}
