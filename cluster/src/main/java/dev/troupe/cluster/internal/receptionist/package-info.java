/**
 * The typed receptionist across the cluster: one directory actor per node ({@link
 * dev.troupe.cluster.internal.receptionist.DirectoryActor}) keeps its node's service instances and
 * the other members', and exchanges them with the other members' directories ({@link
 * dev.troupe.cluster.internal.receptionist.Protocol}); the typed module's receptionist reaches it
 * through {@link dev.troupe.actor.spi.ServiceDirectory}.
 */
package dev.troupe.cluster.internal.receptionist;
