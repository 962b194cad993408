/**
 * Cluster singletons: one actor in the cluster, on the oldest {@code Up} member with a role,
 * handed over when that member goes. {@link dev.troupe.cluster.singleton.ClusterSingletonManager}
 * runs it, {@link dev.troupe.cluster.singleton.ClusterSingletonProxy} reaches it; their settings come
 * from {@code troupe.cluster.singleton}.
 *
 * <h2>What the cluster wiring must provide</h2>
 *
 * The managers and proxies work over an abstract membership ({@code
 * dev.troupe.cluster.internal.singleton.SingletonMembership}), which the {@code Cluster} extension
 * installs per actor system when the cluster starts ({@code SingletonHooks.install}):
 *
 * <ul>
 *   <li><b>Membership</b>: {@code subscribe(ref)} = {@code Cluster.subscribe(ref,
 *       initialStateAsSnapshot(), MemberEvent.class)}: the current members as one {@code
 *       CurrentClusterState}, then every {@code MemberEvent} in the agreed order; {@code
 *       selfNode()} = this node's {@code UniqueAddress}.
 *   <li><b>Graceful leave waits for the hand-over</b>: a leaving member stays {@code LEAVING} (in
 *       the engine's view) until each of its managers has no instance left and has told the new
 *       owner (the cluster asks its managers before the engine leaves; on {@code terminate()} in the
 *       coordinated-shutdown phase {@code cluster-sharding-shutdown-region}, bounded by {@code
 *       troupe.cluster.sharding.hand-over-timeout}); a member that exits earlier makes the new owner
 *       wait for its removal instead.
 *   <li><b>Crash</b>: the new owner starts only when the crashed member is {@code REMOVED}; downing
 *       is what bounds that wait.
 *   <li><b>Addressing</b>: {@code locate(node, path)} = {@code path} with {@code node}'s address
 *       (every node names its managers alike); the protocol's messages ({@code
 *       ...internal.singleton.Protocol.Message}) need a serializer binding; the proxy relies on
 *       remoting keeping one sender's messages to one node in order (its messages to the instance
 *       before its {@code ProxyStopped} to the manager) for the zero-loss hand-over.
 *   <li><b>Removed nodes</b>: watchers of a removed member's actors get {@code Terminated} (the
 *       proxy drops an instance on a down or removed member anyway).
 * </ul>
 */
package dev.troupe.cluster.singleton;
