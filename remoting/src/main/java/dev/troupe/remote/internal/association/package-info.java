/**
 * Associations: what this node keeps about each other node (its incarnation, quarantine, the two
 * outbound lanes with their queues, exactly-once system messages both ways) and the {@link
 * dev.troupe.remote.internal.association.RemoteActorRef} that sends through them: a remote {@code
 * tell} goes from the ref to its association's lane and on to the transport. Above the transport,
 * below everything else.
 */
package dev.troupe.remote.internal.association;
