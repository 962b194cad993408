package dev.troupe.persistence.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.query.javadsl.DurableStateStoreQuery;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.DurableStateStoreRegistry;
import dev.troupe.persistence.state.GetObjectResult;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable state queries on the file store, and what files add: offsets that survive a restart,
 * and damaged files found when the store starts.
 */
class DurableStateQueryFileTest extends DurableStateQueryContract {
  @TempDir Path dir;

  @Override
  String storeConfig() {
    return "troupe.persistence.state.plugin = \"troupe.persistence.state.file\"\n"
        + "troupe.persistence.state.file { fsync = off, dir = \"" + dir.toString().replace('\\', '/') + "\" }\n";
  }

  /** Ends this test's system (and its store, which frees the directory) and starts another on the directory. */
  private ActorSystem restart() {
    TestKit.shutdownActorSystem(system);
    system = system(storeConfig());
    store = Persistence.get(system).durableStateStoreFor("");
    queries = DurableStateStoreRegistry.get(system).durableStateStoreQueryFor("");
    return system;
  }

  @Test
  void offsetsTagsAndDeletesSurviveARestartAndTheNextOffsetIsAboveThem() throws Exception {
    upsert("a", 1, "a1", "t");
    upsert("b", 1, "b1", "t");
    upsert("a", 2, "a2", "t");
    delete("b", 2);
    upsert("odd/id", 1, "o1", "t");
    List<String> before = describe(current("t", Offset.noOffset()));
    List<Long> offsets = current("t", Offset.noOffset()).stream().map(DurableStateQueryContract::offset).toList();
    assertEquals(List.of("a@2=a2", "b@2 deleted", "odd/id@1=o1"), before);

    restart();
    assertEquals(before, describe(current("t", Offset.noOffset())), "read back from the files' headers");
    assertEquals(offsets, current("t", Offset.noOffset()).stream().map(DurableStateQueryContract::offset).toList());
    assertEquals(5L, await(store.highestOffset(), "the highest offset after the restart"));
    upsert("c", 1, "c1", "t");
    List<DurableStateChange<String>> after = current("t", Offset.sequence(5));
    assertEquals(List.of("c@1=c1"), describe(after));
    assertEquals(6L, offset(after.get(0)), "the sequence goes on above the highest offset found");
    upsert("b", 3, "b3", "t");
    assertEquals(List.of("c@1=c1", "b@3=b3"), describe(current("t", Offset.sequence(5))),
        "a delete keeps the revision, and the write after it is found again");
  }

  @Test
  void damagedFilesFoundOnStartFailEveryQueryNamingThemWhileOtherObjectsAreStillRead() throws Exception {
    upsert("good", 1, "g1", "t");
    upsert("torn", 1, "t1", "t");
    upsert("flipped", 1, "f1", "t");
    upsert("copied", 1, "c1", "t");
    TestKit.shutdownActorSystem(system);
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve("torn.state").toFile(), "rw")) {
      f.setLength(30); // cut within its header
    }
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve("flipped.state").toFile(), "rw")) {
      f.seek(14); // within the id's bytes, which the header's CRC covers
      int b = f.read();
      f.seek(14);
      f.write(b ^ 0x01);
    }
    Files.copy(dir.resolve("good.state"), dir.resolve("copied.state"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    byte[] garbage = new byte[100_000];
    new java.util.Random(7).nextBytes(garbage);
    Files.write(dir.resolve("garbage.state"), garbage);
    byte[] hugeLength = new byte[64];
    java.nio.ByteBuffer.wrap(hugeLength).putInt(0x54524453).putInt(2).putInt(Integer.MAX_VALUE);
    Files.write(dir.resolve("lying.state"), hugeLength);

    restart();
    assertEquals(new GetObjectResult(Optional.of("g1"), 1), await(store.getObject("good"), "a read of a good file"));
    String message = failure(queries.currentChanges("t", Offset.noOffset()));
    for (String name : List.of("torn.state", "flipped.state", "copied.state", "garbage.state", "lying.state")) {
      assertTrue(message.contains(dir.resolve(name).toString()), "names " + name + ": " + message);
    }
    assertTrue(message.contains("5 damaged file(s)"), message);
    assertTrue(message.contains("ends within its header"), message);
    assertTrue(message.contains("the CRC of its header does not match"), message);
    assertTrue(message.contains("whose file is good.state"), message);
    assertTrue(message.contains("id length is corrupt"), message);
    failure(queries.changes("t", Offset.noOffset()));

    TestKit.shutdownActorSystem(system);
    for (String name : List.of("torn.state", "flipped.state", "copied.state", "garbage.state", "lying.state")) {
      Files.delete(dir.resolve(name));
    }
    restart();
    assertEquals(List.of("good@1=g1"), describe(current("t", Offset.noOffset())), "repaired: queries work again");
  }

  private static String failure(java.util.concurrent.Flow.Publisher<DurableStateChange<String>> query)
      throws InterruptedException {
    SubscriberProbe<DurableStateChange<String>> probe = new SubscriberProbe<>();
    query.subscribe(probe);
    probe.request(1);
    return probe.expectError(IOException.class).getMessage();
  }

  @Test
  void aFileChangedBehindTheStoresBackFailsTheQueryThatReadsIt() throws Exception {
    upsert("a", 1, "a1", "t");
    upsert("b", 1, "b1", "t");
    DurableStateStore s = store;
    // another store's file for "a", written at a later offset than this store knows of
    Path elsewhere = Files.createTempDirectory(dir.getParent(), "other");
    ActorSystem other = system("troupe.persistence.state.plugin = \"troupe.persistence.state.file\"\n"
        + "troupe.persistence.state.file { fsync = off, dir = \"" + elsewhere.toString().replace('\\', '/') + "\" }\n");
    try {
      DurableStateStore o = Persistence.get(other).durableStateStoreFor("");
      await(o.upsertObject("b", 1, "x", "t"), "a write elsewhere");
      await(o.upsertObject("a", 1, "other a", "t"), "a write elsewhere");
    } finally {
      TestKit.shutdownActorSystem(other);
    }
    Files.copy(elsewhere.resolve("a.state"), dir.resolve("a.state"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    String message = failure(queries.currentChanges("t", Offset.noOffset()));
    assertTrue(message.contains(dir.resolve("a.state").toString()) && message.contains("another program"), message);
    assertEquals(s, store);
  }

  @Test
  void anIdLongerThanAHeaderHoldsIsRefusedBeforeAnyIo() {
    String id = "x".repeat((1 << 20) + 1);
    java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
        java.util.concurrent.ExecutionException.class,
        () -> store.upsertObject(id, 1, "v", "t").toCompletableFuture().get(WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof IllegalArgumentException && e.getCause().getMessage().contains("1048576 bytes"),
        String.valueOf(e.getCause()));
  }

  @Test
  void theDefaultSpiAndTheQueryObjectAreThoseOfTheFileStore() {
    DurableStateStoreQuery<?> q = DurableStateStoreRegistry.get(system)
        .getDurableStateStoreFor(DurableStateStoreQuery.class, "troupe.persistence.state.file");
    assertEquals(queries, q);
    assertEquals("FileDurableStateStore", store.getClass().getSimpleName());
  }
}
