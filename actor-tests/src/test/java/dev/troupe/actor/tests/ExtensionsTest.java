package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractExtensionId;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.actor.ExtensionIdProvider;
import dev.troupe.testkit.TestKit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Classic extensions: one per system and id, made once however many threads ask together, a
 * failed creation tried again, a creation that asks for itself refused, and the ids listed in
 * {@code troupe.extensions} registered at start (bad entries refused, naming the entry).
 */
class ExtensionsTest {
  private final List<ActorSystem> created = new ArrayList<>();

  private ActorSystem system(String hocon) {
    ActorSystem s = ActorSystem.create(RuntimeFixtures.uniqueName("ext"), ConfigFactory.parseString(hocon));
    created.add(s);
    return s;
  }

  @AfterEach
  void stop() {
    created.forEach(TestKit::shutdownActorSystem);
  }

  /** Counts its creations, per id. */
  static final class Counted implements Extension {
    final ActorSystem system;

    Counted(ActorSystem system) {
      this.system = system;
    }
  }

  static final AtomicInteger SLOW_MADE = new AtomicInteger();
  static volatile CountDownLatch release = new CountDownLatch(0);

  /** Made only once the test lets it, so that every other first call waits for it. */
  static final ExtensionId<Counted> SLOW =
      system -> {
        SLOW_MADE.incrementAndGet();
        try {
          if (!release.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        return new Counted(system);
      };

  @Test
  void oneExtensionPerSystemAndIdMadeOnceForManyConcurrentCallers() throws Exception {
    ActorSystem a = system("");
    ActorSystem b = system("");
    int threads = 16;
    for (ActorSystem s : List.of(a, b)) {
      release = new CountDownLatch(1);
      List<CompletableFuture<Counted>> got = new ArrayList<>();
      List<Thread> callers = new ArrayList<>();
      for (int i = 0; i < threads; i++) { // fresh threads: one that waits is waiting for the extension
        CompletableFuture<Counted> one = new CompletableFuture<>();
        Thread t = new Thread(() -> {
          try {
            one.complete(SLOW.get(s));
          } catch (RuntimeException | Error e) {
            one.completeExceptionally(e);
          }
        }, "extension-caller-" + i);
        got.add(one);
        callers.add(t);
        t.start();
      }
      // every caller is parked: one in the creation (on the release latch), the others waiting for
      // it inside registerExtension; nothing announces that, so the threads' states are polled,
      // 1 ms apart
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!callers.stream().allMatch(t -> t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)) {
        assertTrue(System.nanoTime() - deadline < 0,
            "the " + threads + " callers did not all wait: " + callers.stream().map(Thread::getState).toList());
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
      }
      release.countDown();
      Set<Counted> distinct = ConcurrentHashMap.newKeySet();
      for (CompletableFuture<Counted> f : got) {
        distinct.add(f.get(10, TimeUnit.SECONDS));
      }
      for (Thread t : callers) {
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
      assertEquals(1, distinct.size(), "every caller got the same instance");
      assertSame(s, distinct.iterator().next().system, "made for its own system");
      assertSame(distinct.iterator().next(), s.extension(SLOW));
      assertTrue(s.hasExtension(SLOW));
    }
    assertEquals(2, SLOW_MADE.get(), "made once per system");
    assertNotSame(a.extension(SLOW), b.extension(SLOW));
  }

  @Test
  void anUnregisteredExtensionIsNotThereAndAFailedCreationIsTriedAgain() {
    ActorSystem s = system("");
    AtomicInteger tries = new AtomicInteger();
    ExtensionId<Counted> flaky =
        sys -> {
          if (tries.incrementAndGet() == 1) {
            throw new IllegalStateException("not yet");
          }
          return new Counted(sys);
        };
    assertFalse(s.hasExtension(flaky));
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> s.extension(flaky));
    assertTrue(missing.getMessage().contains("not registered"), missing.getMessage());
    IllegalStateException first = assertThrows(IllegalStateException.class, () -> flaky.get(s));
    assertEquals("not yet", first.getMessage());
    assertFalse(s.hasExtension(flaky), "a failed creation leaves nothing");
    Counted second = flaky.apply(s);
    assertSame(second, flaky.get(s));
    assertEquals(2, tries.get());
    ExtensionId<Counted> nothing = sys -> null;
    assertThrows(NullPointerException.class, () -> nothing.get(s));
  }

  static final class SelfAsking implements ExtensionId<Counted> {
    @Override
    public Counted createExtension(ActorSystem system) {
      get(system); // its own id, on the creating thread
      return new Counted(system);
    }
  }

  @Test
  void aCreationThatAsksForItselfFailsInsteadOfWaitingForever() {
    ActorSystem s = system("");
    SelfAsking id = new SelfAsking();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> id.get(s));
    assertTrue(e.getMessage().contains("by its own creation"), e.getMessage());
    assertFalse(s.hasExtension(id));
  }

  /** Pekko's Java pattern: a provider class with the one instance in a static field. */
  public static final class Listed extends AbstractExtensionId<Counted> implements ExtensionIdProvider {
    public static final Listed INSTANCE = new Listed();
    static final AtomicInteger MADE = new AtomicInteger();

    private Listed() {}

    @Override
    public Listed lookup() {
      return INSTANCE;
    }

    @Override
    public Counted createExtension(ActorSystem system) {
      MADE.incrementAndGet();
      return new Counted(system);
    }
  }

  /** An id class without a provider: its one static final field of its own type is the id. */
  public static final class ByField extends AbstractExtensionId<Counted> {
    private static final ByField ID = new ByField();

    private ByField() {}

    @Override
    public Counted createExtension(ActorSystem system) {
      return new Counted(system);
    }
  }

  /** An extension that keeps its id in a constant, listed by its own name (Pekko's style for its own). */
  public static final class KeepsItsId implements Extension {
    public static final ExtensionId<KeepsItsId> ID = KeepsItsId::new;
    final ActorSystem system;

    KeepsItsId(ActorSystem system) {
      this.system = system;
    }
  }

  /** Two constants that could each be its id: refused, naming both. */
  public static final class TwoIds implements Extension {
    public static final ExtensionId<TwoIds> ONE = s -> new TwoIds();
    public static final ExtensionId<TwoIds> OTHER = s -> new TwoIds();
  }

  @Test
  void anExtensionClassIsListedByNameAndItsIdConstantIsUsed() {
    ActorSystem s = system("troupe.extensions = [\"" + KeepsItsId.class.getName() + "\"]");
    assertTrue(s.hasExtension(KeepsItsId.ID), "registered at start through its ID constant");
    assertSame(s, s.extension(KeepsItsId.ID).system);
    ConfigurationException two =
        assertThrows(ConfigurationException.class, () -> system("troupe.extensions = [\"" + TwoIds.class.getName() + "\"]"));
    assertTrue(two.getMessage().contains("ONE") && two.getMessage().contains("OTHER"), two.getMessage());
  }

  /** Fails to start. */
  public static final class Failing extends AbstractExtensionId<Counted> {
    public static final Failing ID = new Failing();

    @Override
    public Counted createExtension(ActorSystem system) {
      throw new IllegalArgumentException("no database at 127.0.0.1:1");
    }
  }

  @Test
  void listedExtensionsAreRegisteredAtStartAndBadEntriesAreRefusedByName() {
    int before = Listed.MADE.get();
    ActorSystem s =
        system("troupe.extensions = [\"" + Listed.class.getName() + "\", \"" + ByField.class.getName() + "\"]");
    assertTrue(s.hasExtension(Listed.INSTANCE), "registered at start");
    assertTrue(s.hasExtension(ByField.ID), "registered at start, through its field");
    assertEquals(before + 1, Listed.MADE.get());
    assertSame(s.extension(Listed.INSTANCE), Listed.INSTANCE.get(s), "the same instance later");

    ConfigurationException noClass =
        assertThrows(ConfigurationException.class, () -> system("troupe.extensions = [\"com.example.NoSuchExtension\"]"));
    assertTrue(noClass.getMessage().contains("troupe.extensions entry 'com.example.NoSuchExtension'"), noClass.getMessage());
    ConfigurationException notAnId =
        assertThrows(ConfigurationException.class, () -> system("troupe.extensions = [\"java.lang.String\"]"));
    assertTrue(notAnId.getMessage().contains("is neither"), notAnId.getMessage());
    ConfigurationException failing =
        assertThrows(ConfigurationException.class, () -> system("troupe.extensions = [\"" + Failing.class.getName() + "\"]"));
    assertTrue(failing.getMessage().contains("failed to start") && failing.getMessage().contains("no database"), failing.getMessage());
    ConfigurationException notAList =
        assertThrows(ConfigurationException.class, () -> system("troupe.extensions = 42"));
    assertTrue(notAList.getMessage().contains("troupe.extensions"), notAList.getMessage());
  }

  @Test
  void aLibrarysExtensionListedInItsReferenceConfStartsBeforeTheApplicationsOwn() {
    ORDER.clear();
    ActorSystem s =
        system("troupe.library-extensions += \"" + LibraryOne.class.getName() + "\"\n"
            + "troupe.extensions = [\"" + AppOne.class.getName() + "\"]");
    assertEquals(List.of("library", "app"), ORDER);
    assertTrue(s.hasExtension(LibraryOne.ID) && s.hasExtension(AppOne.ID));
  }

  static final List<String> ORDER = new java.util.concurrent.CopyOnWriteArrayList<>();

  public static final class LibraryOne extends AbstractExtensionId<Counted> {
    public static final LibraryOne ID = new LibraryOne();

    @Override
    public Counted createExtension(ActorSystem system) {
      ORDER.add("library");
      return new Counted(system);
    }
  }

  public static final class AppOne extends AbstractExtensionId<Counted> {
    public static final AppOne ID = new AppOne();

    @Override
    public Counted createExtension(ActorSystem system) {
      ORDER.add("app");
      return new Counted(system);
    }
  }
}
