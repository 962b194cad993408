package dev.troupe.persistence.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.query.javadsl.DurableStateStorePagedPersistenceIdsQuery;
import dev.troupe.persistence.query.javadsl.DurableStateStoreQuery;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.DurableStateStoreRegistry;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the durable state queries do on every store that keeps offsets: the latest change of each
 * object of a tag in offset order, deletes, skipped revisions, resuming after an offset, the end of
 * a current query, live changes, many writers, the ids page by page. Subclasses choose the store;
 * every wait is bounded.
 */
@Timeout(120)
abstract class DurableStateQueryContract {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  static final long WAIT_SECONDS = 10;

  ActorSystem system;
  DurableStateStore store;
  DurableStateStoreQuery<String> queries;

  /** @return the configuration of the default state store under test */
  abstract String storeConfig();

  @BeforeEach
  void start() {
    system = system(storeConfig());
    store = Persistence.get(system).durableStateStoreFor("");
    queries = DurableStateStoreRegistry.get(system).durableStateStoreQueryFor("");
  }

  ActorSystem system(String config) {
    return ActorSystem.create("state-query-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString(
        "troupe.persistence.state.query { refresh-interval = 50ms, max-buffer-size = 3 }\n" + config)
        .withFallback(ConfigFactory.load()));
  }

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  static <T> T await(CompletionStage<T> stage, String what) {
    try {
      return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(what + " did not complete within " + WAIT_SECONDS + " s: " + e, e);
    }
  }

  void upsert(String id, long revision, String value, String tag) {
    await(store.upsertObject(id, revision, value, tag), "the write of [" + id + "] at revision " + revision);
  }

  void delete(String id, long revision) {
    await(store.deleteObject(id, revision), "the delete of [" + id + "] at revision " + revision);
  }

  /** @return every change of a current query, which must complete */
  List<DurableStateChange<String>> current(String tag, Offset offset) throws InterruptedException {
    SubscriberProbe<DurableStateChange<String>> probe = new SubscriberProbe<>();
    queries.currentChanges(tag, offset).subscribe(probe);
    probe.request(Long.MAX_VALUE);
    List<DurableStateChange<String>> got = new ArrayList<>();
    while (true) {
      SubscriberProbe.Signal s = probe.next("a change or the completion of currentChanges(" + tag + ")");
      if (s.error() != null) {
        throw new AssertionError("currentChanges(" + tag + ") failed", s.error());
      }
      if (s.done()) {
        return got;
      }
      @SuppressWarnings("unchecked")
      DurableStateChange<String> c = (DurableStateChange<String>) s.item();
      got.add(c);
    }
  }

  static String describe(DurableStateChange<String> c) {
    return c instanceof UpdatedDurableState<String> u ? u.persistenceId() + "@" + u.revision() + "=" + u.value()
        : c.persistenceId() + "@" + c.revision() + " deleted";
  }

  static List<String> describe(List<DurableStateChange<String>> changes) {
    return changes.stream().map(DurableStateQueryContract::describe).toList();
  }

  static long offset(DurableStateChange<String> c) {
    return ((Sequence) c.offset()).value();
  }

  @Test
  void currentChangesHandOverTheLatestChangeOfEachObjectOfTheTagInOffsetOrderAndComplete() throws Exception {
    long before = System.currentTimeMillis();
    upsert("a", 1, "a1", "blue");
    upsert("b", 1, "b1", "blue");
    upsert("c", 1, "c1", "red");
    upsert("a", 2, "a2", "blue");
    upsert("d", 1, "d1", "blue");
    upsert("b", 2, "b2", "red"); // b leaves blue

    List<DurableStateChange<String>> blue = current("blue", Offset.noOffset());
    assertEquals(List.of("a@2=a2", "d@1=d1"), describe(blue), "a's first revision is skipped, b has left the tag");
    assertTrue(offset(blue.get(0)) < offset(blue.get(1)), "in offset order: " + blue);
    assertTrue(blue.get(0).timestamp() >= before && blue.get(0).timestamp() <= System.currentTimeMillis(),
        "the time it was stored: " + blue.get(0).timestamp());
    assertEquals(List.of("c@1=c1", "b@2=b2"), describe(current("red", Offset.noOffset())));
    assertEquals(List.of(), current("green", Offset.noOffset()), "a tag never stored");
    assertEquals(6L, await(store.highestOffset(), "the highest offset"), "one offset per change, of any tag");
  }

  @Test
  void intermediateRevisionsAreSkippedAndEveryOffsetGoesUp() throws Exception {
    for (int r = 1; r <= 10; r++) {
      upsert("x", r, "x" + r, "t");
      upsert("y" + r, 1, "y", "other");
    }
    List<DurableStateChange<String>> t = current("t", Offset.noOffset());
    assertEquals(List.of("x@10=x10"), describe(t));
    assertEquals(19L, offset(t.get(0)), "the offset of its last write, the 19th change of 20");
  }

  @Test
  void aDeleteIsHandedOverAsDeletedDurableStateUnderTheTagOfTheWriteBeforeIt() throws Exception {
    upsert("a", 1, "a1", "blue");
    upsert("b", 1, "b1", "blue");
    delete("a", 2);
    List<DurableStateChange<String>> blue = current("blue", Offset.noOffset());
    assertEquals(List.of("b@1=b1", "a@2 deleted"), describe(blue));
    DurableStateChange<String> deleted = blue.get(1);
    assertInstanceOf(DeletedDurableState.class, deleted);
    assertEquals(new Sequence(3), deleted.offset());
    upsert("a", 3, "a3", "blue");
    assertEquals(List.of("b@1=b1", "a@3=a3"), describe(current("blue", Offset.noOffset())), "written again after the delete");
  }

  @Test
  void aQueryResumesAfterTheOffsetItIsGiven() throws Exception {
    for (int i = 1; i <= 7; i++) {
      upsert("o" + i, 1, "v" + i, "t");
    }
    List<DurableStateChange<String>> all = current("t", Offset.noOffset());
    assertEquals(7, all.size(), describe(all).toString());
    List<DurableStateChange<String>> rest = current("t", all.get(3).offset());
    assertEquals(describe(all.subList(4, 7)), describe(rest), "the ones after the fourth's offset, not it");
    assertEquals(List.of(), current("t", all.get(6).offset()), "nothing after the last");
    upsert("o2", 2, "v2'", "t");
    assertEquals(List.of("o2@2=v2'"), describe(current("t", all.get(6).offset())),
        "an object changed after the offset a reader saved is handed over again");
    assertThrows(IllegalArgumentException.class, () -> queries.changes("t", Offset.sequence(-1)));
    assertThrows(NullPointerException.class, () -> queries.currentChanges(null, Offset.noOffset()));
  }

  @Test
  void aCurrentQueryEndsAtTheHighestOffsetItSawWhenItFirstRead() throws Exception {
    upsert("a", 1, "a1", "t");
    upsert("b", 1, "b1", "t");
    SubscriberProbe<DurableStateChange<String>> probe = new SubscriberProbe<>();
    queries.currentChanges("t", Offset.noOffset()).subscribe(probe);
    probe.request(1);
    assertEquals("a@1=a1", describe(probe.expectNext()));
    upsert("c", 1, "c1", "t"); // after its first read: left out
    probe.request(10);
    assertEquals("b@1=b1", describe(probe.expectNext()));
    probe.expectComplete();
  }

  @Test
  void liveChangesHandOverWhatIsStoredAndWhatIsStoredLater() throws Exception {
    upsert("a", 1, "a1", "t");
    SubscriberProbe<DurableStateChange<String>> probe = new SubscriberProbe<>();
    queries.changes("t", Offset.noOffset()).subscribe(probe);
    probe.request(100);
    assertEquals("a@1=a1", describe(probe.expectNext()));
    upsert("b", 1, "b1", "t");
    upsert("x", 1, "x1", "other");
    assertEquals("b@1=b1", describe(probe.expectNext()));
    upsert("a", 2, "a2", "t");
    assertEquals("a@2=a2", describe(probe.expectNext()), "a again, at its new offset");
    delete("b", 2);
    assertEquals("b@2 deleted", describe(probe.expectNext()));
    probe.expectNoSignal(Duration.ofMillis(200));
    probe.cancel();
  }

  @Test
  void manyWritersFromManyThreadsLoseNoObjectsLatestState() throws Exception {
    int threads = 8;
    int idsPerThread = 25;
    int revisions = 6;
    SubscriberProbe<DurableStateChange<String>> live = new SubscriberProbe<>();
    queries.changes("many", Offset.noOffset()).subscribe(live);
    live.request(Long.MAX_VALUE);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int r = 1; r <= revisions; r++) {
            for (int i = 0; i < idsPerThread; i++) {
              String id = "w" + thread + "-" + i;
              upsert(id, r, id + "@" + r, "many");
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    int objects = threads * idsPerThread;
    List<DurableStateChange<String>> current = current("many", Offset.noOffset());
    assertEquals(objects, current.size(), "one change per object");
    for (DurableStateChange<String> c : current) {
      assertEquals(revisions, c.revision(), describe(c));
      assertEquals(c.persistenceId() + "@" + revisions, ((UpdatedDurableState<String>) c).value());
    }
    // the live query, which read while the writers wrote, ends with every object's last revision
    Map<String, Long> latest = new HashMap<>();
    long lastOffset = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS * 3);
    while (latest.size() < objects || latest.values().stream().anyMatch(r -> r < revisions)) {
      if (System.nanoTime() > deadline) {
        fail("the live query did not reach every object's last revision: "
            + latest.entrySet().stream().filter(e -> e.getValue() < revisions).toList() + ", "
            + latest.size() + " of " + objects + " objects seen");
      }
      DurableStateChange<String> c = live.expectNext();
      assertTrue(offset(c) > lastOffset, "offsets go up: " + offset(c) + " after " + lastOffset);
      lastOffset = offset(c);
      latest.merge(c.persistenceId(), c.revision(), Math::max);
    }
    live.cancel();
  }

  @Test
  void currentPersistenceIdsAreHandedOverInOrderPageByPage() throws Exception {
    for (String id : List.of("d", "b", "a", "e", "c")) {
      upsert(id, 1, id, id.equals("c") ? "x" : "y");
    }
    delete("e", 2);
    DurableStateStorePagedPersistenceIdsQuery<?> ids = DurableStateStoreRegistry.get(system)
        .getDurableStateStoreFor(DurableStateStorePagedPersistenceIdsQuery.class, "");
    assertEquals(List.of("a", "b", "c", "d", "e"), ids(ids, Optional.empty(), 100), "every id, a deleted one too");
    assertEquals(List.of("c", "d"), ids(ids, Optional.of("b"), 2));
    assertEquals(List.of("c", "d", "e"), ids(ids, Optional.of("bb"), 10));
    assertEquals(List.of(), ids(ids, Optional.of("e"), 10));
    assertEquals(List.of(), ids(ids, Optional.empty(), 0));
  }

  private static List<String> ids(DurableStateStorePagedPersistenceIdsQuery<?> q, Optional<String> after, long limit)
      throws InterruptedException {
    SubscriberProbe<String> probe = new SubscriberProbe<>();
    q.currentPersistenceIds(after, limit).subscribe(probe);
    probe.request(Long.MAX_VALUE);
    List<String> got = new ArrayList<>();
    while (true) {
      SubscriberProbe.Signal s = probe.next("an id or the completion");
      if (s.error() != null) {
        throw new AssertionError("currentPersistenceIds failed", s.error());
      }
      if (s.done()) {
        return got;
      }
      got.add((String) s.item());
    }
  }

  @Test
  void theRegistryHandsOutTheStoreOrOneQueryObjectPerStore() {
    DurableStateStoreRegistry registry = DurableStateStoreRegistry.get(system);
    assertSame(store, registry.getDurableStateStoreFor(DurableStateStore.class, ""), "the SPI: the plugin itself");
    String path = system.settings().config().getString("troupe.persistence.state.plugin");
    assertSame(queries, registry.getDurableStateStoreFor(DurableStateStoreQuery.class, path),
        "the default's path and \"\" name one store, and so one query object");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> registry.getDurableStateStoreFor(String.class, ""));
    assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
  }

  @Test
  void everyQueryStillRunningEndsWithTheSystem() throws Exception {
    SubscriberProbe<DurableStateChange<String>> probe = new SubscriberProbe<>();
    queries.changes("t", Offset.noOffset()).subscribe(probe);
    probe.request(1);
    TestKit.shutdownActorSystem(system);
    assertTrue(probe.expectError(IllegalStateException.class).getMessage().contains("terminated"));
  }
}
