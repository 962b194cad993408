package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Scheduler;
import dev.troupe.pattern.CircuitBreaker;
import dev.troupe.pattern.CircuitBreakerOpenException;
import dev.troupe.testkit.ActorSystemExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The circuit breaker: closed to open after failures in a row (a success resets the count), open
 * refusing without calling, half-open letting exactly one trial through among many callers, its
 * success closing and its failure reopening with backoff, call timeouts for stages and synchronous
 * calls, the caller's own definition of failure, and many threads against a failing service.
 */
class CircuitBreakerTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static final Duration LONG = Duration.ofSeconds(10);

  private Scheduler scheduler() {
    return troupe.system().scheduler();
  }

  private static void failing() throws Exception {
    throw new IllegalStateException("service down");
  }

  private static void awaitTrue(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + LONG.toNanos();
    while (!condition.getAsBoolean()) { // the breaker announces nothing to poll for but its listeners
      assertTrue(System.nanoTime() - deadline < 0, "not within " + LONG + ": " + what);
      LockSupport.parkNanos(1_000_000);
    }
  }

  private static void await(CountDownLatch latch, String what) throws InterruptedException {
    assertTrue(latch.await(LONG.toSeconds(), TimeUnit.SECONDS), "not within " + LONG + ": " + what);
  }

  @Test
  void failuresInARowOpenItAndASuccessInBetweenStartsTheCountAgain() throws Exception {
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 3, LONG, LONG);
    AtomicInteger opened = new AtomicInteger();
    b.addOnOpenListener(opened::incrementAndGet);
    for (int i = 0; i < 2; i++) {
      assertThrows(IllegalStateException.class, () -> b.callWithSyncCircuitBreaker(() -> { failing(); return 0; }));
    }
    assertEquals(2, b.currentFailureCount());
    assertEquals("ok", b.callWithSyncCircuitBreaker(() -> "ok"));
    assertEquals(0, b.currentFailureCount(), "a success resets the count");
    for (int i = 0; i < 2; i++) {
      assertThrows(IllegalStateException.class, () -> b.callWithSyncCircuitBreaker(() -> { failing(); return 0; }));
    }
    assertTrue(b.isClosed());
    CompletionStage<Object> third = b.callWithCircuitBreakerCS(() -> CompletableFuture.failedFuture(new IllegalStateException("async")));
    ExecutionException e = assertThrows(ExecutionException.class, () -> third.toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertEquals("async", e.getCause().getMessage());
    assertTrue(b.isOpen(), "the third failure in a row opened it: " + b);
    assertEquals(1, opened.get());
  }

  @Test
  void anOpenBreakerRefusesWithoutCallingAndSaysHowLongItWillStayOpen() throws Exception {
    Duration reset = Duration.ofSeconds(30);
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 1, LONG, reset);
    AtomicInteger refusedHeard = new AtomicInteger();
    b.addOnCallBreakerOpenListener(refusedHeard::incrementAndGet);
    assertThrows(IllegalStateException.class, () -> b.callWithSyncCircuitBreaker(() -> { failing(); return 0; }));
    assertTrue(b.isOpen());
    AtomicInteger called = new AtomicInteger();
    CircuitBreakerOpenException sync =
        assertThrows(CircuitBreakerOpenException.class, () -> b.callWithSyncCircuitBreaker(called::incrementAndGet));
    assertTrue(!sync.remainingDuration().isNegative() && sync.remainingDuration().compareTo(reset) <= 0, sync.remainingDuration().toString());
    CompletionStage<Integer> async = b.callWithCircuitBreakerCS(() -> CompletableFuture.completedFuture(called.incrementAndGet()));
    ExecutionException e = assertThrows(ExecutionException.class, () -> async.toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertInstanceOf(CircuitBreakerOpenException.class, e.getCause());
    assertEquals(0, called.get(), "the service was not called");
    assertEquals(2, refusedHeard.get());
  }

  @Test
  void halfOpenLetsExactlyOneTrialThroughAmongManyCallersAndItsSuccessClosesIt() throws Exception {
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 1, LONG, Duration.ofMillis(50));
    CountDownLatch halfOpen = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    b.addOnHalfOpenListener(halfOpen::countDown).addOnCloseListener(closed::countDown);
    b.fail(); // a failure counted by hand, as an actor that asked the service itself would
    assertTrue(b.isOpen());
    await(halfOpen, "half-open after the reset timeout");
    assertTrue(b.isHalfOpen());

    int callers = 16;
    AtomicInteger trials = new AtomicInteger();
    CompletableFuture<String> service = new CompletableFuture<>(); // the trial's answer, held back
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<CompletionStage<String>>> calls = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        calls.add(pool.submit(() -> {
          go.await();
          return b.callWithCircuitBreakerCS(() -> {
            trials.incrementAndGet();
            return service;
          });
        }));
      }
      go.countDown();
      int refused = 0;
      List<CompletionStage<String>> admitted = new ArrayList<>();
      for (Future<CompletionStage<String>> f : calls) {
        CompletableFuture<String> c = f.get(10, TimeUnit.SECONDS).toCompletableFuture();
        if (c.isCompletedExceptionally()) {
          CompletionException e = assertThrows(CompletionException.class, c::join);
          CircuitBreakerOpenException open = assertInstanceOf(CircuitBreakerOpenException.class, e.getCause());
          assertEquals(Duration.ZERO, open.remainingDuration(), "refused while the trial is under way");
          refused++;
        } else {
          admitted.add(c);
        }
      }
      assertEquals(1, trials.get(), "one trial call");
      assertEquals(callers - 1, refused);
      assertEquals(1, admitted.size());
      assertTrue(b.isHalfOpen(), "still half-open while the trial is under way");
      service.complete("back");
      assertEquals("back", admitted.get(0).toCompletableFuture().get(10, TimeUnit.SECONDS));
      await(closed, "closed by the trial's success");
      assertTrue(b.isClosed());
      assertEquals("through", b.callWithSyncCircuitBreaker(() -> "through"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedTrialOpensItAgainForTwiceAsLongWithBackoff() throws Exception {
    Duration reset = Duration.ofMillis(100);
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 1, LONG, reset).withExponentialBackoff(Duration.ofSeconds(10));
    List<Long> opens = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Long> halfOpens = new java.util.concurrent.CopyOnWriteArrayList<>();
    b.addOnOpenListener(() -> opens.add(System.nanoTime())).addOnHalfOpenListener(() -> halfOpens.add(System.nanoTime()));
    assertThrows(IllegalStateException.class, () -> b.callWithSyncCircuitBreaker(() -> { failing(); return 0; }));
    awaitTrue("first half-open", () -> halfOpens.size() == 1);
    assertThrows(IllegalStateException.class, () -> b.callWithSyncCircuitBreaker(() -> { failing(); return 0; })); // the trial
    assertTrue(b.isOpen(), "the failed trial opened it again");
    awaitTrue("second half-open", () -> halfOpens.size() == 2);
    assertEquals(2, opens.size());
    // the scheduler never fires early: the first open lasted at least the reset timeout, the second
    // at least twice that
    assertTrue(halfOpens.get(0) - opens.get(0) >= reset.toNanos(), "first open: " + (halfOpens.get(0) - opens.get(0)) + " ns");
    assertTrue(halfOpens.get(1) - opens.get(1) >= 2 * reset.toNanos(), "second open: " + (halfOpens.get(1) - opens.get(1)) + " ns");
    assertEquals("ok", b.callWithSyncCircuitBreaker(() -> "ok"));
    assertTrue(b.isClosed());
  }

  @Test
  void aStageThatDoesNotCompleteInTimeFailsWithATimeoutAndCounts() throws Exception {
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 5, Duration.ofMillis(50), LONG);
    AtomicLong timedOutAfter = new AtomicLong(-1);
    CountDownLatch heard = new CountDownLatch(1);
    b.addOnCallTimeoutListener(n -> {
      timedOutAfter.set(n);
      heard.countDown();
    });
    CompletableFuture<String> never = new CompletableFuture<>();
    CompletionStage<String> call = b.callWithCircuitBreakerCS(() -> never);
    ExecutionException e = assertThrows(ExecutionException.class, () -> call.toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertInstanceOf(TimeoutException.class, e.getCause());
    await(heard, "the timeout listener");
    assertTrue(timedOutAfter.get() >= Duration.ofMillis(50).toNanos(), timedOutAfter + " ns");
    assertEquals(1, b.currentFailureCount());
    never.complete("late"); // a late answer changes nothing
    assertEquals(1, b.currentFailureCount());
    assertTrue(call.toCompletableFuture().isCompletedExceptionally());
  }

  @Test
  void aSynchronousCallSlowerThanTheTimeoutFailsWithATimeoutAndCounts() {
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 5, Duration.ofMillis(20), LONG);
    AtomicInteger timeouts = new AtomicInteger();
    b.addOnCallTimeoutListener(n -> timeouts.incrementAndGet());
    assertThrows(TimeoutException.class, () -> b.callWithSyncCircuitBreaker(() -> {
      long end = System.nanoTime() + Duration.ofMillis(60).toNanos(); // the slow service itself
      while (System.nanoTime() < end) {
        LockSupport.parkNanos(end - System.nanoTime());
      }
      return "too late";
    }));
    assertEquals(1, timeouts.get());
    assertEquals(1, b.currentFailureCount());
  }

  @Test
  void aStageWhoseStartTookTheWholeTimeoutTimesOutEvenIfItsAnswerIsThere() {
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 5, Duration.ofMillis(20), LONG);
    AtomicInteger timeouts = new AtomicInteger();
    b.addOnCallTimeoutListener(n -> timeouts.incrementAndGet());
    CompletionStage<String> call = b.callWithCircuitBreakerCS(() -> {
      long end = System.nanoTime() + Duration.ofMillis(60).toNanos(); // a slow start of the call
      while (System.nanoTime() < end) {
        LockSupport.parkNanos(end - System.nanoTime());
      }
      return CompletableFuture.completedFuture("late");
    });
    assertInstanceOf(TimeoutException.class, failureOf(call));
    assertEquals(1, timeouts.get());
    assertEquals(1, b.currentFailureCount());
  }

  private static Throwable failureOf(CompletionStage<?> s) {
    return assertThrows(ExecutionException.class, () -> s.toCompletableFuture().get(10, TimeUnit.SECONDS)).getCause();
  }

  @Test
  void theCallerDecidesWhatCountsAsAFailure() throws Exception {
    CircuitBreaker b = CircuitBreaker.create(scheduler(), 2, LONG, LONG);
    java.util.function.BiFunction<java.util.Optional<String>, java.util.Optional<Throwable>, Boolean> unavailable =
        (value, failure) -> value.map("unavailable"::equals).orElseGet(() -> !(failure.orElseThrow() instanceof IllegalArgumentException));
    assertEquals("unavailable", b.callWithSyncCircuitBreaker(() -> "unavailable", unavailable));
    assertEquals(1, b.currentFailureCount(), "an answer that says unavailable counts");
    assertThrows(IllegalArgumentException.class, () -> b.callWithSyncCircuitBreaker(() -> { throw new IllegalArgumentException("bad input"); }, unavailable));
    assertEquals(0, b.currentFailureCount(), "the caller's own mistake does not count, and is a success in a row");
    assertEquals("unavailable", b.callWithCircuitBreakerCS(() -> CompletableFuture.completedFuture("unavailable"), unavailable)
        .toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertEquals(1, b.currentFailureCount());
    IllegalStateException broken = assertThrows(IllegalStateException.class,
        () -> b.callWithSyncCircuitBreaker(() -> "x", (v, f) -> { throw new IllegalStateException("broken rule"); }));
    assertEquals("broken rule", broken.getMessage());
    assertTrue(b.isOpen(), "a rule that throws counts as a failure: the second in a row");
  }

  @Test
  void manyThreadsAgainstAFailingServiceCallItOnlyInTheClosedStateAndOncePerHalfOpen() throws Exception {
    int maxFailures = 5;
    int threads = 8;
    CircuitBreaker b = CircuitBreaker.create(scheduler(), maxFailures, LONG, Duration.ofMillis(10));
    AtomicInteger opens = new AtomicInteger();
    AtomicInteger halfOpens = new AtomicInteger();
    AtomicInteger closes = new AtomicInteger();
    AtomicInteger refusedHeard = new AtomicInteger();
    b.addOnOpenListener(opens::incrementAndGet)
        .addOnHalfOpenListener(halfOpens::incrementAndGet)
        .addOnCloseListener(closes::incrementAndGet)
        .addOnCallBreakerOpenListener(refusedHeard::incrementAndGet);
    AtomicInteger bodies = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger failedCalls = new AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean healthy = new java.util.concurrent.atomic.AtomicBoolean();
    Semaphore stop = new Semaphore(0);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> workers = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        workers.add(pool.submit(() -> {
          while (!stop.tryAcquire()) {
            try {
              b.callWithSyncCircuitBreaker(() -> {
                bodies.incrementAndGet();
                if (!healthy.get()) {
                  failing();
                }
                return "ok";
              });
            } catch (CircuitBreakerOpenException e) {
              refused.incrementAndGet();
            } catch (IllegalStateException e) {
              failedCalls.incrementAndGet();
            } catch (Exception e) {
              throw new AssertionError("unexpected " + e, e);
            }
            Thread.onSpinWait();
          }
          stop.release(); // leave the permit for the next worker
          return null;
        }));
      }
      awaitTrue("three half-open states against the failing service", () -> halfOpens.get() >= 3);
      // While the service fails, the breaker never closes: the service is called only by calls that
      // started closed before the first trip (at most maxFailures plus the other threads' calls in
      // flight) and by one trial per half-open state (plus one whose state's listener has not run
      // yet: a listener runs just after its state is in place).
      int bodiesBefore = bodies.get();
      int halfOpensAfter = halfOpens.get();
      assertTrue(bodiesBefore <= maxFailures + (threads - 1) + halfOpensAfter + 1,
          bodiesBefore + " calls of the service, " + halfOpensAfter + " half-open states");
      assertEquals(0, closes.get());
      int opened = opens.get();
      assertTrue(Math.abs(opened - halfOpensAfter) <= 1, opened + " opens, " + halfOpensAfter + " half-opens: they alternate");

      healthy.set(true);
      awaitTrue("closed once the service is back", () -> closes.get() == 1);
      int before = bodies.get();
      awaitTrue("calls going through again", () -> bodies.get() > before + 1000);
      stop.release();
      for (Future<?> w : workers) {
        w.get(10, TimeUnit.SECONDS);
      }
      assertTrue(b.isClosed());
      assertEquals(refused.get(), refusedHeard.get(), "one refusal heard per refused call");
      assertEquals(1, closes.get());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void settingsOutOfRangeAreRefusedWhereTheyAreGiven() {
    Scheduler s = scheduler();
    assertThrows(IllegalArgumentException.class, () -> CircuitBreaker.create(s, 0, LONG, LONG));
    assertThrows(IllegalArgumentException.class, () -> CircuitBreaker.create(s, 1, Duration.ZERO, LONG));
    assertThrows(IllegalArgumentException.class, () -> CircuitBreaker.create(s, 1, LONG, Duration.ofMillis(-1)));
    assertThrows(IllegalArgumentException.class, () -> CircuitBreaker.create(s, 1, LONG, LONG).withRandomFactor(1.5));
    assertThrows(IllegalArgumentException.class, () -> CircuitBreaker.create(s, 1, LONG, LONG).withExponentialBackoff(Duration.ofSeconds(1)));
    assertThrows(NullPointerException.class, () -> CircuitBreaker.create(null, 1, LONG, LONG));
    CircuitBreaker b = CircuitBreaker.create(s, 1, LONG, LONG);
    assertSame(b, b.addOnOpenListener(() -> { }));
    assertFalse(b.isOpen());
  }
}
