/**
 * The cluster's wiring (not exported, but for its serializer to remoting): {@code
 * troupe.actor.provider = cluster} ({@link dev.troupe.cluster.internal.core.ClusterProviderFactory},
 * which wraps remoting's provider), the {@link dev.troupe.cluster.Cluster} extension, and the core
 * actor at {@code /cluster/core} on every node that feeds the membership state machine ({@code
 * dev.troupe.cluster.internal.membership}) and acts on its events: publishing to subscribers,
 * passing downs and leave announcements to the other members' cores, address-terminating removed
 * members in remoting, and running coordinated shutdown when this node is out.
 *
 * <p>Between nodes the cores exchange {@link dev.troupe.cluster.internal.core.CoreMessage}s over
 * remoting (serializer {@code troupe-cluster}, identifier 30): engine endpoints for joining through
 * the seeds, leave announcements and their acknowledgements, downs, and leave requests.
 */
package dev.troupe.cluster.internal.core;
