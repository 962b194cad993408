package dev.troupe.remote.internal.provider;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;

/**
 * One inbound lane: user messages that arrived, still serialized, handed over by the event loops
 * that read them and deserialized and delivered on an executor (the default dispatcher), so that
 * the network threads only frame and decode. Messages leave a lane in the order they entered it;
 * {@link InboundLanes} picks the lane by the recipient, so one connection's messages to one
 * recipient keep their order.
 *
 * <p>Drained as a mailbox is: the submit that finds the lane idle schedules a run of {@link #run}
 * on the executor, which delivers up to {@value #BATCH} messages and schedules itself again while
 * more wait; an empty lane schedules nothing, so an idle system wakes no thread. One run at a
 * time.
 *
 * <p>Bounded by count and serialized bytes: a submit that finds the lane at either bound holds
 * back the reading of the connection it came from ({@link ReadGate}), and every connection held
 * back is let go once runs have brought both below half. Pausing rather than dropping: TCP's flow
 * control slows the peers that feed a full lane and nothing is lost, while the event loop goes on
 * serving other connections. A read already under way still hands its frames over, so a lane may
 * exceed a bound by one socket read (64 KiB of frames) per connection.
 *
 * <p>The queue is JCTools' field-updater variant (no {@code sun.misc.Unsafe}), as the outbound
 * lanes'.
 *
 * <p>Threads: {@link #submit} on any event loop (many producers); {@link #run} on the executor,
 * one at a time. The waiting count and bytes are one atomic long ({@link #level}) that submits add
 * to and runs subtract from, once per batch; the set of held connections is guarded by its lock,
 * taken only at a bound. A submit holds a connection back and then reads the level, a run lowers
 * the level and then reads {@link #heldCount}: one of the two sees the other (both volatile), so
 * a connection is never left held by a lane that has drained.
 *
 * <p>When the executor refuses a run (the system terminates), what waits is dropped with the
 * reason, and the connections held by the lane read again.
 *
 * @param <T> what a lane carries
 */
final class InboundLane<T extends InboundLane.Item> implements Runnable {
  /** Messages delivered in one run before the lane gives its thread back. */
  static final int BATCH = 64;

  /** The level's unit for one message: counts sit above the low {@value #BYTE_BITS} bits, bytes below. */
  private static final int BYTE_BITS = 40;
  private static final long ONE_MESSAGE = 1L << BYTE_BITS;
  private static final long BYTE_MASK = ONE_MESSAGE - 1;

  private static final int IDLE = 0;
  private static final int SCHEDULED = 1; // a run is submitted to the executor or running

  /** A message on a lane: its serialized size, and the reading of the connection it came on. */
  interface Item {
    /** @return its serialized size in bytes */
    int size();

    /** @return the reading of the connection it arrived on */
    ReadGate gate();
  }

  /** Where a lane's messages go: the provider. */
  interface Target<T> {
    /** Deserializes and delivers {@code item}; reports a failure itself (a Dropped event), never throws. */
    void deliver(T item);

    /** Reports a message that will not be delivered, and why. */
    void dropped(T item, String why);
  }

  private final Executor executor;
  private final int limit;
  private final long maxBytes;
  private final Target<T> target;
  private final MessagePassingQueue<T> queue = new MpscUnboundedAtomicArrayQueue<>(256);
  private final AtomicLong level = new AtomicLong(); // any thread: waiting count << BYTE_BITS | bytes
  private final AtomicInteger state = new AtomicInteger(IDLE); // any thread: IDLE or SCHEDULED
  private final Map<ReadGate, Boolean> held = new IdentityHashMap<>(); // guarded by itself
  private volatile int heldCount; // written under held's lock, read by runs without it

  /**
   * @param executor where the lane is drained (the default dispatcher's executor)
   * @param limit the most messages that wait before the connections feeding the lane stop reading
   * @param maxBytes the most serialized bytes that wait before they stop reading
   * @param target deserializes and delivers each message
   */
  InboundLane(Executor executor, int limit, long maxBytes, Target<T> target) {
    this.executor = executor;
    this.limit = limit;
    this.maxBytes = Math.min(maxBytes, BYTE_MASK);
    this.target = target;
  }

  /** Hands a message to the lane; on the event loop that read it. Never blocks. */
  void submit(T item) {
    long now = level.addAndGet(ONE_MESSAGE + item.size());
    queue.offer(item);
    if ((now >>> BYTE_BITS) >= limit || (now & BYTE_MASK) >= maxBytes) {
      hold(item.gate());
    }
    if (state.get() == IDLE && state.compareAndSet(IDLE, SCHEDULED)) {
      schedule();
    }
  }

  /** A run: up to {@value #BATCH} messages, then again later if more wait; on the executor. */
  @Override
  public void run() {
    long taken = 0;
    int n = 0;
    boolean done = false;
    try {
      for (T item; n < BATCH && (item = queue.relaxedPoll()) != null; n++) {
        taken += ONE_MESSAGE + item.size();
        deliver(item);
      }
      done = true;
    } finally {
      long now = level.addAndGet(-taken);
      if (heldCount > 0 && belowHalf(now)) {
        releaseAll();
      }
      if (!done || n == BATCH) {
        schedule(); // more may wait (or an Error ended this run): give the thread back and go on later
      } else {
        state.set(IDLE);
        if (!queue.isEmpty() && state.compareAndSet(IDLE, SCHEDULED)) { // a submit that saw SCHEDULED
          schedule();
        }
      }
    }
  }

  private void deliver(T item) {
    try {
      target.deliver(item);
    } catch (RuntimeException e) { // the target reports its own failures: this is a bug, yet the lane goes on
      target.dropped(item, "delivery failed: " + e);
    }
  }

  private boolean belowHalf(long level) {
    return (level >>> BYTE_BITS) <= limit / 2 && (level & BYTE_MASK) <= maxBytes / 2;
  }

  private void hold(ReadGate gate) {
    synchronized (held) {
      if (held.put(gate, Boolean.TRUE) != null) {
        return; // held by this lane already
      }
      heldCount = held.size();
      gate.hold();
    }
    if (belowHalf(level.get())) { // a run drained the lane meanwhile and saw nothing held
      releaseAll();
    }
  }

  private void releaseAll() {
    synchronized (held) {
      if (!belowHalf(level.get())) {
        return; // filled again: the connections stay held
      }
      for (ReadGate g : held.keySet()) {
        g.release();
      }
      held.clear();
      heldCount = 0;
    }
  }

  private void schedule() {
    try {
      executor.execute(this);
    } catch (RejectedExecutionException terminated) {
      dropAll("the system terminates: its dispatcher takes no more work");
    }
  }

  private void dropAll(String why) {
    long taken = 0;
    for (T item; (item = queue.relaxedPoll()) != null; ) {
      taken += ONE_MESSAGE + item.size();
      target.dropped(item, why);
    }
    level.addAndGet(-taken);
    state.set(IDLE);
    releaseAll();
    if (!queue.isEmpty() && state.compareAndSet(IDLE, SCHEDULED)) { // submitted meanwhile
      schedule();
    }
  }

  /** @return the messages waiting, for tests */
  int waiting() {
    return (int) (level.get() >>> BYTE_BITS);
  }

  /** @return the connections this lane holds back from reading, for tests */
  int heldConnections() {
    return heldCount;
  }

  /** @return whether a run is scheduled or running, for tests */
  boolean scheduled() {
    return state.get() == SCHEDULED;
  }
}
