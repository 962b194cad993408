package dev.troupe.remote.internal.provider;

import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The selections that arrived on one connection, resolved one after another on the system's
 * default dispatcher and never on the event loop that read them: the walk of a selection depends
 * on the tree and the pattern (bounded by {@code troupe.actor.selection}, yet possibly many
 * thousand steps), and an event loop serves every connection it owns. Selections from one
 * connection are delivered in the order they arrived; against the other messages of the
 * connection, sent straight to a ref, a selection's message may come later than it would have
 * (a selection is not a ref, and remoting orders messages per pair of refs).
 *
 * <p>At most {@code limit} selections, or selections of {@code maxBytes} serialized bytes in all,
 * wait; at either bound the connection stops reading (its {@link ReadGate} is held), and it reads
 * again once the dispatcher has brought both below half (unless an inbound lane holds it too). Pausing rather than dropping: a peer that
 * sends selections faster than they are resolved, legitimately (a burst of lookups) or not, is
 * slowed by TCP's own flow control and loses nothing, while the other connections of the event
 * loop go on; a drop would lose a legitimate peer's messages for a burst. The bytes of a read that
 * was already under way when the bound was reached are still decoded, so the queue may exceed a
 * bound by one socket read's frames (at most 64 KiB of them).
 *
 * <p>{@link #submit} runs on the connection's event loop; the drain runs on the dispatcher, one
 * run at a time, giving its thread back after {@value #BATCH} selections. The queue and the
 * pause flag are guarded by this object's lock, so that the reading is never turned on while the
 * queue is full.
 */
public final class InboundSelections implements Runnable {
  /** Selections resolved in one run of the drain before it lets other tasks have the thread. */
  static final int BATCH = 16;

  private final ReadGate gate;
  private final Executor executor;
  private final int limit;
  private final long maxBytes;
  private final Target target;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>(); // guarded by this
  private long bytes; // guarded by this
  private boolean scheduled; // guarded by this: a drain is submitted or running
  private boolean paused; // guarded by this: reading stopped by this queue

  private record Pending(ActorSelectionMessage selection, ActorRef sender, int size) {}

  /** Where the selections go: the provider. */
  interface Target {
    /** Resolves {@code selection} and delivers its message; reports a failure itself, never throws. */
    void deliver(ActorSelectionMessage selection, ActorRef sender);

    /** Reports a selection that will not be resolved, and why. */
    void dropped(ActorSelectionMessage selection, ActorRef sender, String why);
  }

  /**
   * @param gate the reading of the connection the selections arrive on
   * @param executor where they are resolved (the default dispatcher's executor)
   * @param limit the most selections that wait before reading pauses
   * @param maxBytes the most serialized bytes of waiting selections before reading pauses
   * @param target resolves and delivers each selection
   */
  InboundSelections(
      ReadGate gate,
      Executor executor,
      int limit,
      long maxBytes,
      Target target) {
    this.gate = gate;
    this.executor = executor;
    this.limit = limit;
    this.maxBytes = maxBytes;
    this.target = target;
  }

  /**
   * Queues a selection for the dispatcher; on the connection's event loop.
   *
   * @param selection the selection, deserialized
   * @param sender its sender, or null
   * @param size its serialized size in bytes
   */
  void submit(ActorSelectionMessage selection, ActorRef sender, int size) {
    boolean start;
    synchronized (this) {
      queue.add(new Pending(selection, sender, size));
      bytes += size;
      if (!paused && (queue.size() >= limit || bytes >= maxBytes)) {
        paused = true;
        gate.hold();
      }
      start = !scheduled;
      scheduled = true;
    }
    if (start) {
      schedule();
    }
  }

  /** The drain: up to {@value #BATCH} selections, then again later if more wait; on the dispatcher. */
  @Override
  public void run() {
    for (int i = 0; i < BATCH; i++) {
      Pending p;
      synchronized (this) {
        p = queue.poll();
        if (p == null) {
          scheduled = false;
          return;
        }
        bytes -= p.size();
        if (paused && queue.size() <= limit / 2 && bytes <= maxBytes / 2) {
          paused = false;
          gate.release();
        }
      }
      target.deliver(p.selection(), p.sender());
    }
    schedule();
  }

  private void schedule() {
    try {
      executor.execute(this);
    } catch (RejectedExecutionException terminated) {
      dropAll("the system terminates: its dispatcher takes no more work");
    }
  }

  private void dropAll(String why) {
    ArrayDeque<Pending> left;
    synchronized (this) {
      left = new ArrayDeque<>(queue);
      queue.clear();
      bytes = 0;
      scheduled = false;
      if (paused) {
        paused = false;
        gate.release(); // nothing waits any more
      }
    }
    for (Pending p : left) {
      target.dropped(p.selection(), p.sender(), why);
    }
  }

  /** @return the selections waiting, for tests */
  synchronized int waiting() {
    return queue.size();
  }
}
