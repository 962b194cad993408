/**
 * The cluster's membership policy as pure code (not exported): a state machine ({@link
 * dev.troupe.cluster.internal.membership.MembershipState}) that turns the engine's reports, the
 * cluster's commands and a clock into member statuses and {@link dev.troupe.cluster.ClusterEvent
 * events}, and the downing strategies ({@link
 * dev.troupe.cluster.internal.membership.DowningStrategy}) it asks. Nothing here does IO, starts a
 * thread or reads a clock: the wiring (the {@code Cluster} extension) feeds inputs one at a time and
 * acts on the outputs, and tests feed tables of views.
 *
 * <h2>Inputs</h2>
 *
 * <ul>
 *   <li>{@code onView}: the engine's view (members oldest first, increasing version). A view whose
 *       version is not above the last one is ignored.
 *   <li>{@code onSuspected} / {@code onUnsuspected}: the engine's failure detection about a member
 *       still in its view. Suspicions are one node's opinion; they make a member unreachable here and
 *       feed this node's downing, but never change a status or the leader.
 *   <li>{@code onConfirmedDead(member)}: the engine is sure the member's process is gone (its host
 *       closed the connection, and it does not answer), not merely silent. It may come before or
 *       after the view that drops the member.
 *   <li>{@code onLeaving(member)}: the member announced a graceful leave. For this node it is {@code
 *       Cluster.leave}; for another node, it is the announcement that node sends every member (over
 *       remoting) <em>before</em> its engine leaves.
 *   <li>{@code onLeftGroup}: this node's engine has left.
 *   <li>{@code onDown(member)}: {@code Cluster.down} here. {@code onDownedElsewhere(member)}: another
 *       node's down (by hand, by its downing decision or for a sure death) passed on by the wiring;
 *       a member still reachable here is {@code UnreachableMember} first, so that every node tells
 *       the same events whether its engine or the other node's down came first.
 *   <li>{@code onTick(now)}: the clock, every second or so.
 * </ul>
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li><b>Joining and up.</b> A member new in a view is {@code JOINING} ({@code MemberJoined}). When
 *       the view holds every member not removed and there are at least {@code min-nr-of-members} of
 *       them, every joining member becomes {@code UP} ({@code MemberUp}), oldest first. While a member
 *       is missing from the view (waiting for downing), nobody is promoted: new joiners on one side of
 *       a partition cannot become counted members and tip the decision.
 *   <li><b>Age.</b> Members are ordered by the order in which this node first saw them in a view;
 *       engines keep their admission order in every view, so every node orders the same members the
 *       same way.
 *   <li><b>Graceful leave vs. crash.</b> The engine only reports views, so a graceful leave is told
 *       apart by the announcement: a member dropped from a view after {@code onLeaving} (status
 *       {@code LEAVING}) exits: {@code MemberExited}, {@code MemberRemoved(previousStatus EXITING)}.
 *       A member dropped without it is <em>not</em> removed: it becomes unreachable ({@code
 *       UnreachableMember}) and stays a member until downing decides, then {@code MemberDowned},
 *       {@code MemberRemoved(previousStatus DOWN)}, however quickly the engine dropped it from the
 *       view: silence cannot tell a crash from a partition. An
 *       announcement that arrives after the view dropped the member (but before downing decided) still
 *       counts as a graceful leave (its events then follow the {@code UnreachableMember}); a node that
 *       never hears it sees a crash. So the leaving node's wiring sends the announcement to every
 *       member and waits (bounded) for their acknowledgements before its engine leaves.
 *   <li><b>Sure death.</b> A member the engine reports confirmed dead is the one exception: with
 *       downing on it is {@code UnreachableMember}, {@code MemberDowned}, {@code
 *       MemberRemoved(previousStatus DOWN)} at once, without waiting for {@code stable-after}; the
 *       wiring passes the down on to every member, as it does a downing decision, so every node
 *       removes it with the same events whichever heard the engine first. This is safe for the
 *       downing strategies: a dead member is on no side of a partition, so removing it from one
 *       side's count only lowers that side's share (keep-majority: if both sides stayed, each would
 *       hold at least half of a count that includes every live member, so both counted exactly the
 *       live members and the tie-breaker picked one; static-quorum's quorum does not depend on the
 *       count). A leaving member still exits; with downing {@code off} the report is a suspicion.
 *       Silence (a frozen process, a partition) never gives this report, so it still waits for
 *       {@code stable-after}.
 *   <li><b>A new incarnation.</b> A view that holds a new uid at the address of a member missing
 *       from it proves the old incarnation gone: it is unreachable, downed and removed at once.
 *   <li><b>Removed is forever.</b> Every removed incarnation (and every incarnation downed before
 *       this node saw it) is remembered (the last {@value
 *       dev.troupe.cluster.internal.membership.MembershipState#MAX_TOMBSTONES}) and ignored in later
 *       views, such as the healed view after a partition; {@code removedStillInView()} lists those a
 *       view still holds, so that the wiring tells each one it is down.
 *   <li><b>Leader.</b> The oldest member that is {@code UP} and in the engine's view ({@code
 *       LeaderChanged} when that changes). Suspicions are ignored, so every node with the same view
 *       names the same leader; a leaving member hands over at once.
 *   <li><b>This node goes</b> when it is downed (by hand, by a downing decision, or by a view that
 *       no longer holds it, or one that holds a newer incarnation at its address), and when a tick
 *       comes more than {@code stable-after} after the previous one: this node was paused long enough
 *       for the others to have downed it (a stopped process, a long GC), so it leaves no chance of
 *       living on as a second cluster. Its last events are its own {@code MemberDowned} and {@code
 *       MemberRemoved}; {@code isTerminated()} then tells the wiring to run coordinated shutdown,
 *       and later inputs are ignored.
 * </ul>
 *
 * <h2>Downing</h2>
 *
 * When some member is unreachable and the members, their statuses and reachability have not
 * changed for {@code stable-after}, the strategy decides on a {@link
 * dev.troupe.cluster.internal.membership.Partition}: the counted members (those {@code UP} or {@code
 * LEAVING}; every joining member while none is up yet) and which of them this node reaches. It
 * returns {@code DOWN_UNREACHABLE} (this side stays: the unreachable members, joining ones included,
 * are downed) or {@code DOWN_SELF_SIDE} (this side goes: every member this node reaches is downed,
 * itself included, oldest first, so every node of the side emits the same events). Each side decides
 * on its own from the same last stable member list, so the sides agree as long as the engine's views
 * on each side settle within {@code stable-after} of each other. The wiring passes the {@code
 * MemberDowned} events that {@code onTick} returns (this node's decisions) on to the other members,
 * as it does a {@code Cluster.down}: a member downed while only suspected here may look reachable
 * elsewhere. It accepts downs only from current members, since each names an incarnation to remember.
 *
 * <h2>Order</h2>
 *
 * Within one input, events come in this order: exits and removals of members gone from the view,
 * reachability changes, {@code MemberJoined} (in view order), {@code MemberUp} (oldest first),
 * {@code LeaderChanged}. The events depend only on the inputs, never on which node computes them or
 * on hash order: two nodes fed the same inputs emit the same events.
 */
package dev.troupe.cluster.internal.membership;
