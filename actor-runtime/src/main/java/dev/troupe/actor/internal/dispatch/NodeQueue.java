package dev.troupe.actor.internal.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An unbounded, intrusive multi-producer single-consumer queue of {@link Envelope}s (the shape of
 * Dmitry Vyukov's MPSC node queue): a producer swaps itself in as the tail with one atomic
 * exchange and then links its predecessor to itself; the consumer follows {@code next} links from
 * a stub node. Offer is wait-free and allocates nothing beyond the envelope.
 *
 * <p>Between a producer's exchange and its link the queue is <em>non-empty but not yet
 * traversable</em>; {@link #hasMessages()} (tail != head) already reports it and {@link #poll()}
 * spins the few instructions until the link appears. The mailbox's scheduling protocol relies on
 * this: the producer's exchange is a full fence, so a consumer that checks {@code hasMessages()}
 * after its own full fence cannot miss a message whose producer has not yet seen the mailbox idle.
 *
 * <p>The envelope {@link #poll()} returns becomes the queue's stub: the consumer reads it at once
 * and must not keep it (copy it to keep it, as the stash does), and clears it with {@link
 * Envelope#clear()} so that an idle actor does not retain its last message.
 *
 * <p>No padding: a runtime holds millions of mostly idle mailboxes, and 128 bytes of padding each
 * would more than double the memory per actor; producers and the consumer of one mailbox share
 * lines only while that mailbox is hot.
 */
final class NodeQueue implements MessageQueue {
  private static final VarHandle TAIL;
  private static final VarHandle HEAD;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      TAIL = l.findVarHandle(NodeQueue.class, "tail", Envelope.class);
      HEAD = l.findVarHandle(NodeQueue.class, "head", Envelope.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // accessed through TAIL: written by every producer
  private volatile Envelope tail;

  @SuppressWarnings("unused") // accessed through HEAD: written by the consumer only
  private Envelope head;

  NodeQueue() {
    Envelope stub = new Envelope(null, null);
    HEAD.set(this, stub);
    TAIL.set(this, stub); // the mailbox is published to other threads after construction
  }

  @Override
  public boolean offer(Envelope e) {
    e.spNext(null); // plain: not yet reachable by any other thread
    Envelope prev = xchgTail(e);
    prev.soNext(e);
    return true;
  }

  @Override
  public Envelope poll() {
    Envelope h = lpHead();
    Envelope next = h.laNext();
    if (next == null) {
      if (h == lvTail()) {
        return null;
      }
      // A producer exchanged the tail but has not linked yet: wait for its release store.
      do {
        Thread.onSpinWait();
        next = h.laNext();
      } while (next == null);
    }
    soHead(next);
    h.spNext(h); // self-link the old stub so a stub retained elsewhere retains nothing
    return next;
  }

  @Override
  public boolean hasMessages() {
    return lvTail() != loHead();
  }

  @Override
  public int sizeHint() {
    return hasMessages() ? 1 : 0;
  }

  /** Full-fence exchange: orders the enqueue before the producer's later status read. */
  private Envelope xchgTail(Envelope e) {
    return (Envelope) TAIL.getAndSet(this, e);
  }

  /** Volatile load: sequentially consistent with the exchange, for the post-fence empty check. */
  private Envelope lvTail() {
    return (Envelope) TAIL.getVolatile(this);
  }

  /** Plain load: only the consumer writes head. */
  private Envelope lpHead() {
    return (Envelope) HEAD.get(this);
  }

  /** Opaque load: other threads' emptiness hint; staleness only makes the hint stale. */
  private Envelope loHead() {
    return (Envelope) HEAD.getOpaque(this);
  }

  /**
   * Release store: the consumer of the next run (maybe another thread) gets the mailbox through the
   * executor's hand-off, which orders it anyway; release keeps hint readers from seeing a node
   * before its contents.
   */
  private void soHead(Envelope h) {
    HEAD.setRelease(this, h);
  }
}
