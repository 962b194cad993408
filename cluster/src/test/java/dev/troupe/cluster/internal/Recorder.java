package dev.troupe.cluster.internal;

import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A membership listener for engine tests: keeps every report in order, checks the SPI's promises
 * on each call (one call at a time, on the engine's report thread, versions increasing), and
 * waits, bounded, for a report that matches.
 */
public final class Recorder implements MembershipListener {
  /** One report, in the order the engine made it. */
  public sealed interface Report permits ViewReport, Suspected, Unsuspected, Dead {}

  /** {@code viewChanged}. */
  public record ViewReport(MembershipView view) implements Report {}

  /** {@code suspected}. */
  public record Suspected(UniqueAddress member) implements Report {}

  /** {@code unsuspected}. */
  public record Unsuspected(UniqueAddress member) implements Report {}

  /** {@code confirmedDead}. */
  public record Dead(UniqueAddress member) implements Report {}

  private final String threadPrefix;
  private final AtomicInteger inside = new AtomicInteger();
  private final List<Report> reports = new ArrayList<>(); // guarded by this
  private final List<String> violations = new ArrayList<>(); // guarded by this
  private long lastVersion = Long.MIN_VALUE;

  /** @param threadPrefix what the report thread's name must start with */
  public Recorder(String threadPrefix) {
    this.threadPrefix = threadPrefix;
  }

  @Override
  public void viewChanged(MembershipView view) {
    record(new ViewReport(view));
  }

  @Override
  public void suspected(UniqueAddress member) {
    record(new Suspected(member));
  }

  @Override
  public void unsuspected(UniqueAddress member) {
    record(new Unsuspected(member));
  }

  @Override
  public void confirmedDead(UniqueAddress member) {
    record(new Dead(member));
  }

  /**
   * Waits for a report that matches.
   *
   * @param what what is awaited, for the failure message
   * @param condition on one report
   * @param max how long to wait
   */
  public synchronized void awaitReport(String what, Predicate<Report> condition, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (reports.stream().noneMatch(condition)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        fail("no report " + what + " within " + max + "; reports: " + reports);
      }
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for a report " + what);
      }
    }
  }

  private void record(Report r) {
    boolean alone = inside.incrementAndGet() == 1;
    try {
      synchronized (this) {
        if (!alone) {
          violations.add("two calls at once: " + r);
        }
        String thread = Thread.currentThread().getName();
        if (!thread.startsWith(threadPrefix)) {
          violations.add("called on thread '" + thread + "': " + r);
        }
        if (r instanceof ViewReport v) {
          if (v.view().version() <= lastVersion) {
            violations.add("version " + v.view().version() + " after " + lastVersion);
          }
          lastVersion = v.view().version();
        }
        reports.add(r);
        notifyAll();
      }
    } finally {
      inside.decrementAndGet();
    }
  }

  /** @return every report so far */
  public synchronized List<Report> reports() {
    return List.copyOf(reports);
  }

  /** @return the views reported so far, in order */
  public synchronized List<MembershipView> views() {
    return reports.stream().filter(ViewReport.class::isInstance).map(r -> ((ViewReport) r).view()).toList();
  }

  /** @return the last view reported, or null */
  public synchronized MembershipView lastView() {
    List<MembershipView> v = views();
    return v.isEmpty() ? null : v.get(v.size() - 1);
  }

  /** Fails if a report broke one of the SPI's promises. */
  public synchronized void assertPromisesKept() {
    if (!violations.isEmpty()) {
      fail("the engine broke the listener's contract: " + violations);
    }
  }

  /**
   * @param what what is awaited, for the failure message
   * @param condition on the last view
   * @param max how long to wait
   * @return the first view (oldest first) that matches, waiting for one if none has yet
   */
  public synchronized MembershipView awaitView(String what, Predicate<MembershipView> condition, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    int from = 0;
    while (true) {
      List<MembershipView> seen = views();
      for (int i = from; i < seen.size(); i++) {
        if (condition.test(seen.get(i))) {
          return seen.get(i);
        }
      }
      from = seen.size();
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        fail("no view " + what + " within " + max + "; reports: " + reports);
      }
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for a view " + what);
      }
    }
  }

  /** Waits for the last view to satisfy {@code condition} (later views may undo earlier ones). */
  public synchronized MembershipView awaitLastView(String what, Predicate<MembershipView> condition, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (true) {
      MembershipView last = lastView();
      if (last != null && condition.test(last)) {
        return last;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        fail("the last view is not " + what + " within " + max + "; reports: " + reports);
      }
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for a view " + what);
      }
    }
  }

  /** @return the nodes of a view, in its order */
  public static List<UniqueAddress> nodes(MembershipView view) {
    return view.members().stream().map(EngineMember::node).toList();
  }
}
