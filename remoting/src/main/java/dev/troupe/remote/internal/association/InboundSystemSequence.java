package dev.troupe.remote.internal.association;

/**
 * The receiving half of exactly-once delivery of system messages from one peer (see {@link
 * SystemMessageOutbox} for the sending half): delivers a message only if its number is the next
 * one expected from the sender's incarnation, and answers with the last number delivered, which
 * the sender takes as a cumulative acknowledgement. A resent message that had arrived is not
 * delivered again; one after a gap waits for the sender to resend the gap.
 *
 * <p>Numbers are per incarnation of the sender (its uid): a new uid starts again at 1, and the
 * incarnation it replaces is retired, so that a late frame of a dead incarnation (from a
 * connection not yet closed) can never switch back to it and make the new incarnation's messages
 * count as undelivered. The retired incarnations are the last {@value RecentUids#CAPACITY}
 * ({@link RecentUids}), so a peer that claims a new uid per connection costs no memory.
 *
 * <p>Only the accepted control connection that holds the peer's current incarnation feeds it
 * ({@link Association#ownsControl}): a second connection claiming the same node cannot number
 * messages ahead and so make the real ones count as duplicates. Any thread (each accepted
 * connection reads on an event loop); one lock.
 */
public final class InboundSystemSequence {
  private long uid; // guarded by this
  private long delivered; // guarded by this
  private final RecentUids retired = new RecentUids(); // guarded by this
  private long duplicates; // guarded by this
  private long deliveries; // guarded by this

  /**
   * A system message numbered {@code seq} arrived from incarnation {@code originUid}: runs {@code
   * deliver} if it is the next one expected, else ignores it.
   *
   * @return the last number delivered from that incarnation, to acknowledge; -1 when the message
   *     came from a retired incarnation (nothing is delivered or acknowledged)
   */
  public synchronized long receive(long originUid, long seq, Runnable deliver) {
    if (originUid != uid) {
      if (retired.contains(originUid)) {
        return -1;
      }
      if (uid != 0) {
        retired.add(uid);
      }
      uid = originUid;
      delivered = 0;
    }
    if (seq == delivered + 1) {
      delivered = seq; // counted even when delivery fails: that message is dropped, not retried
      deliveries++;
      deliver.run();
    } else if (seq <= delivered) {
      duplicates++;
    }
    return delivered;
  }

  /** @return the last number delivered from incarnation {@code originUid} (0 when it is not the current one) */
  synchronized long delivered(long originUid) {
    return originUid == uid ? delivered : 0;
  }

  /** @return how many retired incarnations are remembered, for tests and diagnostics */
  public synchronized int retiredCount() {
    return retired.size();
  }

  /**
   * Where the sequence stands, kept when an idle association is removed.
   *
   * @param uid the sender's incarnation, 0 if none yet
   * @param delivered the last number delivered from it
   * @param retired the incarnations it replaced
   */
  public record State(long uid, long delivered, long[] retired) {}

  synchronized State state() {
    return new State(uid, delivered, retired.toArray());
  }

  /** Goes on from {@code s} (a fresh sequence of a new association for the same peer). */
  synchronized void restore(State s) {
    uid = s.uid();
    delivered = s.delivered();
    retired.addAll(s.retired());
  }

  /** @return system messages delivered (all incarnations), for tests and diagnostics */
  public synchronized long deliveries() {
    return deliveries;
  }

  /** @return resent messages that arrived again and were not delivered twice, for tests and diagnostics */
  public synchronized long duplicates() {
    return duplicates;
  }
}
