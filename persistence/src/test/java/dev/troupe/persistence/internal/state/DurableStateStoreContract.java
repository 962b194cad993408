package dev.troupe.persistence.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every durable state store must do: revisions that go up by one, a write at any other
 * revision refused, deletes that keep the numbering, ids kept apart whatever their characters.
 * Subclasses make the store; waits are bounded.
 */
abstract class DurableStateStoreContract {
  /** A state that users would define: a record, bound to jackson-json. */
  record Account(String owner, int balance) {}

  static final String BIND_ACCOUNT =
      "troupe.serialization.bindings { \"" + Account.class.getName() + "\" = jackson-json }\n";

  private static final long WAIT_SECONDS = 10;

  ActorSystem system;
  private final List<ActorSystem> systems = new ArrayList<>();
  private final List<AutoCloseable> stores = new ArrayList<>();

  /** @return a new store on the system (for a file store: on the test's directory) */
  abstract DurableStateStore newStore(ActorSystem in);

  @BeforeEach
  void startSystem() {
    system = system("");
  }

  ActorSystem system(String hocon) {
    ActorSystem s = ActorSystem.create(getClass().getSimpleName() + systems.size(),
        ConfigFactory.parseString(hocon + "\n" + BIND_ACCOUNT).withFallback(ConfigFactory.load()));
    systems.add(s);
    return s;
  }

  <S extends AutoCloseable> S closeLater(S store) {
    stores.add(store);
    return store;
  }

  @AfterEach
  void closeStoresAndTerminateSystems() throws Exception {
    for (AutoCloseable s : stores) {
      s.close();
    }
    for (ActorSystem s : systems) {
      s.terminate().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  static <T> T await(CompletionStage<T> stage, String what) {
    try {
      return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError(what + " did not complete within " + WAIT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(what + " was interrupted");
    }
  }

  static <E extends Throwable> E failure(CompletionStage<?> stage, Class<E> expected, String what) {
    try {
      Object v = stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      return fail(what + " should have failed with " + expected.getSimpleName() + ", but completed with " + v);
    } catch (ExecutionException e) {
      return assertInstanceOf(expected, e.getCause(), what + " failed with another exception");
    } catch (TimeoutException e) {
      return fail(what + " did not complete within " + WAIT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail(what + " was interrupted");
    }
  }

  static void upsert(DurableStateStore s, String id, long revision, Object value) {
    await(s.upsertObject(id, revision, value, "tag"), "upsert of " + id + " at " + revision);
  }

  static void delete(DurableStateStore s, String id, long revision) {
    await(s.deleteObject(id, revision), "delete of " + id + " at " + revision);
  }

  static GetObjectResult get(DurableStateStore s, String id) {
    return await(s.getObject(id), "get of " + id);
  }

  static GetObjectResult result(Object value, long revision) {
    return new GetObjectResult(Optional.ofNullable(value), revision);
  }

  // ------------------------------------------------------------------ the contract

  @Test
  void anIdWithNothingStoredHasRevisionZero() {
    DurableStateStore s = newStore(system);
    assertEquals(GetObjectResult.empty(), get(s, "nobody"));
    assertEquals(result(null, 0), get(s, "nobody"));
  }

  @Test
  void eachWriteReplacesTheValueAtTheNextRevision() {
    DurableStateStore s = newStore(system);
    upsert(s, "a", 1, new Account("ann", 10));
    assertEquals(result(new Account("ann", 10), 1), get(s, "a"));
    upsert(s, "a", 2, new Account("ann", 25));
    upsert(s, "a", 3, "a string, another type");
    assertEquals(result("a string, another type", 3), get(s, "a"));
    assertEquals(GetObjectResult.empty(), get(s, "b"), "ids are apart");
  }

  @Test
  void aWriteAtAnyRevisionButTheNextIsRefusedAndChangesNothing() {
    DurableStateStore s = newStore(system);
    String msg = failure(s.upsertObject("a", 2, new Account("x", 1), ""), IllegalStateException.class,
        "a first write at revision 2").getMessage();
    assertTrue(msg.contains("[a]") && msg.contains("revision 2") && msg.contains("two writers"), msg);
    upsert(s, "a", 1, new Account("ann", 1));
    failure(s.upsertObject("a", 1, new Account("second writer", 2), ""), IllegalStateException.class,
        "a second write at revision 1 (a second writer)");
    failure(s.upsertObject("a", 3, new Account("ahead", 3), ""), IllegalStateException.class, "a gap");
    failure(s.upsertObject("a", 0, new Account("zero", 0), ""), RuntimeException.class, "revision 0");
    failure(s.deleteObject("a", 1), IllegalStateException.class, "a delete at the stored revision");
    assertEquals(result(new Account("ann", 1), 1), get(s, "a"));
    failure(s.upsertObject("a", 2, null, ""), NullPointerException.class, "a null value");
    upsert(s, "a", 2, new Account("ann", 2));
    assertEquals(result(new Account("ann", 2), 2), get(s, "a"));
  }

  @Test
  void aDeleteRemovesTheValueAndKeepsTheNumbering() {
    DurableStateStore s = newStore(system);
    upsert(s, "a", 1, new Account("ann", 1));
    upsert(s, "a", 2, new Account("ann", 2));
    delete(s, "a", 3);
    assertEquals(result(null, 3), get(s, "a"));
    failure(s.upsertObject("a", 1, new Account("starts over", 1), ""), IllegalStateException.class,
        "a write that starts the numbering over");
    failure(s.upsertObject("a", 3, new Account("at the delete's revision", 3), ""), IllegalStateException.class,
        "a write at the delete's revision");
    upsert(s, "a", 4, new Account("ann", 4));
    assertEquals(result(new Account("ann", 4), 4), get(s, "a"));
    delete(s, "never-written", 1);
    assertEquals(result(null, 1), get(s, "never-written"));
  }

  @Test
  void idsThatAreNoSafeFileNamesAreKeptApart() {
    DurableStateStore s = newStore(system);
    List<String> ids = List.of("Account|a/b", "../escape", "a\\b", "", ".hidden", "ünï cödé", "x".repeat(300),
        "a", "A", "con", "a.state", "a.state.1.tmp");
    long rev = 0;
    for (String id : ids) {
      upsert(s, id, 1, new Account(id, (int) ++rev));
    }
    rev = 0;
    for (String id : ids) {
      assertEquals(result(new Account(id, (int) ++rev), 1), get(s, id), "id [" + id + "]");
    }
  }
}
