package dev.troupe.remote;

import dev.troupe.actor.Address;

/**
 * An incarnation of another node was quarantined: a system message to it could not be delivered
 * exactly once, so nothing more is exchanged with that incarnation and watchers of its actors got
 * {@code Terminated}. A restarted node (a new uid at the same address) associates at once.
 *
 * @param remote the other node's address
 * @param uid the quarantined incarnation's uid
 */
public record QuarantinedEvent(Address remote, long uid) implements RemotingLifecycleEvent {}
