package dev.troupe.actor.internal.telemetry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One mailbox's telemetry, created with the mailbox only when telemetry is on (a mailbox of a
 * system without telemetry has none, and its run takes the unobserved path).
 *
 * <p>Per-batch accounting: the run counts its messages in a local and adds them here once, when it
 * ends, with an opaque store to a field no other thread writes, so counting costs no atomic and no
 * shared cache line; {@link SystemTelemetry#snapshot()} sums the live probes and what stopped
 * actors left behind ({@link #retire}). Timing is sampled by run: one run in {@code sample-every}
 * of each mailbox asks, as it ends ({@link #runEnded}), that the next be sampled; the mailbox
 * keeps that request as a bit of its status word, which the next schedule reads and clears in
 * the CAS it makes anyway, stamps the time ({@link #stampScheduled}), and the run it starts
 * records its scheduling delay (and a mailbox-depth sample) and times each of its messages. Only
 * sampled runs touch the shared, atomic histograms; an unsampled run does no per-message
 * telemetry work, and a schedule none at all. (Measured on ping-pong, one message per run: a
 * random draw per schedule, and a timed message in N, each cost about a tenth of the rate, by
 * growing the send path until the JIT stopped inlining the actor's code into the run loop.)
 *
 * <p>Thread ownership: everything but the two counters' reads belongs to the thread that holds the
 * mailbox's SCHEDULED bit, which is the run's thread or, between the CAS that sets the bit and the
 * executor hand-off, the thread that scheduled it; the bit's hand-off orders them (the same
 * happens-before that orders an actor's consecutive messages). {@link #messages} and {@link #runs}
 * are read by snapshots on any thread with opaque loads: a snapshot of a busy system may trail by
 * the runs in progress, and is exact once the actors are quiet.
 */
public final class MailboxProbe {
  private static final VarHandle MESSAGES;
  private static final VarHandle RUNS;
  private static final VarHandle RESTARTS;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      MESSAGES = l.findVarHandle(MailboxProbe.class, "messages", long.class);
      RUNS = l.findVarHandle(MailboxProbe.class, "runs", long.class);
      RESTARTS = l.findVarHandle(MailboxProbe.class, "restarts", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final ActorGroup group;
  /** Whether the mailbox counts its queue (troupe.telemetry.mailbox-depth). */
  public final boolean countsDepth;
  /** Non-null for an actor whose path opted in: its own histograms and JMX entry. */
  final ActorDetail detail;

  @SuppressWarnings("unused") // accessed through MESSAGES
  private long messages;

  @SuppressWarnings("unused") // accessed through RUNS
  private long runs;

  @SuppressWarnings("unused") // accessed through RESTARTS
  private long restarts;

  private long scheduledAt; // SCHEDULED-bit holder: 0 = this run is not sampled
  private final int sampleEvery;
  private int sampleCountdown; // run thread: runs until the next one that asks for a sample
  private boolean retired; // run thread

  MailboxProbe(ActorGroup group, ActorDetail detail, int sampleEvery, boolean countsDepth) {
    this.sampleEvery = sampleEvery;
    this.sampleCountdown = sampleEvery; // the first run is sampled (Mailbox.setOwner)
    this.group = group;
    this.countsDepth = countsDepth;
    this.detail = detail;
  }

  /**
   * The thread that just set the SCHEDULED bit and found the sample bit set: the run it starts
   * will be timed. The scheduling thread is usually another actor's thread, so it touches this
   * object (whose line the run thread writes on every run) only for the schedules it samples.
   */
  public void stampScheduled() {
    scheduledAt = System.nanoTime();
  }

  /** @return whether the schedule that started this run was sampled (run thread) */
  public boolean isSampled() {
    return scheduledAt != 0L;
  }

  /**
   * Run thread, at the start of a sampled run.
   *
   * @return the timestamp {@link #stampScheduled} took for this run
   */
  public long takeScheduledAt() {
    long t = scheduledAt;
    scheduledAt = 0L;
    return t;
  }

  /**
   * Run thread: a sampled run started.
   *
   * @param delayNanos time from the schedule to now
   * @param depth user messages queued, or -1 if the queue does not count them
   */
  public void sampledRun(long delayNanos, long depth) {
    DispatcherTelemetry d = group.dispatcher;
    d.schedulingDelay.record(delayNanos);
    if (depth >= 0) {
      d.mailboxDepth.record(depth);
    }
    ActorDetail a = detail;
    if (a != null) {
      a.schedulingDelay.record(delayNanos);
      if (depth >= 0) {
        a.mailboxDepth.record(depth);
      }
    }
  }

  /**
   * Run thread: a timed message's processing time.
   *
   * @param nanos the time
   */
  public void processed(long nanos) {
    group.dispatcher.processingTime.record(nanos);
    group.actorClass.processingTime.record(nanos);
    ActorDetail a = detail;
    if (a != null) {
      a.processingTime.record(nanos);
    }
  }

  /**
   * Run thread, at the end of every run.
   *
   * @param processed user messages the run processed
   * @param closed whether the mailbox is closed (its actor terminated)
   * @return whether the next run is to be sampled (one run in {@code sample-every}): the mailbox
   *     then sets {@code SAMPLE} in its status, so that the schedule that starts it stamps the time
   */
  public boolean runEnded(int processed, boolean closed) {
    if (retired) { // a run after the one that closed the mailbox (system messages only)
      group.retire(processed, 1);
      return false;
    }
    MESSAGES.setOpaque(this, (long) MESSAGES.get(this) + processed);
    RUNS.setOpaque(this, (long) RUNS.get(this) + 1);
    if (closed) {
      retire();
      return false;
    }
    if (--sampleCountdown == 0) {
      sampleCountdown = sampleEvery;
      return true;
    }
    return false;
  }


  /** Run thread: the actor is being restarted. */
  public void restarted() {
    RESTARTS.setOpaque(this, (long) RESTARTS.get(this) + 1);
    group.actorClass.restarts.increment();
  }

  /** The actor failed: a message or a lifecycle hook threw (its thread). */
  public void failed() {
    group.actorClass.failures.increment();
  }

  /** Folds this actor's counts into its group and forgets it (run thread, once). */
  private void retire() {
    retired = true;
    group.retire(this);
  }

  long messages() {
    return (long) MESSAGES.getOpaque(this);
  }

  long runs() {
    return (long) RUNS.getOpaque(this);
  }

  long restarts() {
    return (long) RESTARTS.getOpaque(this);
  }
}
