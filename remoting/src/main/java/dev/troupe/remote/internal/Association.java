package dev.troupe.remote.internal;

import dev.troupe.actor.Address;
import dev.troupe.actor.EventStream;
import dev.troupe.remote.AssociatedEvent;
import dev.troupe.remote.DisassociatedEvent;

/**
 * Everything this node keeps about one other node: its two outbound lanes, and how many of the
 * connections between the two (both directions, both lanes) have completed their handshake. The
 * first one publishes {@link AssociatedEvent}, the last one to close {@link DisassociatedEvent}
 * (unless the failure detector published it already, see {@link #declareGone()}).
 */
final class Association {
  final Address remote;
  private final EventStream events;
  private final OutboundLane control;
  private final OutboundLane ordinary;
  private int connections; // guarded by this
  private long uid; // guarded by this; the peer's incarnation, 0 until a handshake told it
  private boolean down; // guarded by this; the failure detector gave up on the open connections
  private boolean goneDeclared; // guarded by this
  private long goneUid; // guarded by this

  Association(Address remote, NettyTransport transport, EventStream events) {
    this.remote = remote;
    this.events = events;
    this.control = new OutboundLane(this, Lane.CONTROL, transport);
    this.ordinary = new OutboundLane(this, Lane.ORDINARY, transport);
  }

  OutboundLane lane(Lane lane) {
    return lane == Lane.CONTROL ? control : ordinary;
  }

  /**
   * A connection with this node completed its handshake.
   *
   * @param peerUid the uid of the node's incarnation, as its handshake or acknowledgement said
   */
  void connectionUp(long peerUid) {
    synchronized (this) {
      uid = peerUid;
      if (connections++ == 0 || down) {
        down = false;
        events.publish(new AssociatedEvent(remote)); // under the lock: events keep their order
      }
    }
  }

  /** A connection with this node that had completed its handshake closed. */
  void connectionDown() {
    synchronized (this) {
      if (--connections == 0) {
        if (!down) {
          events.publish(new DisassociatedEvent(remote));
        }
        down = false;
      }
    }
  }

  /** @return whether some connection with this node is open (its handshake done) */
  boolean associated() {
    synchronized (this) {
      return connections > 0 && !down;
    }
  }

  /**
   * The node is gone (it said so, or the failure detector decided): publishes {@link
   * DisassociatedEvent} unless already published.
   *
   * @return true the first time for the node's current incarnation
   */
  boolean declareGone() {
    synchronized (this) {
      if (connections > 0 && !down) {
        down = true;
        events.publish(new DisassociatedEvent(remote));
      }
      if (goneDeclared && goneUid == uid) {
        return false;
      }
      goneDeclared = true;
      goneUid = uid;
      return true;
    }
  }

  @Override
  public String toString() {
    return "Association[" + remote + "]";
  }
}
