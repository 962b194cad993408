package dev.troupe.cluster.internal.jgroups;

import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
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
 * <p>It holds back one thing: a confirmed suspicion of a member that was heard while it was being
 * verified ({@link HeardHeartbeats}: a heartbeat or any message within the verification's time, or
 * one heartbeat interval before it).
 * VERIFY_SUSPECT confirms a suspicion unless the one reply to its probe comes back in time, and a
 * member that is alive but busy (a loaded machine) may answer late while its heartbeats go on; GMS
 * would then install a view without it at once. {@link HeardVerifySuspect} ends such a verification
 * when FD_ALL3 itself had suspected the member and hears it again; a suspicion that came from FD_SOCK2
 * (a connection to a new neighbour that took too long, a broadcast from another member) gets no such
 * word from FD_ALL3, so it is held back here: neither GMS nor the engine hears of the member, which
 * was heard. A member that is really gone, or cut off, sends nothing and is heard by no one.
 *
 * <p>Otherwise it only observes: every other event goes on up unchanged, and {@link Sink} must
 * return at once (it runs on JGroups' threads). It adds no header and sends nothing.
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
  /** Members heard within the verification's time; set by the stack before the channel starts. */
  private volatile Predicate<Address> heardLately = m -> false;

  SuspicionTap(Sink sink) {
    this.sink = sink;
  }

  /**
   * Holds back, from now on, the suspicions of the members {@code heardLately} accepts.
   *
   * @param heardLately whether a member was heard while it was being verified
   */
  void holdBack(Predicate<Address> heardLately) {
    this.heardLately = heardLately;
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
        List<Address> all =
            arg instanceof Address one ? List.of(one)
                : arg instanceof Collection<?> many ? many.stream().filter(Address.class::isInstance).map(Address.class::cast).toList()
                : List.of();
        Predicate<Address> heard = heardLately;
        List<Address> silent = all.stream().filter(heard.negate()).toList();
        if (silent.size() < all.size()) {
          log.debug("%s: holding back the suspicion of %s, heard while being verified", local_addr,
              all.stream().filter(heard).toList());
          if (silent.isEmpty()) {
            return null;
          }
          evt = new Event(Event.SUSPECT, silent);
        }
        sink.suspected(silent);
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
