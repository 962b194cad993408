package dev.troupe.remote.internal.association;

import dev.troupe.remote.internal.transport.OutboundEnvelope;
import dev.troupe.remote.internal.transport.SequencedEnvelope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sending half of exactly-once delivery of system messages to one peer: every system message
 * (watch, unwatch, death notice, stop, and whatever else takes the control lane) gets the next
 * sequence number and stays here until the peer acknowledges it. Acknowledgements are cumulative
 * ("all up to n delivered"), so the buffer is a plain FIFO: an ack pops its head.
 *
 * <p>The control lane's drain writes from the first unwritten entry ({@link #nextToWrite}); a new
 * connection, or the resend timer of the association, {@link #rewind rewinds} to the oldest
 * unacknowledged entry, so whatever a broken connection swallowed goes again. The receiver
 * delivers only the next number it expects and acknowledges the last one it delivered, so a resent
 * duplicate is recognised and dropped there: each message takes effect once, in order.
 *
 * <p>A sequence belongs to one incarnation of the peer (its uid, learned from the handshake): when
 * the peer turns out to have restarted, {@link #reset} throws the old sequence away (its actors are
 * gone; their watchers hear through death watch) and numbering starts again at 1.
 *
 * <p>Senders append from any thread; the drain, acks and resends run on the control lane's event
 * loop. All under this object's lock: system messages are rare next to user messages, and every
 * operation is a few field updates. The entries sit in a ring that grows by doubling up to the
 * capacity, so finding the next one to write is an index, also when thousands wait.
 */
public final class SystemMessageOutbox {
  private final int capacity;
  // guarded by this: the unacknowledged entries, oldest at ring[head], numbered consecutively
  private SequencedEnvelope[] ring = new SequencedEnvelope[16];
  private int head;
  private int size;
  private long nextSeq = 1; // guarded by this
  private long nextToWrite = 1; // guarded by this: the seq the drain writes next
  private long acknowledged; // guarded by this: ever, for tests and diagnostics
  private long oldestSinceNanos; // guarded by this: when the current head of unacked was first written or became head

  /** @param capacity system messages that may wait for an acknowledgement at most */
  SystemMessageOutbox(int capacity) {
    this.capacity = capacity;
  }

  /**
   * Appends a system message.
   *
   * @return false if {@code capacity} messages are already waiting for acknowledgement: the buffer overflowed,
   *     the caller quarantines the peer
   */
  synchronized boolean offer(OutboundEnvelope e, long nowNanos) {
    if (size >= capacity) {
      return false;
    }
    if (size == 0) {
      oldestSinceNanos = nowNanos;
    }
    if (size == ring.length) {
      SequencedEnvelope[] bigger = new SequencedEnvelope[ring.length * 2];
      for (int i = 0; i < size; i++) {
        bigger[i] = ring[(head + i) & (ring.length - 1)];
      }
      ring = bigger;
      head = 0;
    }
    ring[(head + size++) & (ring.length - 1)] = new SequencedEnvelope(nextSeq++, e);
    return true;
  }

  /** @return the next entry the drain should write, or null when all were written; advances */
  synchronized SequencedEnvelope nextToWrite() {
    if (size == 0) {
      return null;
    }
    long first = ring[head].seq();
    if (nextToWrite < first) {
      nextToWrite = first;
    }
    long index = nextToWrite - first;
    if (index >= size) {
      return null;
    }
    nextToWrite++;
    return ring[(head + (int) index) & (ring.length - 1)];
  }

  /** @return whether some entry has not been written on the current connection */
  public synchronized boolean hasUnwritten() {
    return size > 0 && nextToWrite < nextSeq;
  }

  /** The next drain writes everything not yet acknowledged again (a new connection, or a resend). */
  synchronized void rewind() {
    nextToWrite = size == 0 ? nextSeq : ring[head].seq();
  }

  /**
   * The peer delivered every message up to {@code upTo}.
   *
   * @return how many entries this released
   */
  synchronized int acked(long upTo, long nowNanos) {
    int n = 0;
    while (size > 0 && ring[head].seq() <= upTo) {
      ring[head] = null;
      head = (head + 1) & (ring.length - 1);
      size--;
      n++;
    }
    if (n > 0) {
      oldestSinceNanos = nowNanos;
      acknowledged += n;
    }
    return n;
  }

  /** @return how long the oldest unacknowledged message has waited (0 when none waits) */
  synchronized long oldestWaitNanos(long nowNanos) {
    return size == 0 ? 0 : nowNanos - oldestSinceNanos;
  }

  /** @return whether some message waits for an acknowledgement */
  synchronized boolean waiting() {
    return size > 0;
  }

  /**
   * Throws the sequence away and starts a new one at 1 (the peer restarted, or its incarnation was
   * quarantined).
   *
   * @return the messages that were never acknowledged
   */
  synchronized List<OutboundEnvelope> reset() {
    List<OutboundEnvelope> lost = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      lost.add(ring[(head + i) & (ring.length - 1)].envelope());
    }
    Arrays.fill(ring, null);
    head = 0;
    size = 0;
    nextSeq = 1;
    nextToWrite = 1;
    return lost;
  }

  /** @return the number the next message gets */
  synchronized long nextSeq() {
    return nextSeq;
  }

  /**
   * An empty outbox goes on with a sequence that an earlier one (of an association removed while
   * idle) left off: the peer's incarnation expects {@code seq} next.
   */
  synchronized void continueAt(long seq) {
    if (size == 0) {
      nextSeq = seq;
      nextToWrite = seq;
    }
  }

  /** @return how many messages the peer acknowledged so far (all incarnations), for tests and diagnostics */
  public synchronized long acknowledged() {
    return acknowledged;
  }

  /** @return the number of messages waiting for an acknowledgement, for tests and diagnostics */
  public synchronized int size() {
    return size;
  }
}
