package dev.troupe.remote;

import dev.troupe.actor.Address;

/**
 * A link to another node was established (after its handshake), so messages to it flow.
 *
 * @param remote the other node's address
 */
public record AssociatedEvent(Address remote) implements RemotingLifecycleEvent {}
