package dev.troupe.persistence.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A subscriber that records every signal, with the thread it came on, for a test to take in
 * order with bounded waits.
 *
 * @param <T> what it receives
 */
final class SubscriberProbe<T> implements Flow.Subscriber<T> {
  static final Duration WAIT = Duration.ofSeconds(10);

  /** One signal: an item, the completion ({@code done}) or an error. */
  record Signal(Object item, boolean done, Throwable error, String thread) {}

  private final LinkedBlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
  private final List<Signal> all = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final CountDownLatch subscribed = new CountDownLatch(1);
  private volatile Flow.Subscription subscription;

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    subscribed.countDown();
  }

  @Override
  public void onNext(T item) {
    record(new Signal(item, false, null, Thread.currentThread().getName()));
  }

  @Override
  public void onError(Throwable t) {
    record(new Signal(null, false, t, Thread.currentThread().getName()));
  }

  @Override
  public void onComplete() {
    record(new Signal(null, true, null, Thread.currentThread().getName()));
  }

  private void record(Signal s) {
    all.add(s);
    signals.add(s);
  }

  /** @return the subscription, once onSubscribe came */
  Flow.Subscription subscription() throws InterruptedException {
    if (!subscribed.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("no onSubscribe within " + WAIT);
    }
    return subscription;
  }

  SubscriberProbe<T> request(long n) throws InterruptedException {
    subscription().request(n);
    return this;
  }

  void cancel() throws InterruptedException {
    subscription().cancel();
  }

  Signal next(String what) throws InterruptedException {
    Signal s = signals.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertNotNull(s, "no signal within " + WAIT + ": expected " + what);
    return s;
  }

  @SuppressWarnings("unchecked")
  T expectNext() throws InterruptedException {
    Signal s = next("an item");
    if (s.error() != null) {
      throw new AssertionError("expected an item, got an error", s.error());
    }
    assertEquals(false, s.done(), "expected an item, got the completion");
    return (T) s.item();
  }

  List<T> expectNext(int n) throws InterruptedException {
    List<T> got = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      got.add(expectNext());
    }
    return got;
  }

  void expectComplete() throws InterruptedException {
    Signal s = next("the completion");
    assertEquals(true, s.done(), "expected the completion, got " + s);
  }

  <E extends Throwable> E expectError(Class<E> type) throws InterruptedException {
    Signal s = next("an error");
    return assertInstanceOf(type, s.error(), "expected an error, got " + s);
  }

  /** Checks that no signal comes within {@code d}: passes on a slow machine, never fails there. */
  void expectNoSignal(Duration d) throws InterruptedException {
    Signal s = signals.poll(d.toMillis(), TimeUnit.MILLISECONDS);
    assertNull(s, "expected no signal within " + d);
  }

  /** @return every signal received so far, taken or not */
  List<Signal> received() {
    return new ArrayList<>(all);
  }
}
