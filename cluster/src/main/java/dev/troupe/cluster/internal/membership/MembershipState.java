package dev.troupe.cluster.internal.membership;

import dev.troupe.actor.Address;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.LeaderChanged;
import dev.troupe.cluster.ClusterEvent.MemberDowned;
import dev.troupe.cluster.ClusterEvent.MemberExited;
import dev.troupe.cluster.ClusterEvent.MemberJoined;
import dev.troupe.cluster.ClusterEvent.MemberLeft;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.ClusterEvent.MemberUp;
import dev.troupe.cluster.ClusterEvent.ReachableMember;
import dev.troupe.cluster.ClusterEvent.UnreachableMember;
import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One node's membership state machine: fed with the engine's reports, the cluster's commands and a
 * clock, it keeps the member list and yields the cluster events. See the package documentation for
 * the rules; every input returns the events it caused, in the order subscribers must hear them.
 *
 * <p>Not thread-safe: one owner (the wiring's actor) feeds it one input at a time. Times are {@link
 * System#nanoTime()}-style readings of one monotonic clock, passed in with each input.
 */
public final class MembershipState {
  /** Removed incarnations remembered at most; the oldest are forgotten first. */
  static final int MAX_TOMBSTONES = 10_000;

  private final UniqueAddress self;
  private final int minNrOfMembers;
  private final DowningStrategy strategy;
  private final long stableAfterNanos;
  private final boolean autoDowning;
  private final String strategyName;

  /** Members not yet removed (JOINING, UP, LEAVING), by incarnation. */
  private final Map<UniqueAddress, Member> members = new HashMap<>();
  /** Incarnations in the engine's latest view. */
  private final Set<UniqueAddress> inView = new HashSet<>();
  /** Members in the view that the engine suspects. */
  private final Set<UniqueAddress> suspected = new HashSet<>();
  /** Members subscribers were last told are unreachable. */
  private final Set<UniqueAddress> reportedUnreachable = new HashSet<>();
  /** Removed incarnations, oldest first: never members again. */
  private final LinkedHashSet<UniqueAddress> tombstones = new LinkedHashSet<>();
  private Set<UniqueAddress> removedInView = Set.of();

  private boolean sawView;
  private long lastVersion;
  private long nextUpNumber;
  private Optional<Address> leader = Optional.empty();
  private boolean terminated;
  private String selfDownReason;

  private Signature lastSignature;
  private boolean clockStarted;
  private long lastChangeAt;
  /**
   * Whether the pause clock runs: since the first input of any kind, so that a pause between this
   * node's first reports (its join) and its first tick is measured too.
   */
  private boolean ticked;
  /** The last tick, or the first input before any tick: only ticks move it afterwards. */
  private long lastTickAt;

  /**
   * @param self this node's incarnation
   * @param minNrOfMembers {@code troupe.cluster.min-nr-of-members}
   * @param downing {@code troupe.cluster.downing}
   */
  public MembershipState(UniqueAddress self, int minNrOfMembers, ClusterSettings.Downing downing) {
    this.self = Objects.requireNonNull(self, "self");
    if (minNrOfMembers < 1) {
      throw new IllegalArgumentException("min-nr-of-members must be at least 1, was " + minNrOfMembers);
    }
    this.minNrOfMembers = minNrOfMembers;
    this.strategy = DowningStrategy.of(downing);
    this.stableAfterNanos = downing.stableAfter().toNanos();
    this.autoDowning = downing.strategy() != ClusterSettings.Strategy.OFF;
    this.strategyName = downing.strategy().configName();
  }

  /**
   * @param self this node's incarnation
   * @param settings the cluster's settings
   * @return a state machine that has seen nothing yet
   */
  public static MembershipState create(UniqueAddress self, ClusterSettings settings) {
    return new MembershipState(self, settings.minNrOfMembers(), settings.downing());
  }

  // ---- inputs ----

  /**
   * The engine installed a view. A view whose version is not above the last one is ignored; removed
   * incarnations in it are ignored (see {@link #removedStillInView()}).
   */
  public List<ClusterEvent> onView(MembershipView view, long now) {
    if (terminated || (sawView && view.version() <= lastVersion)) {
      return List.of();
    }
    sawView = true;
    lastVersion = view.version();
    List<ClusterEvent> ev = new ArrayList<>();
    List<EngineMember> fresh = new ArrayList<>(view.members().size());
    Set<UniqueAddress> removed = new LinkedHashSet<>();
    Map<Address, UniqueAddress> byAddress = new HashMap<>();
    Set<UniqueAddress> nodes = new HashSet<>();
    for (EngineMember em : view.members()) {
      if (tombstones.contains(em.node())) {
        removed.add(em.node());
      } else if (nodes.add(em.node())) {
        fresh.add(em);
        byAddress.put(em.node().address(), em.node());
      }
    }
    removedInView = Set.copyOf(removed);
    if (!nodes.contains(self)) {
      if (members.containsKey(self)) {
        downSelf(ev, "the membership engine's view no longer holds this node");
      } // else not joined yet: the engine's first report holds this node
      return finish(ev, now);
    }
    // Members that left the view: a graceful leave exits, an incarnation replaced by a newer one at
    // its address is gone for sure, anything else becomes unreachable and waits for downing.
    for (Member m : sortedMembers()) {
      UniqueAddress ua = m.uniqueAddress();
      if (nodes.contains(ua)) {
        continue;
      }
      if (m.status() == MemberStatus.LEAVING) {
        exit(m, ev);
      } else if (byAddress.containsKey(m.address())) {
        if (ua.equals(self)) {
          downSelf(ev, "a newer incarnation of this node's address is in the membership engine's view");
          return finish(ev, now);
        }
        markUnreachable(m, ev);
        down(m, ev);
      }
    }
    inView.clear();
    inView.addAll(nodes);
    suspected.retainAll(nodes);
    reconcileReachability(ev);
    for (EngineMember em : fresh) {
      if (!members.containsKey(em.node())) {
        Member m = new Member(em.node(), MemberStatus.JOINING, em.roles(), nextUpNumber++);
        members.put(m.uniqueAddress(), m);
        ev.add(new MemberJoined(m));
      }
    }
    return finish(ev, now);
  }

  /** The engine suspects a member of its view: it becomes unreachable (as this node sees it). */
  public List<ClusterEvent> onSuspected(UniqueAddress member, long now) {
    if (terminated || member.equals(self) || !members.containsKey(member) || !inView.contains(member)
        || !suspected.add(member)) {
      return List.of();
    }
    return finish(new ArrayList<>(), now);
  }

  /** A suspected member answers again: reachable again unless the view lacks it. */
  public List<ClusterEvent> onUnsuspected(UniqueAddress member, long now) {
    if (terminated || !suspected.remove(member)) {
      return List.of();
    }
    return finish(new ArrayList<>(), now);
  }

  /**
   * The engine is sure that a member's process is gone, not merely silent (see {@link
   * dev.troupe.cluster.spi.MembershipListener#confirmedDead}): with downing on, it is unreachable,
   * downed and removed at once ({@code UnreachableMember}, {@code MemberDowned}, {@code
   * MemberRemoved(previousStatus DOWN)}), without waiting for {@code stable-after}, whether or not the
   * view still holds it. Removing a dead member never lets a side of a partition stay that would not
   * have stayed otherwise: it takes one member off the count and off this side alike. A leaving
   * member is left to exit when the view drops it; with downing {@code off} the report is a plain
   * suspicion (the member stays, unreachable, until downed by hand); reports about this node, a
   * stranger or a removed incarnation are ignored.
   */
  public List<ClusterEvent> onConfirmedDead(UniqueAddress member, long now) {
    Member m = members.get(member);
    if (terminated || member.equals(self) || m == null || m.status() == MemberStatus.LEAVING) {
      return List.of();
    }
    if (!autoDowning) {
      return inView.contains(member) ? onSuspected(member, now) : List.of();
    }
    List<ClusterEvent> ev = new ArrayList<>();
    markUnreachable(m, ev);
    down(m, ev);
    return finish(ev, now);
  }

  /**
   * A member announced that it leaves (this node itself, by {@code Cluster.leave}, or another one,
   * by the message the leaving node sends every member before its engine leaves): {@code
   * MemberLeft}. When the engine's view has already dropped it, it exits at once.
   */
  public List<ClusterEvent> onLeaving(UniqueAddress member, long now) {
    Member m = members.get(member);
    if (terminated || m == null || m.status() == MemberStatus.LEAVING) {
      return List.of();
    }
    List<ClusterEvent> ev = new ArrayList<>();
    Member leaving = m.withStatus(MemberStatus.LEAVING);
    members.put(member, leaving);
    ev.add(new MemberLeft(leaving));
    if (!inView.contains(member) && !member.equals(self)) {
      exit(leaving, ev);
    }
    return finish(ev, now);
  }

  /**
   * A member is downed: by hand ({@code Cluster.down}, here or on another node) or by another node's
   * downing decision. It is removed at once and its incarnation never comes back; an incarnation this
   * node has not seen yet is remembered so that it never comes in. Downing this node shuts it down.
   */
  public List<ClusterEvent> onDown(UniqueAddress member, long now) {
    if (terminated) {
      return List.of();
    }
    Member m = members.get(member);
    if (m == null && !member.equals(self)) {
      tombstone(member);
      return List.of();
    }
    List<ClusterEvent> ev = new ArrayList<>();
    if (member.equals(self)) {
      downSelf(ev, "downed by command");
    } else {
      down(m, ev);
    }
    return finish(ev, now);
  }

  /**
   * Another member downed this member (by its downing decision, a death its engine was sure of, or
   * by hand) and passed the down on. As {@link #onDown}, but a member this node still reaches is
   * first {@code UnreachableMember}: the down says it is gone, so every node tells {@code
   * UnreachableMember}, {@code MemberDowned}, {@code MemberRemoved} whether its own engine noticed
   * first or the down came first.
   */
  public List<ClusterEvent> onDownedElsewhere(UniqueAddress member, long now) {
    Member m = members.get(member);
    if (terminated || m == null || member.equals(self)) {
      return onDown(member, now);
    }
    List<ClusterEvent> ev = new ArrayList<>();
    markUnreachable(m, ev);
    down(m, ev);
    return finish(ev, now);
  }

  /** This node's engine has left the group after this node announced its leave: it exits and is removed. */
  public List<ClusterEvent> onLeftGroup(long now) {
    Member m = members.get(self);
    if (terminated || m == null) {
      terminated = true;
      return List.of();
    }
    List<ClusterEvent> ev = new ArrayList<>();
    if (m.status() != MemberStatus.LEAVING) {
      m = m.withStatus(MemberStatus.LEAVING);
      members.put(self, m);
      ev.add(new MemberLeft(m));
    }
    exit(m, ev);
    return finish(ev, now);
  }

  /**
   * The clock: downing decides when members and reachability have been unchanged for {@code
   * stable-after}; a gap since the previous tick (before the first tick: since the first input)
   * longer than {@code stable-after} means this node was paused (stopped, starved) long enough for
   * the others to have downed it, and it downs itself.
   * The wiring ticks often (every second or so) for both to work.
   */
  public List<ClusterEvent> onTick(long now) {
    if (terminated) {
      return List.of();
    }
    List<ClusterEvent> ev = new ArrayList<>();
    boolean paused = ticked && now - lastTickAt > stableAfterNanos;
    long gap = now - lastTickAt;
    ticked = true;
    lastTickAt = now;
    if (paused && autoDowning && members.containsKey(self)) {
      downSelf(ev, "this node was paused for " + Duration.ofNanos(gap).toMillis() + " ms, longer than "
          + "troupe.cluster.downing.stable-after: the others may have downed it");
      return finish(ev, now);
    }
    if (autoDowning && clockStarted && now - lastChangeAt >= stableAfterNanos) {
      decide(ev);
    }
    return finish(ev, now);
  }

  // ---- queries ----

  /** @return the cluster as this node sees it */
  public CurrentClusterState state() {
    List<Member> all = sortedMembers();
    Set<Member> unreachable = new HashSet<>();
    for (Member m : all) {
      if (reportedUnreachable.contains(m.uniqueAddress())) {
        unreachable.add(m);
      }
    }
    return new CurrentClusterState(all, unreachable, leader);
  }

  /** @return the members not removed, oldest first */
  public List<Member> members() {
    return sortedMembers();
  }

  /** @return this node as a member, empty before its first view and after it is removed */
  public Optional<Member> selfMember() {
    return Optional.ofNullable(members.get(self));
  }

  /** @return the leader: the oldest member that is UP and in the engine's view */
  public Optional<Address> leader() {
    return leader;
  }

  /**
   * @return whether this node is out (it left, or was downed): the wiring runs coordinated shutdown;
   *     later inputs are ignored
   */
  public boolean isTerminated() {
    return terminated;
  }

  /** @return why this node downed itself, empty when it did not */
  public Optional<String> selfDownReason() {
    return Optional.ofNullable(selfDownReason);
  }

  /**
   * @return removed incarnations that the engine's latest view still holds (e.g. after a healed
   *     partition, or a member downed while only suspected): the wiring tells each that it is down
   */
  public Set<UniqueAddress> removedStillInView() {
    return removedInView;
  }

  /** @return whether the incarnation was removed (and so is ignored in views) */
  public boolean isRemoved(UniqueAddress member) {
    return tombstones.contains(member);
  }

  // ---- rules ----

  private void decide(List<ClusterEvent> ev) {
    if (!members.containsKey(self)) {
      return;
    }
    List<Member> live = sortedMembers();
    List<Member> unreachable = new ArrayList<>();
    List<Member> reachable = new ArrayList<>();
    for (Member m : live) {
      (isUnreachable(m.uniqueAddress()) ? unreachable : reachable).add(m);
    }
    if (unreachable.isEmpty()) {
      return;
    }
    List<Member> counted = new ArrayList<>();
    for (Member m : live) {
      if (m.status() == MemberStatus.UP || m.status() == MemberStatus.LEAVING) {
        counted.add(m);
      }
    }
    if (counted.isEmpty()) {
      counted = live; // the cluster has not formed yet: every joining member counts
    }
    Set<UniqueAddress> side = new HashSet<>();
    for (Member m : counted) {
      if (!isUnreachable(m.uniqueAddress())) {
        side.add(m.uniqueAddress());
      }
    }
    switch (strategy.decide(Partition.of(counted, side))) {
      case DOWN_UNREACHABLE -> unreachable.forEach(m -> down(m, ev));
      case DOWN_SELF_SIDE -> {
        selfDownReason = "downing (" + strategyName + ") decided that this node's side of the partition goes: "
            + reachable.size() + " reachable, " + unreachable.size() + " unreachable";
        reachable.forEach(m -> down(m, ev));
      }
      case NOTHING -> { }
    }
  }

  private boolean isUnreachable(UniqueAddress ua) {
    return !inView.contains(ua) || suspected.contains(ua);
  }

  private void reconcileReachability(List<ClusterEvent> ev) {
    for (Member m : sortedMembers()) {
      UniqueAddress ua = m.uniqueAddress();
      boolean unreachable = isUnreachable(ua);
      if (unreachable && reportedUnreachable.add(ua)) {
        ev.add(new UnreachableMember(m));
      } else if (!unreachable && reportedUnreachable.remove(ua)) {
        ev.add(new ReachableMember(m));
      }
    }
  }

  private void markUnreachable(Member m, List<ClusterEvent> ev) {
    if (reportedUnreachable.add(m.uniqueAddress())) {
      ev.add(new UnreachableMember(m));
    }
  }

  /** Joining members become UP once the view holds every member and at least min-nr-of-members. */
  private void promote(List<ClusterEvent> ev) {
    if (members.size() < minNrOfMembers || !inView.containsAll(members.keySet())) {
      return;
    }
    for (Member m : sortedMembers()) {
      if (m.status() == MemberStatus.JOINING) {
        Member up = m.withStatus(MemberStatus.UP);
        members.put(up.uniqueAddress(), up);
        ev.add(new MemberUp(up));
      }
    }
  }

  private void updateLeader(List<ClusterEvent> ev) {
    Optional<Address> now = Optional.empty();
    for (Member m : sortedMembers()) {
      if (m.status() == MemberStatus.UP && inView.contains(m.uniqueAddress())) {
        now = Optional.of(m.address());
        break;
      }
    }
    if (!now.equals(leader)) {
      leader = now;
      ev.add(new LeaderChanged(now));
    }
  }

  private void down(Member m, List<ClusterEvent> ev) {
    Member downed = m.withStatus(MemberStatus.DOWN);
    ev.add(new MemberDowned(downed));
    remove(downed, ev);
  }

  private void exit(Member m, List<ClusterEvent> ev) {
    Member exiting = m.withStatus(MemberStatus.EXITING);
    ev.add(new MemberExited(exiting));
    remove(exiting, ev);
  }

  private void remove(Member m, List<ClusterEvent> ev) {
    UniqueAddress ua = m.uniqueAddress();
    members.remove(ua);
    suspected.remove(ua);
    reportedUnreachable.remove(ua);
    tombstone(ua);
    ev.add(new MemberRemoved(m.withStatus(MemberStatus.REMOVED), m.status()));
    if (ua.equals(self)) {
      terminated = true;
    }
  }

  private void downSelf(List<ClusterEvent> ev, String reason) {
    selfDownReason = reason;
    Member m = members.get(self);
    if (m != null) {
      down(m, ev);
    }
    terminated = true;
  }

  private void tombstone(UniqueAddress ua) {
    tombstones.remove(ua);
    tombstones.add(ua);
    if (tombstones.size() > MAX_TOMBSTONES) {
      Iterator<UniqueAddress> oldest = tombstones.iterator();
      oldest.next();
      oldest.remove();
    }
  }

  /** After any input: the pause clock, reachability, promotion, leader, and the stability clock. */
  private List<ClusterEvent> finish(List<ClusterEvent> ev, long now) {
    if (!ticked) {
      // a node can join and be frozen before its first tick: the pause clock starts at its first
      // input, else the first tick after a resume would only start it and the pause go unnoticed
      ticked = true;
      lastTickAt = now;
    }
    if (!terminated) {
      reconcileReachability(ev);
      promote(ev);
      updateLeader(ev);
    }
    Signature sig = signature();
    if (!clockStarted || !sig.equals(lastSignature)) {
      clockStarted = true;
      lastSignature = sig;
      lastChangeAt = now;
    }
    return ev;
  }

  private Signature signature() {
    Map<UniqueAddress, MemberStatus> statuses = new HashMap<>();
    members.values().forEach(m -> statuses.put(m.uniqueAddress(), m.status()));
    return new Signature(statuses, Set.copyOf(reportedUnreachable));
  }

  private List<Member> sortedMembers() {
    return members.values().stream().sorted(Member.ageOrdering()).toList();
  }

  /** What must stay unchanged for stable-after before downing decides. */
  private record Signature(Map<UniqueAddress, MemberStatus> statuses, Set<UniqueAddress> unreachable) {}
}
