package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Scheduler;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code Patterns.after} and {@code Patterns.retry}: a stage made after a delay, and tries again
 * while they fail, with a fixed pause or a doubling one; timings are checked as lower bounds only
 * (the scheduler never fires early).
 */
class AfterAndRetryTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private Scheduler scheduler() {
    return troupe.system().scheduler();
  }

  private Executor executor() {
    return troupe.system().dispatcher();
  }

  private static <T> T await(CompletionStage<T> s) throws Exception {
    return s.toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static Throwable failureOf(CompletionStage<?> s) {
    return assertThrows(ExecutionException.class, () -> await(s)).getCause();
  }

  @Test
  void afterMakesTheStageOnlyOnceTheDelayHasPassed() throws Exception {
    long start = System.nanoTime();
    AtomicInteger made = new AtomicInteger();
    CompletionStage<String> later =
        Patterns.after(Duration.ofMillis(50), scheduler(), executor(), () -> {
          made.incrementAndGet();
          return CompletableFuture.completedFuture("later");
        });
    assertEquals("later", await(later));
    assertTrue(System.nanoTime() - start >= Duration.ofMillis(50).toNanos(), "not before the delay");
    assertEquals(1, made.get());
    IllegalStateException boom = new IllegalStateException("boom");
    assertEquals(boom, failureOf(Patterns.<String>after(Duration.ZERO, scheduler(), executor(), () -> { throw boom; })));
    assertThrows(IllegalArgumentException.class,
        () -> Patterns.after(Duration.ofMillis(-1), scheduler(), executor(), () -> CompletableFuture.completedFuture(1)));
  }

  @Test
  void retryTriesAgainUntilASuccessAndStopsThere() throws Exception {
    AtomicInteger tries = new AtomicInteger();
    CompletionStage<Integer> result =
        Patterns.retry(() -> {
          int n = tries.incrementAndGet();
          if (n == 1) {
            throw new IllegalStateException("thrown"); // a thrown exception is a failed try too
          }
          return n < 3 ? CompletableFuture.failedFuture(new IllegalStateException("failed " + n)) : CompletableFuture.completedFuture(n);
        }, 5, Duration.ofMillis(5), scheduler(), executor());
    assertEquals(3, await(result));
    assertEquals(3, tries.get(), "no try after the success");
  }

  @Test
  void retryEndsWithTheLastFailureOnceItsTriesAreUsedUp() {
    AtomicInteger tries = new AtomicInteger();
    CompletionStage<Object> result =
        Patterns.retry(() -> CompletableFuture.failedFuture(new IllegalStateException("try " + tries.incrementAndGet())),
            2, Duration.ZERO, scheduler(), executor());
    Throwable last = failureOf(result);
    assertEquals("try 3", last.getMessage(), "the first try and two more");
    assertEquals(3, tries.get());
    assertEquals("try 4", failureOf(Patterns.retry(
        () -> CompletableFuture.failedFuture(new IllegalStateException("try " + tries.incrementAndGet())),
        0, Duration.ZERO, scheduler(), executor())).getMessage(), "no retry at all: one try");
  }

  @Test
  void retryWithBackoffPausesLongerEachTimeUpToItsBound() throws Exception {
    List<Long> at = new CopyOnWriteArrayList<>();
    Duration min = Duration.ofMillis(20);
    Duration max = Duration.ofMillis(40);
    CompletionStage<Object> result =
        Patterns.retry(() -> {
          at.add(System.nanoTime());
          return CompletableFuture.failedFuture(new IllegalStateException("down"));
        }, 3, min, max, 0.5, scheduler(), executor());
    assertInstanceOf(IllegalStateException.class, failureOf(result));
    assertEquals(4, at.size());
    assertTrue(at.get(1) - at.get(0) >= min.toNanos(), "first pause at least minBackoff");
    assertTrue(at.get(2) - at.get(1) >= max.toNanos(), "second pause doubled, to the bound");
    assertTrue(at.get(3) - at.get(2) >= max.toNanos(), "third pause at the bound");
  }

  @Test
  void badRetrySettingsAreRefusedWhereTheyAreGiven() {
    ActorSystem s = troupe.system();
    assertThrows(IllegalArgumentException.class,
        () -> Patterns.retry(() -> CompletableFuture.completedFuture(1), -1, Duration.ZERO, s.scheduler(), s.dispatcher()));
    assertThrows(IllegalArgumentException.class,
        () -> Patterns.retry(() -> CompletableFuture.completedFuture(1), 1, Duration.ofSeconds(2), Duration.ofSeconds(1), 0.0, s.scheduler(), s.dispatcher()));
    assertThrows(IllegalArgumentException.class,
        () -> Patterns.retry(() -> CompletableFuture.completedFuture(1), 1, Duration.ZERO, Duration.ZERO, 2.0, s.scheduler(), s.dispatcher()));
    assertThrows(NullPointerException.class,
        () -> Patterns.retry(null, 1, Duration.ZERO, s.scheduler(), s.dispatcher()));
  }
}
