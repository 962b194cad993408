package dev.troupe.cluster.internal.jgroups;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
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
 * <p><b>One node, several channels.</b> Each join makes a channel with a fresh JGroups address,
 * so one node can be in a view twice: a join that timed out (a loaded coordinator answered too late)
 * may have been let in all the same, and its channel, closed by the failed join, stays in the view
 * until the failure detectors drop it, while the node's next join brings a live channel. The oldest
 * channel of a node stands for it, so a newer claim of a live member's identity never displaces it;
 * but a suspicion or death of that channel while another channel of the node is in the view is
 * the left-over's, not the node's: the next channel stands for the node from then on and nothing is
 * reported. A suspicion of a channel that the view then drops, while the node stays in it through
 * another, is withdrawn ({@code unsuspected}).
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
  /** The channel that stands for each node of the current view: its oldest. */
  private Map<Address, UniqueAddress> current = new HashMap<>();
  /** Every channel of each node of the current view, oldest first (more than one: see above). */
  private Map<UniqueAddress, List<Address>> channels = Map.of();
  /** Channels of the current view found to be left-overs (see the class comment). */
  private final Set<Address> leftOvers = new HashSet<>();
  /** Nodes reported suspected, and the channel whose suspicion it was. */
  private final Map<UniqueAddress, Address> suspected = new HashMap<>();
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
    Map<UniqueAddress, List<Address>> byNode = new HashMap<>();
    for (Address a : raw) {
      Optional<EngineMember> m = MemberIdentity.decode(a);
      if (m.isEmpty()) {
        warnOnce(a, "carries no readable Troupe identity (not a Troupe node, or a malformed one)");
        continue;
      }
      List<Address> of = byNode.computeIfAbsent(m.get().node(), n -> new ArrayList<>(1));
      if (of.isEmpty()) {
        members.add(m.get()); // at the place of its oldest channel: the view's order is age
      } else {
        warnOnce(a, "is a second channel of " + m.get().node() + " (a join of that node that timed out may have"
            + " been let in all the same, or another process claims its identity); the older channel stands for it");
      }
      of.add(a);
    }
    leftOvers.retainAll(raw);
    for (Map.Entry<UniqueAddress, List<Address>> e : byNode.entrySet()) {
      List<Address> of = e.getValue();
      if (of.size() > 1) { // left-overs last: a channel found dead never stands for its node again
        of.sort(Comparator.comparing(leftOvers::contains));
      }
      byAddress.put(of.get(0), e.getKey());
    }
    Map<Address, UniqueAddress> previous = current;
    current = byAddress;
    channels = byNode;
    listener.viewChanged(new MembershipView(version, members, view instanceof MergeView));
    // a suspicion stands while its channel is in the view; a node still in it through another
    // channel is heard of no more as suspected, and one that left needs no word
    for (Iterator<Map.Entry<UniqueAddress, Address>> it = suspected.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<UniqueAddress, Address> s = it.next();
      if (!byAddress.containsKey(s.getValue())) {
        it.remove();
        if (byNode.containsKey(s.getKey())) {
          listener.unsuspected(s.getKey());
        }
      }
    }
    for (Map.Entry<Address, UniqueAddress> was : previous.entrySet()) {
      if (!byAddress.containsKey(was.getKey()) && !byNode.containsKey(was.getValue()) && closedRecently(was.getKey())) {
        reportDead(was.getValue());
      }
    }
    closedAt.keySet().retainAll(byAddress.keySet());
    dead.retainAll(byAddress.values());
  }

  /**
   * A channel that stands for its node was suspected or found dead: if another channel of the node
   * is in the view, the dead one was a left-over (see the class comment) and the next stands for
   * the node from now on.
   *
   * @return whether it was a left-over
   */
  private boolean leftOver(Address channel, UniqueAddress member) {
    List<Address> of = channels.get(member);
    if (of == null || of.size() < 2 || !of.get(0).equals(channel) || leftOvers.contains(of.get(1))) {
      return false;
    }
    of.remove(0);
    leftOvers.add(channel);
    current.remove(channel);
    current.put(of.get(0), member);
    closedAt.remove(channel);
    log.debug("{}: a left-over channel of {} was suspected; the node's next channel stands for it", node, member);
    return true;
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
      if (u == null || leftOver(a, u)) {
        continue;
      }
      if (closedRecently(a)) {
        reportDead(u);
      } else if (suspected.putIfAbsent(u, a) == null) {
        listener.suspected(u);
      }
    }
  }

  private void deliverUnsuspected(Address member) {
    UniqueAddress u = current.get(member);
    closedAt.remove(member); // it answers: whatever closed, it is alive
    if (u != null && suspected.remove(u, member)) {
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
