package dev.troupe.actor.internal.dispatch;

import dev.troupe.runtime.spi.SystemMessage;
import static dev.troupe.actor.internal.dispatch.MailboxStatus.CLOSED;
import static dev.troupe.actor.internal.dispatch.MailboxStatus.SAMPLE;
import static dev.troupe.actor.internal.dispatch.MailboxStatus.SCHEDULED;
import static dev.troupe.actor.internal.dispatch.MailboxStatus.SUSPEND_UNIT;

import dev.troupe.actor.internal.telemetry.DispatcherTelemetry;
import dev.troupe.actor.internal.telemetry.MailboxProbe;
import dev.troupe.executors.Affine;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.concurrent.ForkJoinTask;

/**
 * Owns one actor's delivery: its user queue, its system-message stack and its scheduling state.
 *
 * <p>The scheduling state is the state machine of {@link MailboxStatus}. The mailbox is also the
 * task handed to the dispatcher's executor: one run processes all system messages, then up to
 * {@code throughput} user messages (or until the throughput deadline), then gives the thread back
 * and reschedules itself if work is left. What the dispatcher kind changes (a queue shared with a
 * team, a thread of its own) is its {@link MailboxKind}, chosen when the mailbox is created.
 *
 * <p>It extends {@link ForkJoinTask} so that a fork-join executor runs it without wrapping (a
 * submission from a worker is a push onto that worker's own deque), and implements {@link Affine}
 * so that the affinity pool keeps it on one thread.
 *
 * <p>Thread ownership: {@code status} and {@code systemStack} are shared (CAS); the user queue is
 * many-producer single-consumer (a team's shared queue has many consumers, see {@link
 * SharedMessageQueue}); {@code prepended} and everything of the owner are touched only by
 * the thread that currently runs the mailbox, and the SCHEDULED bit hand-off (CAS then executor
 * hand-off) orders consecutive runs on different threads: happens-before between consecutive
 * messages of an actor.
 */
public final class Mailbox extends ForkJoinTask<Void> implements Runnable, Affine {
  private static final long serialVersionUID = 1L;
  private static final VarHandle STATUS;
  private static final VarHandle SYSTEM;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      STATUS = l.findVarHandle(Mailbox.class, "status", int.class);
      SYSTEM = l.findVarHandle(Mailbox.class, "systemStack", SysNode.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final transient MessageQueue queue;
  private final transient Dispatcher dispatcher;
  /**
   * What the dispatcher kind changes in this mailbox (see {@link MailboxKind}). Final: every
   * thread that reaches the mailbox sees it (final-field semantics), so a send reads it plainly.
   */
  private final transient MailboxKind kind;
  private transient MailboxOwner owner; // set once before the first enqueue (publication by the ref)
  /**
   * Telemetry of this mailbox; null, and never written, when the system's telemetry is off (then
   * each run reads it once and finds null: the rest is the unobserved path; a schedule reads the
   * dispatcher's read-only telemetry field instead, to stay off the probe's line).
   * Set with the owner, before the mailbox is reachable. Fits the object's alignment gap: the
   * mailbox is no bigger for it (see MailboxLayoutTest).
   */
  private transient MailboxProbe probe;

  @SuppressWarnings("unused") // accessed through STATUS
  private volatile int status;

  @SuppressWarnings("unused") // accessed through SYSTEM: a Treiber stack, newest first
  private volatile SysNode systemStack;

  private transient ArrayDeque<Envelope> prepended; // running thread only: unstashed messages
  private int affinity = NO_AFFINITY; // plain: a stale value only changes placement

  /**
   * @param queue the user queue: the mailbox's own, or its team's
   * @param dispatcher the dispatcher that runs the mailbox
   * @param kind what the dispatcher kind changes in the mailbox
   */
  Mailbox(MessageQueue queue, Dispatcher dispatcher, MailboxKind kind) {
    // troupe.telemetry.mailbox-depth: a queue of the mailbox's own counts its messages
    this.queue =
        dispatcher.telemetry != null && dispatcher.telemetry.countsDepth() && kind.ownsQueue()
            ? new CountingQueue(queue)
            : queue;
    this.dispatcher = dispatcher;
    this.kind = kind;
  }

  /**
   * Binds the mailbox to its actor; called once, before the mailbox is reachable.
   *
   * @param o the owner
   */
  public void setOwner(MailboxOwner o) {
    this.owner = o;
    DispatcherTelemetry t = dispatcher.telemetry;
    if (t != null) {
      this.probe = t.probe(o);
      if (probe != null) {
        STATUS.set(this, SAMPLE); // the first run is sampled (the mailbox is not reachable yet)
      }
    }
  }

  private void stampScheduled() {
    MailboxProbe p = probe;
    if (p != null) {
      p.stampScheduled();
    }
  }

  /** @return what runs in this mailbox (its actor), for diagnostics; any thread */
  String describeOwner() {
    MailboxOwner o = owner;
    return o == null ? "a mailbox without an actor yet" : o.describe();
  }

  /** @return this mailbox's telemetry, or null (telemetry off, or an owner that is no actor) */
  public MailboxProbe probe() {
    return probe;
  }

  /** @return the dispatcher that runs this mailbox */
  public Dispatcher dispatcher() {
    return dispatcher;
  }

  // ---------------------------------------------------------------- producer side (any thread)

  /**
   * Enqueues a user message and schedules the mailbox if it was idle. A full bounded mailbox
   * sends the message to dead letters; on a BalancingDispatcher, an idle member of the team is
   * scheduled when this one is busy (see {@link MailboxKind}).
   *
   * @param e the envelope
   */
  public void enqueue(Envelope e) {
    kind.enqueue(this, e);
  }

  /**
   * Enqueues a system message and schedules the mailbox (even when suspended or closed).
   *
   * @param m the message
   */
  public void systemEnqueue(SystemMessage m) {
    SysNode n = new SysNode(m);
    SysNode head;
    do {
      head = lvSystem();
      n.next = head; // plain: published by the CAS below
    } while (!casSystem(head, n));
    kind.systemEnqueued(this); // a team member joins its team with its first one (Create)
    trySchedule(false, true, false);
  }

  /**
   * Moves the mailbox from idle to scheduled and hands it to the executor, if it has work it may
   * do now.
   *
   * @param hasMessageHint the caller just enqueued a user message
   * @param hasSystemMessageHint the caller just enqueued a system message
   * @param afterRun the caller is this mailbox's own run, rescheduling what is left
   * @return whether this call handed the mailbox to the executor
   */
  boolean trySchedule(boolean hasMessageHint, boolean hasSystemMessageHint, boolean afterRun) {
    for (; ; ) {
      int s = lvStatus();
      if (MailboxStatus.isScheduled(s)) {
        return false; // the running (or queued) run will see the message; its re-check guarantees it
      }
      boolean work;
      if (MailboxStatus.isClosed(s)) {
        work = kind.ownsQueue() // else the queue is the team's: leave it to the team
            ? hasMessageHint || hasSystemMessageHint || queue.hasMessages() || lvSystem() != null
            : hasSystemMessageHint || lvSystem() != null;
      } else if (MailboxStatus.isSuspended(s)) {
        work = hasSystemMessageHint || lvSystem() != null;
      } else {
        work = hasMessageHint || hasSystemMessageHint || queue.hasMessages() || lvSystem() != null;
      }
      if (!work) {
        return false;
      }
      if (casStatus(s, (s | SCHEDULED) & ~SAMPLE)) {
        if (MailboxStatus.isSampled(s)) {
          stampScheduled(); // telemetry; we hold the SCHEDULED bit: the probe's timestamp is ours
        }
        if (afterRun) {
          yieldToSubmissions();
        }
        dispatcher.execute(this);
        return true;
      }
    }
  }

  // ---------------------------------------------------------------- consumer side

  @Override
  public void run() {
    // Telemetry (probe != null) shares this method and processMailbox with the unobserved run, so
    // that the JIT's inlining of the actor's code into the run loop is the same with it on or off
    // (a separate observed run one call deeper lost that inlining: ping-pong at 0.6x). Off, it
    // costs the read of probe and two never-taken branches per run, nothing per message. Sampling
    // is by run: a run that ends with runEnded true sets SAMPLE, the next schedule stamps the
    // time, and that run records its scheduling delay and times each of its messages.
    MailboxProbe p = probe;
    int processed = 0;
    int sampleNext = 0;
    try {
      if (!MailboxStatus.isClosed(lvStatus())) {
        processAllSystemMessages();
        processed = p != null && p.isSampled() ? processSampled(p) : processMailbox();
      } else {
        drainClosed();
      }
    } finally {
      if (p != null && p.runEnded(processed, isClosed())) {
        sampleNext = SAMPLE;
      }
      afterRun(sampleNext);
    }
  }

  /**
   * The end of every run: idle, then reschedule if work arrived meanwhile.
   *
   * @param sampleNext {@link MailboxStatus#SAMPLE} to have the next schedule sampled, else 0
   */
  private void afterRun(int sampleNext) {
    setAsIdle(sampleNext);
    // Re-check after the full fence of setAsIdle: a producer that enqueued during the run and
    // saw SCHEDULED relied on us. Prepended messages are ours alone, so check them here too.
    // (a suspended mailbox ignores the hint; a closed one drains them to dead letters)
    boolean prependedLeft = prepended != null && !prepended.isEmpty();
    trySchedule(prependedLeft, false, true);
  }

  /**
   * A fork-join worker runs its own queue before external submissions, and our resubmission from
   * our own run is a push onto that queue: without this, an actor with a long queue would keep
   * the thread (batch after batch) while mailboxes submitted from outside wait, so {@code
   * throughput} would not give the thread to anyone. In FIFO mode, moving one waiting external
   * submission onto the local queue ahead of us lets it run before our next batch.
   */
  private static void yieldToSubmissions() {
    java.util.concurrent.ForkJoinPool pool = getPool();
    if (pool != null && pool.getAsyncMode()) {
      ForkJoinTask<?> waiting = pollSubmission();
      if (waiting != null) {
        waiting.fork();
      }
    }
  }

  /** @return the user messages it processed */
  private int processMailbox() {
    final int quota = dispatcher.throughput;
    int left = quota; // one decrement per message processed, so quota - left is the count
    long deadlineNanos = dispatcher.throughputDeadlineNanos;
    long deadline = deadlineNanos > 0 ? System.nanoTime() + deadlineNanos : 0L;
    MailboxOwner o = owner;
    while (MailboxStatus.canProcessUserMessages(lvStatus())) {
      Envelope e = nextEnvelope();
      if (e == null) {
        break;
      }
      e.deliverTo(o); // o.invoke(e), unless a tracing module's envelope wraps it
      if (lvSystem() != null) {
        processAllSystemMessages();
      }
      if (--left == 0 || (deadline != 0L && System.nanoTime() - deadline >= 0)) {
        break;
      }
    }
    return quota - left;
  }

  /**
   * A run that the schedule before it sampled (one in {@code sample-every}): records the
   * scheduling delay and the depth, and times each message of the run. Every other run of an
   * observed mailbox is the plain {@link #processMailbox}, which counts by its quota.
   */
  private int processSampled(MailboxProbe p) {
    long depth = queue instanceof CountingQueue c ? c.depth() : -1L;
    p.sampledRun(System.nanoTime() - p.takeScheduledAt(), depth);
    return processMailboxTimed(p);
  }

  /** {@link #processMailbox} that counts and times each of its messages (a sampled run). */
  private int processMailboxTimed(MailboxProbe p) {
    int left = dispatcher.throughput;
    long deadlineNanos = dispatcher.throughputDeadlineNanos;
    long deadline = deadlineNanos > 0 ? System.nanoTime() + deadlineNanos : 0L;
    MailboxOwner o = owner;
    int processed = 0;
    while (MailboxStatus.canProcessUserMessages(lvStatus())) {
      Envelope e = nextEnvelope();
      if (e == null) {
        break;
      }
      processed++;
      long start = System.nanoTime();
      e.deliverTo(o);
      p.processed(System.nanoTime() - start);
      if (lvSystem() != null) {
        processAllSystemMessages();
      }
      if (--left == 0 || (deadline != 0L && System.nanoTime() - deadline >= 0)) {
        break;
      }
    }
    return processed;
  }

  private Envelope nextEnvelope() {
    ArrayDeque<Envelope> p = prepended;
    if (p != null) {
      Envelope e = p.pollFirst();
      if (e != null) {
        return e;
      }
    }
    return queue.poll();
  }

  /** Runs system messages in the order they were sent, until none is left. */
  private void processAllSystemMessages() {
    SysNode list;
    // Load before exchanging: most runs have no system message, and the load spares them an
    // atomic; one pushed after the load is seen by the post-run re-check (or the next loop).
    while (lvSystem() != null && (list = xchgSystem()) != null) {
      // The stack is newest-first: reverse it in place (we own the detached nodes).
      SysNode reversed = null;
      while (list != null) {
        SysNode next = list.next;
        list.next = reversed;
        reversed = list;
        list = next;
      }
      MailboxOwner o = owner;
      for (SysNode n = reversed; n != null; n = n.next) {
        o.systemInvoke(n.message);
      }
    }
  }

  private void drainClosed() {
    processAllSystemMessages();
    if (!kind.ownsQueue()) {
      // The queue is the team's: only our own unstashed messages are ours to drain.
      Envelope e;
      while (prepended != null && (e = prepended.pollFirst()) != null) {
        owner.deadLetter(e.message, e.sender, false);
      }
      return;
    }
    Envelope e;
    MailboxOwner o = owner;
    while ((e = nextEnvelope()) != null) {
      Object m = e.message;
      dev.troupe.actor.ActorRef s = e.sender;
      e.clear();
      o.deadLetter(m, s, false);
    }
  }

  /**
   * Puts envelopes back in front of the queue, in order; running thread only (the stash).
   *
   * @param envelopes copies of stashed envelopes, oldest first
   */
  public void prependAll(Collection<Envelope> envelopes) {
    if (envelopes.isEmpty()) {
      return;
    }
    if (prepended == null) {
      prepended = new ArrayDeque<>(envelopes.size());
    }
    // The new ones go before anything prepended earlier but not yet processed.
    Object[] arr = envelopes.toArray();
    for (int i = arr.length - 1; i >= 0; i--) {
      prepended.addFirst((Envelope) arr[i]);
    }
  }

  // ---------------------------------------------------------------- state transitions

  /** Running thread: one more reason not to process user messages. */
  public void suspend() {
    for (; ; ) {
      int s = lvStatus();
      if (MailboxStatus.isClosed(s) || casStatus(s, s + SUSPEND_UNIT)) {
        return;
      }
    }
  }

  /** Running thread: one reason less; user messages flow again when none is left. */
  public void resume() {
    for (; ; ) {
      int s = lvStatus();
      if (MailboxStatus.isClosed(s) || !MailboxStatus.isSuspended(s)) {
        return;
      }
      if (casStatus(s, s - SUSPEND_UNIT)) {
        return;
      }
    }
  }

  /**
   * Running thread, once: the actor terminated. Pending and later messages go to dead letters
   * (on a BalancingDispatcher the shared queue's messages stay with the rest of the team), and the
   * mailbox's kind releases what it holds for it (a team membership; a pinned thread exits by
   * itself).
   */
  public void close() {
    for (; ; ) {
      int s = lvStatus();
      if (casStatus(s, (s & SCHEDULED) | CLOSED)) {
        break;
      }
    }
    kind.closed(this);
  }

  /** @return the owner, for dispatchers that must dead-letter on its behalf */
  MailboxOwner owner() {
    return owner;
  }

  /** @return the user queue, for the kind's enqueue */
  MessageQueue queue() {
    return queue;
  }

  /** @return what the dispatcher kind chose for this mailbox */
  MailboxKind kind() {
    return kind;
  }

  /** @return whether the mailbox is closed */
  public boolean isClosed() {
    return MailboxStatus.isClosed(lvStatus());
  }

  /** @return whether user messages are on hold */
  public boolean isSuspended() {
    return MailboxStatus.isSuspended(lvStatus());
  }

  /** @return an O(1) hint of the number of queued user messages (see {@link MessageQueue}) */
  public int sizeHint() {
    return queue.sizeHint();
  }

  /** @return whether user messages may be waiting (hint) */
  public boolean hasMessages() {
    return queue.hasMessages();
  }

  /** @return whether the mailbox is queued or running on a thread (hint) */
  public boolean isScheduled() {
    return MailboxStatus.isScheduled(lvStatus());
  }

  private void setAsIdle(int sampleNext) {
    for (; ; ) {
      int s = lvStatus();
      if (casStatus(s, (s & ~SCHEDULED) | sampleNext)) {
        return;
      }
    }
  }

  /** Called by the dispatcher when its executor refused the mailbox (it is shutting down). */
  void rejected() {
    setAsIdle(0);
  }

  // ---------------------------------------------------------------- accessors

  /** Volatile load: the status decides whether to schedule, so it must be current. */
  private int lvStatus() {
    return (int) STATUS.getVolatile(this);
  }

  /** Full-fence CAS: orders our enqueue before, and the re-check after, each transition. */
  private boolean casStatus(int expect, int update) {
    return STATUS.compareAndSet(this, expect, update);
  }

  /** Volatile load of the system stack head. */
  private SysNode lvSystem() {
    return (SysNode) SYSTEM.getVolatile(this);
  }

  /** Full-fence CAS: publishes the node and its {@code next}. */
  private boolean casSystem(SysNode expect, SysNode update) {
    return SYSTEM.compareAndSet(this, expect, update);
  }

  /** Full-fence exchange: detaches the whole stack for the consumer. */
  private SysNode xchgSystem() {
    return (SysNode) SYSTEM.getAndSet(this, (SysNode) null);
  }

  // ---------------------------------------------------------------- executor integration

  @Override
  public int affinity() {
    return affinity;
  }

  @Override
  public void affinity(int stripe) {
    this.affinity = stripe;
  }

  @Override
  public Void getRawResult() {
    return null;
  }

  @Override
  protected void setRawResult(Void value) {}

  /**
   * Runs the mailbox on a fork-join worker. Returns {@code false} so the task never counts as
   * completed and can be executed again.
   */
  @Override
  protected boolean exec() {
    run();
    return false;
  }
}
