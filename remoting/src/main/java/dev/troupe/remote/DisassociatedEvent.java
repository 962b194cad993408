package dev.troupe.remote;

import dev.troupe.actor.Address;

/**
 * The link to another node closed (it shut down, the connection failed, or it was closed after bad
 * input); a later message to that node associates again.
 *
 * @param remote the other node's address
 */
public record DisassociatedEvent(Address remote) implements RemotingLifecycleEvent {}
