package dev.troupe.persistence.internal.query;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscription to a query that reads a journal batch by batch: the reactive-streams rules for
 * a publisher, once, for every query.
 *
 * <p>Nothing is read before the subscriber asks for something, and at most one read is in flight;
 * a read asks for at most {@code batchSize} items and the next one starts only once the subscriber
 * has taken them all, so a slow subscriber holds at most one batch. A read that finds nothing new in
 * a live query waits {@code refreshInterval} before the next (a timer of the system's scheduler;
 * nothing waits on a thread). Every signal to the subscriber comes from one drain loop that one
 * thread at a time runs (whoever made the last change: the subscriber's {@code request}, or the
 * system's dispatcher after a read or a timer), so signals never overlap and a {@code request} from
 * inside {@code onNext} does not recurse. The journal's threads never run the subscriber's code:
 * what a read found is handed to the dispatcher.
 *
 * @param <T> what the query hands over
 */
public abstract class PollingSubscription<T> implements Flow.Subscription {
  private static final Logger LOG = LoggerFactory.getLogger(PollingSubscription.class);

  /** What a read found, and what to do next. */
  public enum Next {
    /** Read again as soon as these are taken: there may be more now. */
    NOW,
    /** Read again after the refresh interval: the query has caught up. */
    LATER,
    /** Complete once these are taken. */
    LAST
  }

  /**
   * One read's result.
   *
   * @param items what it found, in order
   * @param next what to do once they are taken
   * @param <T> what the query hands over
   */
  public record Batch<T>(List<T> items, Next next) {}

  private volatile Flow.Subscriber<? super T> subscriber; // dropped at the end (rule 3.13)
  private final Executor executor;
  private final Scheduler scheduler;
  private final Duration refreshInterval;
  /** The most items one read asks for. */
  protected final int batchSize;
  private final Consumer<PollingSubscription<?>> onEnd;

  private final AtomicInteger wip = new AtomicInteger();
  private final AtomicLong requested = new AtomicLong();
  private volatile boolean cancelled;
  private volatile Throwable failure; // a bad request, a failed read, the system's end
  private volatile Batch<T> arrived;
  private volatile boolean subscribed; // onSubscribe returned: signals may follow
  private volatile boolean refreshDue;

  // the drain loop's alone
  private final ArrayDeque<T> buffer = new ArrayDeque<>();
  private boolean reading;
  private boolean waiting;
  private boolean last;
  private boolean ended;
  private Cancellable refresh;

  /**
   * @param subscriber who gets the items
   * @param executor where reads' results and timers reach the drain loop (the system's dispatcher)
   * @param scheduler the system's scheduler, for refresh timers
   * @param refreshInterval how long a live query waits after a read that found nothing new
   * @param batchSize the most items one read asks for
   * @param onEnd told once the subscription has ended, however it ended
   */
  protected PollingSubscription(
      Flow.Subscriber<? super T> subscriber,
      Executor executor,
      Scheduler scheduler,
      Duration refreshInterval,
      int batchSize,
      Consumer<PollingSubscription<?>> onEnd) {
    this.subscriber = subscriber;
    this.executor = executor;
    this.scheduler = scheduler;
    this.refreshInterval = refreshInterval;
    this.batchSize = batchSize;
    this.onEnd = onEnd;
  }

  /**
   * A subscription of a query object's {@link Subscriptions}: the system's dispatcher and scheduler,
   * and known to them until it ends.
   *
   * @param subscriber who gets the items, not null (reactive-streams rule 1.9)
   * @param subscriptions those of the query object
   * @param refreshInterval how long a live query waits after a read that found nothing new; null
   *     for a current query, which completes once a read finds less than it asked for
   * @param batchSize the most items one read asks for
   */
  protected PollingSubscription(
      Flow.Subscriber<? super T> subscriber, Subscriptions subscriptions, Duration refreshInterval, int batchSize) {
    this(java.util.Objects.requireNonNull(subscriber, "subscriber"), subscriptions.system().dispatcher(),
        subscriptions.system().scheduler(), refreshInterval, batchSize, subscriptions::ended);
  }

  /**
   * The next read. Called from the drain loop, one at a time: what a read keeps between calls
   * (where the next starts) may be plain fields, written before the returned stage completes.
   *
   * @return completes with what was found
   */
  protected abstract CompletionStage<Batch<T>> read();

  /**
   * Hands the subscriber this subscription; the first signal, from the subscribing thread. No other
   * signal comes before it returns (a failure or a request meanwhile waits for it: rules 1.3, 1.9).
   */
  public final void start() {
    try {
      subscriber.onSubscribe(this);
    } catch (RuntimeException e) {
      LOG.warn("subscriber {} threw from onSubscribe (a reactive-streams subscriber must not): the subscription is"
          + " cancelled", subscriber, e);
      cancelled = true;
    } finally {
      subscribed = true;
    }
    drain();
  }

  /**
   * Ends the subscription with an error (the system's end): the subscriber gets {@code onError}
   * unless it has already ended.
   *
   * @param cause the error
   */
  public final void fail(Throwable cause) {
    if (failure == null) {
      failure = cause;
    }
    drain();
  }

  @Override
  public final void request(long n) {
    if (n <= 0) {
      fail(new IllegalArgumentException(
          "request(" + n + "): a subscriber must request a positive number of items (reactive-streams rule 3.9)"));
      return;
    }
    long r;
    long next;
    do {
      r = requested.get();
      next = r + n < 0 ? Long.MAX_VALUE : r + n; // overflows to unbounded (rule 3.17)
    } while (r != Long.MAX_VALUE && !requested.compareAndSet(r, next));
    drain();
  }

  @Override
  public final void cancel() {
    cancelled = true;
    drain();
  }

  private void drain() {
    if (wip.getAndIncrement() != 0) {
      return;
    }
    int missed = 1;
    do {
      try {
        pass();
      } catch (SubscriberThrew e) { // rule 2.13: it is gone
        LOG.warn("a query's subscriber threw from a signal (a reactive-streams subscriber must not): its subscription"
            + " is cancelled", e.getCause());
        end();
      } catch (VirtualMachineError e) {
        end();
        throw e;
      } catch (RuntimeException | Error e) { // the query's own failure (a plugin's, say): the subscriber is told
        if (failure == null) {
          failure = e;
        }
        wip.getAndIncrement(); // one more pass, to signal it
      }
      missed = wip.addAndGet(-missed);
    } while (missed != 0);
  }

  /** What the subscriber's own code threw from a signal, told apart from the query's failures. */
  private static final class SubscriberThrew extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SubscriberThrew(Throwable cause) {
      super(cause);
    }
  }

  private void onNext(Flow.Subscriber<? super T> s, T item) {
    try {
      s.onNext(item);
    } catch (RuntimeException | LinkageError | AssertionError e) {
      throw new SubscriberThrew(e);
    }
  }

  private void onError(Flow.Subscriber<? super T> s, Throwable f) {
    try {
      s.onError(f);
    } catch (RuntimeException | LinkageError | AssertionError e) {
      throw new SubscriberThrew(e);
    }
  }

  private void onComplete(Flow.Subscriber<? super T> s) {
    try {
      s.onComplete();
    } catch (RuntimeException | LinkageError | AssertionError e) {
      throw new SubscriberThrew(e);
    }
  }

  /** One pass of the drain loop: take what arrived, hand over what was asked for, read or end. */
  private void pass() {
    Flow.Subscriber<? super T> s = subscriber;
    if (ended || !subscribed) {
      return; // start() drains once onSubscribe returned
    }
    if (cancelled) {
      end();
      return;
    }
    Batch<T> b = arrived;
    if (b != null) {
      arrived = null;
      reading = false;
      buffer.addAll(b.items());
      if (b.next() == Next.LAST || refreshInterval == null && b.next() == Next.LATER) {
        last = true;
      } else if (b.next() == Next.LATER) {
        scheduleRefresh();
      }
    }
    if (refreshDue) {
      refreshDue = false;
      waiting = false;
    }
    Throwable f = failure;
    if (f != null) {
      end();
      onError(s, f);
      return;
    }
    long r = requested.get();
    long handed = 0;
    while (handed < r && !buffer.isEmpty()) {
      onNext(s, buffer.poll());
      handed++;
      if (cancelled) {
        end();
        return;
      }
      if (failure != null) {
        break; // a bad request from inside onNext: the next pass signals it
      }
    }
    produced(handed);
    if (buffer.isEmpty()) {
      if (last) {
        end();
        onComplete(s);
      } else if (!reading && !waiting && requested.get() > 0) {
        startRead();
      }
    }
  }

  /** Takes handed-over items off the demand, which stays unbounded once it is (rule 3.17). */
  private void produced(long handed) {
    if (handed == 0) {
      return;
    }
    long r;
    do {
      r = requested.get();
      if (r == Long.MAX_VALUE) {
        return;
      }
    } while (!requested.compareAndSet(r, r - handed));
  }

  private void startRead() {
    reading = true;
    CompletionStage<Batch<T>> stage;
    try {
      stage = read();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) { // a plugin that throws instead of failing its stage
      stage = CompletableFuture.failedFuture(e);
    }
    stage.whenComplete((batch, e) -> handOver(() -> {
      if (e != null) {
        fail(e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e);
      } else {
        arrived = batch;
        drain();
      }
    }));
  }

  private void scheduleRefresh() {
    waiting = true;
    try {
      refresh = scheduler.scheduleOnce(refreshInterval, () -> {
        refreshDue = true;
        drain();
      }, this::handOver);
    } catch (RuntimeException e) { // the system has terminated (IllegalStateException), or worse
      failure = e;
    }
  }

  /** Runs a step on the dispatcher, or here once the dispatcher takes no more (the system's end). */
  private void handOver(Runnable step) {
    try {
      executor.execute(step);
    } catch (RejectedExecutionException e) {
      step.run();
    }
  }

  private void end() {
    ended = true;
    subscriber = null;
    buffer.clear();
    Cancellable r = refresh;
    if (r != null) {
      r.cancel();
    }
    onEnd.accept(this);
  }
}
