package dev.troupe.pattern;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.LongConsumer;

/**
 * Protects callers from a service that fails or hangs (Pekko's {@code CircuitBreaker}, by its Java
 * names). <b>Closed</b>, calls go through; {@code maxFailures} failures in a row (an exception, a
 * failed stage, or no answer within {@code callTimeout}) open it. <b>Open</b>, every call fails at
 * once with {@link CircuitBreakerOpenException}, without calling the service, for {@code
 * resetTimeout}. <b>Half-open</b> then, one trial call goes through (the others are refused as if
 * open): its success closes the breaker, its failure opens it again, for {@code resetTimeout} again
 * or, with {@link #withExponentialBackoff}, for twice the last timeout up to a bound.
 *
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.create(system.scheduler(), 5, Duration.ofSeconds(2), Duration.ofSeconds(30))
 *     .addOnOpenListener(() -> log().warning("the price service is down"));
 * CompletionStage<Price> price = breaker.callWithCircuitBreakerCS(() -> prices.fetch(item));
 * }</pre>
 *
 * <p>Thread-safety: any number of threads and actors may share one breaker. Its state is one
 * atomic reference, changed by compare-and-set: a call counts in the state it started in, and
 * moves the breaker only if that state is still the current one. A successful call in the closed
 * state resets the failure count. A call's outcome is counted before its caller sees it (before
 * its stage completes, or before the synchronous call returns or throws), so a caller that reacts
 * to a failure sees the breaker as that failure left it. Listeners run on the executor given to the constructor; a breaker
 * made by {@link #create} runs them on the thread that changed the state (a caller's, or the
 * scheduler's): keep them short.
 */
public final class CircuitBreaker {
  private static final Executor SAME_THREAD = Runnable::run;
  private static final BiFunction<Optional<Object>, Optional<Throwable>, Boolean> FAILED_WHEN_THROWN =
      (value, failure) -> failure.isPresent();

  private final Executor executor;
  private final Scheduler scheduler;
  private final int maxFailures;
  private final Duration callTimeout;
  private final Duration resetTimeout;
  private final Duration maxResetTimeout;
  private final double backoffFactor;
  private final double randomFactor;
  private final AtomicReference<State> state = new AtomicReference<>(new Closed());

  private final List<Runnable> onOpen = new CopyOnWriteArrayList<>();
  private final List<Runnable> onHalfOpen = new CopyOnWriteArrayList<>();
  private final List<Runnable> onClose = new CopyOnWriteArrayList<>();
  private final List<Runnable> onCallBreakerOpen = new CopyOnWriteArrayList<>();
  private final List<LongConsumer> onCallSuccess = new CopyOnWriteArrayList<>();
  private final List<LongConsumer> onCallFailure = new CopyOnWriteArrayList<>();
  private final List<LongConsumer> onCallTimeout = new CopyOnWriteArrayList<>();

  private abstract static class State {}

  /** Calls go through; counts the failures in a row. */
  private static final class Closed extends State {
    final AtomicInteger failures = new AtomicInteger();
  }

  /** Calls are refused until {@code deadline}; {@code resetNanos} is the timeout it was opened for. */
  private static final class Open extends State {
    final long resetNanos;
    final long deadline;

    Open(long resetNanos, long deadline) {
      this.resetNanos = resetNanos;
      this.deadline = deadline;
    }
  }

  /** One trial call goes through; {@code resetNanos} is the timeout of the open state before. */
  private static final class HalfOpen extends State {
    final AtomicBoolean trialTaken = new AtomicBoolean();
    final long resetNanos;

    HalfOpen(long resetNanos) {
      this.resetNanos = resetNanos;
    }
  }

  /**
   * @param executor where listeners run
   * @param scheduler times the calls and the open state (e.g. {@code system.scheduler()})
   * @param maxFailures failures in a row that open the breaker; at least 1
   * @param callTimeout how long a call may take before it counts as a failure; positive
   * @param resetTimeout how long the breaker stays open before a trial call; positive
   * @throws IllegalArgumentException for a count or duration out of range
   */
  public CircuitBreaker(Executor executor, Scheduler scheduler, int maxFailures, Duration callTimeout, Duration resetTimeout) {
    this(executor, scheduler, maxFailures, callTimeout, resetTimeout, resetTimeout, 1.0, 0.0);
  }

  private CircuitBreaker(
      Executor executor,
      Scheduler scheduler,
      int maxFailures,
      Duration callTimeout,
      Duration resetTimeout,
      Duration maxResetTimeout,
      double backoffFactor,
      double randomFactor) {
    this.executor = Objects.requireNonNull(executor, "executor");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    if (maxFailures < 1) {
      throw new IllegalArgumentException("maxFailures must be at least 1, was " + maxFailures);
    }
    this.maxFailures = maxFailures;
    this.callTimeout = positive(callTimeout, "callTimeout");
    this.resetTimeout = positive(resetTimeout, "resetTimeout");
    this.maxResetTimeout = positive(maxResetTimeout, "maxResetTimeout");
    if (maxResetTimeout.compareTo(resetTimeout) < 0) {
      throw new IllegalArgumentException("maxResetTimeout " + maxResetTimeout + " is shorter than resetTimeout " + resetTimeout);
    }
    if (!(randomFactor >= 0.0 && randomFactor <= 1.0)) {
      throw new IllegalArgumentException("randomFactor must be in [0.0, 1.0], was " + randomFactor);
    }
    this.backoffFactor = backoffFactor;
    this.randomFactor = randomFactor;
  }

  private static Duration positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
    return d;
  }

  /**
   * A breaker whose listeners run on the thread that changes its state.
   *
   * @param scheduler times the calls and the open state (e.g. {@code system.scheduler()})
   * @param maxFailures failures in a row that open the breaker; at least 1
   * @param callTimeout how long a call may take before it counts as a failure; positive
   * @param resetTimeout how long the breaker stays open before a trial call; positive
   * @return a closed breaker
   */
  public static CircuitBreaker create(Scheduler scheduler, int maxFailures, Duration callTimeout, Duration resetTimeout) {
    return new CircuitBreaker(SAME_THREAD, scheduler, maxFailures, callTimeout, resetTimeout);
  }

  /**
   * @param maxResetTimeout the longest the breaker stays open: each failed trial doubles the
   *     timeout up to it; a successful one starts again from {@code resetTimeout}
   * @return a new, closed breaker with the same settings and this backoff (no listeners)
   */
  public CircuitBreaker withExponentialBackoff(Duration maxResetTimeout) {
    return new CircuitBreaker(executor, scheduler, maxFailures, callTimeout, resetTimeout, maxResetTimeout, 2.0, randomFactor);
  }

  /**
   * @param randomFactor how much longer, at random, each open state may last: up to {@code timeout
   *     × (1 + randomFactor)}, so that many breakers opened together do not all try again together;
   *     in [0.0, 1.0]
   * @return a new, closed breaker with the same settings and this jitter (no listeners)
   */
  public CircuitBreaker withRandomFactor(double randomFactor) {
    return new CircuitBreaker(executor, scheduler, maxFailures, callTimeout, resetTimeout, maxResetTimeout, backoffFactor, randomFactor);
  }

  /**
   * Calls an asynchronous service through the breaker: a failed stage, an exception thrown by
   * {@code body}, or no completion within {@code callTimeout} counts as a failure.
   *
   * @param body starts the call
   * @param <T> the result
   * @return the call's stage; failed with {@link CircuitBreakerOpenException} without calling
   *     {@code body} while the breaker is open, with {@link TimeoutException} after {@code callTimeout}
   */
  public <T> CompletionStage<T> callWithCircuitBreakerCS(Callable<CompletionStage<T>> body) {
    return callWithCircuitBreakerCS(body, failedWhenThrown());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T> BiFunction<Optional<T>, Optional<Throwable>, Boolean> failedWhenThrown() {
    return (BiFunction) FAILED_WHEN_THROWN;
  }

  /**
   * As {@link #callWithCircuitBreakerCS(Callable)}, with the caller deciding what counts as a
   * failure (a successful answer that says "unavailable", say). A timeout always counts.
   *
   * @param body starts the call
   * @param defineFailure the value or the failure of the call (one of them present) → whether it
   *     counts as a failure
   * @param <T> the result
   * @return the call's stage
   */
  public <T> CompletionStage<T> callWithCircuitBreakerCS(
      Callable<CompletionStage<T>> body, BiFunction<Optional<T>, Optional<Throwable>, Boolean> defineFailure) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(defineFailure, "defineFailure");
    State s = admit();
    if (s == null) {
      return CompletableFuture.failedFuture(refusal());
    }
    Call<T> call = new Call<>(s, System.nanoTime(), defineFailure);
    CompletionStage<T> stage;
    try {
      stage = Objects.requireNonNull(body.call(), "the body returned a null stage");
    } catch (Throwable t) {
      call.settle(null, t, false);
      return call.result;
    }
    long left = callTimeout.toNanos() - (System.nanoTime() - call.start);
    if (left <= 0) {
      call.run(); // starting the call took the whole timeout
    } else if (!(stage instanceof CompletableFuture<T> f && f.isDone())) {
      // armed before the answer is awaited, so that an answer cancels it; an answer already there
      // needs no timer at all
      call.timer = scheduler.scheduleOnce(Duration.ofNanos(left), call, SAME_THREAD);
    }
    stage.whenComplete(call);
    return call.result;
  }

  /**
   * One call through {@link #callWithCircuitBreakerCS}: the first of its answer and its timeout
   * (this object's flag) settles it, counts it, then completes its stage.
   */
  private final class Call<T> extends AtomicBoolean implements Runnable, BiConsumer<T, Throwable> {
    private static final long serialVersionUID = 1L;

    final transient State state;
    final long start;
    final transient BiFunction<Optional<T>, Optional<Throwable>, Boolean> defineFailure;
    final transient CompletableFuture<T> result = new CompletableFuture<>();
    transient volatile Cancellable timer;

    Call(State state, long start, BiFunction<Optional<T>, Optional<Throwable>, Boolean> defineFailure) {
      this.state = state;
      this.start = start;
      this.defineFailure = defineFailure;
    }

    /** The timeout. */
    @Override
    public void run() {
      if (compareAndSet(false, true)) {
        timedOut(state, start);
        result.completeExceptionally(new TimeoutException("circuit breaker: the call took longer than " + callTimeout));
      }
    }

    /** The answer. */
    @Override
    public void accept(T value, Throwable failure) {
      Cancellable t = timer;
      if (t != null) {
        t.cancel();
      }
      settle(value, failure, true);
    }

    void settle(T value, Throwable failure, boolean ruled) {
      if (!compareAndSet(false, true)) {
        return; // timed out already: a late answer changes nothing
      }
      boolean bad;
      try {
        bad = !ruled || countsAsFailure(defineFailure, value, failure);
      } catch (RuntimeException | Error e) { // a broken defineFailure fails the call, and counts
        failed(state, start);
        result.completeExceptionally(e);
        return;
      }
      if (bad) {
        failed(state, start);
      } else {
        succeeded(state, start);
      }
      if (failure == null) {
        result.complete(value);
      } else {
        result.completeExceptionally(failure);
      }
    }
  }

  /**
   * Calls a synchronous service through the breaker, on the calling thread. An exception counts
   * as a failure and is rethrown; a call that returns after {@code callTimeout} counts as a failure
   * too, and its result is dropped for a {@link TimeoutException} (the call is not interrupted).
   *
   * @param body the call
   * @param <T> the result
   * @return its result
   * @throws CircuitBreakerOpenException without calling {@code body} while the breaker is open
   * @throws TimeoutException if the call took longer than {@code callTimeout}
   * @throws Exception what {@code body} threw
   */
  public <T> T callWithSyncCircuitBreaker(Callable<T> body) throws Exception {
    return callWithSyncCircuitBreaker(body, failedWhenThrown());
  }

  /**
   * As {@link #callWithSyncCircuitBreaker(Callable)}, with the caller deciding what counts as a
   * failure. A timeout always counts.
   *
   * @param body the call
   * @param defineFailure the value or the failure of the call (one of them present) → whether it
   *     counts as a failure
   * @param <T> the result
   * @return its result
   * @throws Exception as {@link #callWithSyncCircuitBreaker(Callable)}
   */
  public <T> T callWithSyncCircuitBreaker(
      Callable<T> body, BiFunction<Optional<T>, Optional<Throwable>, Boolean> defineFailure) throws Exception {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(defineFailure, "defineFailure");
    State s = admit();
    if (s == null) {
      throw refusal();
    }
    long start = System.nanoTime();
    T value;
    try {
      value = body.call();
    } catch (Throwable t) {
      count(s, start, defineFailure, null, t);
      throw t;
    }
    if (System.nanoTime() - start > callTimeout.toNanos()) {
      timedOut(s, start);
      throw new TimeoutException("circuit breaker: the call took longer than " + callTimeout);
    }
    count(s, start, defineFailure, value, null);
    return value;
  }

  /** Counts a finished synchronous call; a {@code defineFailure} that throws counts as a failure, and its exception propagates. */
  private <T> void count(
      State s, long start, BiFunction<Optional<T>, Optional<Throwable>, Boolean> defineFailure, T value, Throwable failure) {
    boolean bad;
    try {
      bad = countsAsFailure(defineFailure, value, failure);
    } catch (RuntimeException | Error e) {
      failed(s, start);
      throw e;
    }
    if (bad) {
      failed(s, start);
    } else {
      succeeded(s, start);
    }
  }

  /**
   * Counts a success as a call through the breaker would, for a call made another way (an actor
   * that asks and counts the answer itself).
   */
  public void succeed() {
    succeeded(state.get(), System.nanoTime());
  }

  /** Counts a failure as a call through the breaker would, for a call made another way. */
  public void fail() {
    failed(state.get(), System.nanoTime());
  }

  /** @return whether calls go through */
  public boolean isClosed() {
    return state.get() instanceof Closed;
  }

  /** @return whether calls are refused */
  public boolean isOpen() {
    return state.get() instanceof Open;
  }

  /** @return whether one trial call may go through */
  public boolean isHalfOpen() {
    return state.get() instanceof HalfOpen;
  }

  /** @return the failures in a row while closed; -1 when not closed */
  public int currentFailureCount() {
    return state.get() instanceof Closed c ? c.failures.get() : -1;
  }

  /**
   * @param listener runs each time the breaker opens
   * @return this breaker
   */
  public CircuitBreaker addOnOpenListener(Runnable listener) {
    return add(onOpen, listener);
  }

  /**
   * @param listener runs each time the breaker becomes half-open
   * @return this breaker
   */
  public CircuitBreaker addOnHalfOpenListener(Runnable listener) {
    return add(onHalfOpen, listener);
  }

  /**
   * @param listener runs each time the breaker closes again
   * @return this breaker
   */
  public CircuitBreaker addOnCloseListener(Runnable listener) {
    return add(onClose, listener);
  }

  /**
   * @param listener runs for each call refused because the breaker is open
   * @return this breaker
   */
  public CircuitBreaker addOnCallBreakerOpenListener(Runnable listener) {
    return add(onCallBreakerOpen, listener);
  }

  /**
   * @param listener gets the elapsed nanoseconds of each call that succeeded
   * @return this breaker
   */
  public CircuitBreaker addOnCallSuccessListener(LongConsumer listener) {
    return add(onCallSuccess, listener);
  }

  /**
   * @param listener gets the elapsed nanoseconds of each call that failed (not timed out)
   * @return this breaker
   */
  public CircuitBreaker addOnCallFailureListener(LongConsumer listener) {
    return add(onCallFailure, listener);
  }

  /**
   * @param listener gets the elapsed nanoseconds of each call that timed out
   * @return this breaker
   */
  public CircuitBreaker addOnCallTimeoutListener(LongConsumer listener) {
    return add(onCallTimeout, listener);
  }

  private <L> CircuitBreaker add(List<L> listeners, L listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  /** @return the state a call goes through in, or null if it is refused */
  private State admit() {
    State s = state.get();
    if (s instanceof Closed || s instanceof HalfOpen h && h.trialTaken.compareAndSet(false, true)) {
      return s;
    }
    notifyAll(onCallBreakerOpen);
    return null;
  }

  private CircuitBreakerOpenException refusal() {
    State s = state.get();
    if (s instanceof Open o) {
      Duration left = Duration.ofNanos(Math.max(0, o.deadline - System.nanoTime()));
      return new CircuitBreakerOpenException(left, "circuit breaker is open; a trial call in " + left);
    }
    return new CircuitBreakerOpenException(Duration.ZERO, "circuit breaker is half-open and its trial call is under way");
  }

  private static <T> boolean countsAsFailure(
      BiFunction<Optional<T>, Optional<Throwable>, Boolean> defineFailure, T value, Throwable failure) {
    Boolean bad = defineFailure.apply(Optional.ofNullable(value), Optional.ofNullable(failure));
    return bad == null || bad;
  }

  private void succeeded(State s, long start) {
    notifyAll(onCallSuccess, System.nanoTime() - start);
    if (s instanceof Closed c) {
      if (c.failures.get() != 0) { // read first: callers sharing a healthy breaker write nothing shared
        c.failures.set(0);
      }
    } else if (s instanceof HalfOpen h && state.compareAndSet(h, new Closed())) {
      notifyAll(onClose);
    }
  }

  private void failed(State s, long start) {
    notifyAll(onCallFailure, System.nanoTime() - start);
    countFailure(s);
  }

  private void timedOut(State s, long start) {
    notifyAll(onCallTimeout, System.nanoTime() - start);
    countFailure(s);
  }

  private void countFailure(State s) {
    if (s instanceof Closed c) {
      if (c.failures.incrementAndGet() == maxFailures) {
        open(c, resetTimeout.toNanos());
      }
    } else if (s instanceof HalfOpen h) {
      long next = (long) Math.min(h.resetNanos * backoffFactor, (double) maxResetTimeout.toNanos());
      open(h, next);
    }
  }

  private void open(State from, long resetNanos) {
    long delay = randomFactor == 0.0 ? resetNanos : (long) (resetNanos * (1.0 + ThreadLocalRandom.current().nextDouble() * randomFactor));
    Open o = new Open(resetNanos, System.nanoTime() + delay);
    if (!state.compareAndSet(from, o)) {
      return; // another completion moved the breaker first
    }
    scheduler.scheduleOnce(
        Duration.ofNanos(delay),
        () -> {
          if (state.compareAndSet(o, new HalfOpen(o.resetNanos))) {
            notifyAll(onHalfOpen);
          }
        },
        SAME_THREAD);
    notifyAll(onOpen);
  }

  private void notifyAll(List<Runnable> listeners) {
    if (listeners.isEmpty()) {
      return;
    }
    for (Runnable r : listeners) {
      run(r);
    }
  }

  private void notifyAll(List<LongConsumer> listeners, long elapsedNanos) {
    if (listeners.isEmpty()) {
      return;
    }
    for (LongConsumer l : listeners) {
      run(() -> l.accept(elapsedNanos));
    }
  }

  /** Runs a listener on the executor; a listener's exception goes to its thread's handler, not to the caller. */
  private void run(Runnable listener) {
    executor.execute(
        () -> {
          try {
            listener.run();
          } catch (RuntimeException | Error e) {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e);
          }
        });
  }

  @Override
  public String toString() {
    State s = state.get();
    String name = s instanceof Closed c ? "closed, " + c.failures.get() + " failure(s)" : s instanceof Open ? "open" : "half-open";
    return "CircuitBreaker(" + name + ", maxFailures " + maxFailures + ", callTimeout " + callTimeout + ", resetTimeout " + resetTimeout + ")";
  }
}
