package dev.troupe.remote;

import dev.troupe.actor.Address;

/**
 * A change in the link to another node, published on the event stream; subscribe to this type
 * for all of them.
 */
public sealed interface RemotingLifecycleEvent permits AssociatedEvent, DisassociatedEvent, QuarantinedEvent {
  /** @return the other node's address */
  Address remote();
}
