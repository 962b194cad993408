package dev.troupe.cluster.internal.jgroups;

import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.VERIFY_SUSPECT;

/**
 * JGroups' VERIFY_SUSPECT, unchanged on the wire, that takes <em>any</em> sign of life from a member
 * it is verifying as the answer, not only the reply to its own probe.
 *
 * <p>Why: VERIFY_SUSPECT asks a suspected member "are you dead?" and confirms the suspicion unless
 * that one reply comes back within its timeout. The failure detector below it (FD_ALL3) meanwhile
 * goes on hearing the member: its next heartbeat, or any other message, makes FD_ALL3 send an
 * {@code UNSUSPECT} up the stack. Plain VERIFY_SUSPECT lets that event pass and keeps its pending
 * verification, so a member whose heartbeats came back but whose one reply was late (both nodes
 * busy on a loaded machine, the reply queued behind the sender's other messages) is still
 * confirmed dead, and the coordinator installs a view without it: a live member of this node's own
 * side of a partition becomes unreachable, and downing may then take the whole side for a
 * minority. {@code acceptable-heartbeat-pause} promises that a member is suspected only after that
 * long a silence; hearing it during the verification is the end of the silence.
 *
 * <p>Here an {@code UNSUSPECT} coming up from below ends the pending verification of that member
 * (it is passed on up unchanged, as before). A member that is really gone sends nothing, so nothing
 * ends its verification: it is confirmed at the timeout as before. Messages from a member that a
 * partition test's {@code DISCARD} drops never reach FD_ALL3, so they end nothing either.
 *
 * <p>It takes the protocol id of VERIFY_SUSPECT, so its headers are VERIFY_SUSPECT's and it
 * interoperates with a plain VERIFY_SUSPECT.
 */
final class HeardVerifySuspect extends VERIFY_SUSPECT {
  HeardVerifySuspect() {
    setId(ClassConfigurator.getProtocolId(VERIFY_SUSPECT.class));
  }

  @Override
  public Object up(Event evt) {
    if (evt.getType() == Event.UNSUSPECT && evt.getArg() instanceof Address member && removeSuspect(member)) {
      log.debug("%s: heard %s during its verification; the suspicion is dropped", local_addr, member);
    }
    return super.up(evt);
  }
}
