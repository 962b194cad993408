package dev.troupe.cluster.internal.jgroups;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries what JGroups says to the {@link MembershipListener}, one call at a time, on a thread of
 * its own (one per engine, named {@code troupe-cluster-jgroups-<node>}).
 *
 * <p>Why a thread of our own rather than JGroups' ordering: JGroups calls {@code viewAccepted} on
 * the thread that installs the view and reports suspicions on VERIFY_SUSPECT's timer thread, two
 * different threads with no order between them; the listener must hear both in one order and
 * never hold up either. JGroups' threads only append the raw event to this thread's queue; the
 * translation to Troupe's terms (reading members' identities, matching a suspect to the current
 * view) happens here, so that a suspicion is always judged against the view the listener last
 * heard and never names a member that view has already dropped.
 *
 * <p>The queue is unbounded but its input is not the network's to choose: views come one at a time
 * from the group's coordinator (each installed only after the previous one), suspicions at most
 * one per member per failure-detection period.
 *
 * <p><b>Sure death.</b> A member is reported {@code confirmedDead} rather than suspected when two
 * things come together within {@code window} (the failure detector's pause plus GMS's time to
 * install a view): {@link ClosedSocketDetector} saw the connection to it closed by the other end
 * and nothing listening at its port any more, <em>and</em> the group confirmed the failure, by a
 * suspicion VERIFY_SUSPECT confirmed on this node or by a view that drops the member. Only the
 * order closed-then-confirmed counts: a connection closed after the view dropped its member is this
 * node tidying up, not evidence. Neither alone is enough: a partition or a frozen process drops
 * members from views without closing any connection, and a member might stop listening for a
 * moment and still answer VERIFY_SUSPECT, staying in the view.
 *
 * <p>Reports wait behind a gate until {@link #open()}: {@code join} opens it once the join has
 * succeeded, so a join that fails reports nothing. After {@link #stop()} nothing more is reported.
 */
final class Reporter implements SuspicionTap.Sink {
  private static final Logger log = LoggerFactory.getLogger(Reporter.class);
  /** Distinct members warned about at most, before the set is cleared (bounds its memory). */
  private static final int MAX_WARNED = 1024;

  private final MembershipListener listener;
  private final String node;
  private final long windowNanos;
  private final ExecutorService thread;
  private final CountDownLatch gate = new CountDownLatch(1);
  private volatile boolean stopped;

  // reporter thread only
  private Map<Address, UniqueAddress> current = Map.of();
  private final Set<UniqueAddress> suspected = new HashSet<>();
  /** Members of the current view whose watched connection closed, and when (System.nanoTime). */
  private final Map<Address, Long> closedAt = new HashMap<>();
  /** Members of the current view already reported dead. */
  private final Set<UniqueAddress> dead = new HashSet<>();
  private final Set<Address> warned = new HashSet<>();
  private long lastVersion = Long.MIN_VALUE;

  /**
   * @param listener where the reports go
   * @param node this node, for the thread's name and the log
   * @param window how soon after a closed connection the member's failure must be confirmed for a
   *     sure death
   */
  Reporter(MembershipListener listener, String node, Duration window) {
    this.listener = listener;
    this.node = node;
    this.windowNanos = window.toNanos();
    this.thread =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "troupe-cluster-jgroups-" + node);
              t.setDaemon(true);
              return t;
            });
    thread.execute(this::awaitGate);
  }

  /** Lets the reports through (from the first view on). */
  void open() {
    gate.countDown();
  }

  /** Reports nothing more (what is queued is dropped) and lets the thread end. */
  void stop() {
    stopped = true;
    gate.countDown();
    thread.shutdown();
  }

  /** A view JGroups installed; called on a JGroups thread. */
  void view(View view) {
    submit(() -> deliver(view));
  }

  @Override
  public void suspected(List<Address> members) {
    submit(() -> deliverSuspected(members));
  }

  @Override
  public void unsuspected(Address member) {
    submit(() -> deliverUnsuspected(member));
  }

  @Override
  public void socketClosed(Address member) {
    long at = System.nanoTime();
    submit(() -> deliverClosed(member, at));
  }

  private void submit(Runnable report) {
    if (stopped) {
      return;
    }
    try {
      thread.execute(
          () -> {
            if (stopped) {
              return;
            }
            try {
              report.run();
            } catch (RuntimeException | Error e) {
              log.error("{}: the membership listener failed; the engine goes on reporting", node, e);
            }
          });
    } catch (RejectedExecutionException e) {
      // stopped meanwhile: nothing more is reported
    }
  }

  private void awaitGate() {
    try {
      gate.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void deliver(View view) {
    long version = view.getViewId().getId();
    if (version <= lastVersion) {
      log.debug("{}: ignoring view {}, not newer than {}", node, view.getViewId(), lastVersion);
      return;
    }
    lastVersion = version;
    List<Address> raw = view.getMembers();
    List<EngineMember> members = new ArrayList<>(raw.size());
    Map<Address, UniqueAddress> byAddress = new HashMap<>();
    Set<UniqueAddress> seen = new HashSet<>();
    for (Address a : raw) {
      Optional<EngineMember> m = MemberIdentity.decode(a);
      if (m.isEmpty()) {
        warnOnce(a, "carries no readable Troupe identity (not a Troupe node, or a malformed one)");
      } else if (!seen.add(m.get().node())) {
        warnOnce(a, "claims the identity " + m.get().node() + " of an older member");
      } else {
        members.add(m.get());
        byAddress.put(a, m.get().node());
      }
    }
    Map<Address, UniqueAddress> previous = current;
    current = byAddress;
    suspected.retainAll(byAddress.values());
    listener.viewChanged(new MembershipView(version, members, view instanceof MergeView));
    for (Map.Entry<Address, UniqueAddress> was : previous.entrySet()) {
      if (!byAddress.containsKey(was.getKey()) && closedRecently(was.getKey())) {
        reportDead(was.getValue());
      }
    }
    closedAt.keySet().retainAll(byAddress.keySet());
    dead.retainAll(byAddress.values());
  }

  private void deliverClosed(Address member, long at) {
    if (current.containsKey(member)) {
      closedAt.put(member, at);
    }
  }

  private boolean closedRecently(Address member) {
    Long at = closedAt.get(member);
    return at != null && System.nanoTime() - at <= windowNanos;
  }

  private void reportDead(UniqueAddress member) {
    if (dead.add(member)) {
      listener.confirmedDead(member);
    }
  }

  private void deliverSuspected(List<Address> members) {
    for (Address a : members) {
      UniqueAddress u = current.get(a);
      if (u == null) {
        continue;
      }
      if (closedRecently(a)) {
        reportDead(u);
      } else if (suspected.add(u)) {
        listener.suspected(u);
      }
    }
  }

  private void deliverUnsuspected(Address member) {
    UniqueAddress u = current.get(member);
    closedAt.remove(member); // it answers: whatever closed, it is alive
    if (u != null && suspected.remove(u)) {
      listener.unsuspected(u);
    }
  }

  private void warnOnce(Address member, String why) {
    if (warned.size() >= MAX_WARNED) {
      warned.clear();
    }
    if (warned.add(member)) {
      // the raw UUID, not the logical name: that name is the peer's to choose
      String id = member instanceof org.jgroups.util.UUID u ? u.toStringLong() : member.getClass().getSimpleName();
      log.warn("{}: leaving JGroups member {} out of the cluster's view: it {}", node, id, why);
    }
  }
}
