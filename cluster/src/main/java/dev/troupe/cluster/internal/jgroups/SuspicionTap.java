package dev.troupe.cluster.internal.jgroups;

import java.util.Collection;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.stack.Protocol;

/**
 * A protocol of Troupe's own, placed directly below GMS, that lets the engine hear JGroups'
 * suspicions: JGroups has no application callback for them, and GMS consumes the UNSUSPECT event,
 * so the engine listens where both pass.
 *
 * <p>What passes here: a SUSPECT once VERIFY_SUSPECT has confirmed a failure detector's suspicion
 * (FD_SOCK2 saw the member's socket close, or FD_ALL3 missed its heartbeats, and the member did not
 * answer VERIFY_SUSPECT's own probe in time), and an UNSUSPECT when FD_ALL3 hears from a member
 * it had suspected. GMS acts on a SUSPECT at once (the coordinator installs a view without the
 * member), so a suspicion is usually followed within milliseconds by the view that drops it.
 *
 * <p>It also passes on what {@link ClosedSocketDetector}, lower in the stack, saw: a closed
 * connection to the member this node's FD_SOCK2 watches.
 *
 * <p>It only observes: every event goes on up unchanged, and {@link Sink} must return at once (it
 * runs on JGroups' threads). It adds no header and sends nothing.
 */
final class SuspicionTap extends Protocol {
  /** Where the tap reports; called on JGroups' threads, must not block. */
  interface Sink {
    void suspected(List<Address> members);

    void unsuspected(Address member);

    /** The connection to this member, which this node's FD_SOCK2 watched, was closed by the other end. */
    default void socketClosed(Address member) {}
  }

  private final Sink sink;

  SuspicionTap(Sink sink) {
    this.sink = sink;
  }

  /** Called by {@link ClosedSocketDetector} (below in the stack) on its own thread. */
  void socketClosed(Address member) {
    sink.socketClosed(member);
  }

  @Override
  public Object up(Event evt) {
    switch (evt.getType()) {
      case Event.SUSPECT -> {
        Object arg = evt.getArg();
        if (arg instanceof Address one) {
          sink.suspected(List.of(one));
        } else if (arg instanceof Collection<?> many) {
          sink.suspected(many.stream().filter(Address.class::isInstance).map(Address.class::cast).toList());
        }
      }
      case Event.UNSUSPECT -> {
        if (evt.getArg() instanceof Address one) {
          sink.unsuspected(one);
        }
      }
      default -> {}
    }
    return up_prot.up(evt);
  }
}
