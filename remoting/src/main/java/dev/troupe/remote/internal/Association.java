package dev.troupe.remote.internal;

import dev.troupe.actor.Address;
import dev.troupe.actor.EventStream;
import dev.troupe.remote.AssociatedEvent;
import dev.troupe.remote.DisassociatedEvent;

/**
 * Everything this node keeps about one other node: its two outbound lanes, and how many of the
 * connections between the two (both directions, both lanes) have completed their handshake. The
 * first one publishes {@link AssociatedEvent}, the last one to close {@link DisassociatedEvent}.
 */
final class Association {
  final Address remote;
  private final EventStream events;
  private final OutboundLane control;
  private final OutboundLane ordinary;
  private int connections; // guarded by this

  Association(Address remote, NettyTransport transport, EventStream events) {
    this.remote = remote;
    this.events = events;
    this.control = new OutboundLane(this, Lane.CONTROL, transport);
    this.ordinary = new OutboundLane(this, Lane.ORDINARY, transport);
  }

  OutboundLane lane(Lane lane) {
    return lane == Lane.CONTROL ? control : ordinary;
  }

  /** A connection with this node completed its handshake. */
  void connectionUp() {
    synchronized (this) {
      if (connections++ == 0) {
        events.publish(new AssociatedEvent(remote)); // under the lock: events keep their order
      }
    }
  }

  /** A connection with this node that had completed its handshake closed. */
  void connectionDown() {
    synchronized (this) {
      if (--connections == 0) {
        events.publish(new DisassociatedEvent(remote));
      }
    }
  }

  @Override
  public String toString() {
    return "Association[" + remote + "]";
  }
}
