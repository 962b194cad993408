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
 * actors left behind ({@link #retire}). Timing is sampled: one schedule in {@code sampleEvery}, at
 * random ({@link DispatcherTelemetry#sampleSchedule()}), takes a timestamp that the run it starts turns into a scheduling delay (and a mailbox-depth
 * sample), and one message in {@code sampleEvery} is timed; only samples touch the shared,
 * atomic histograms.
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
  private final int sampleEvery;

  @SuppressWarnings("unused") // accessed through MESSAGES
  private long messages;

  @SuppressWarnings("unused") // accessed through RUNS
  private long runs;

  @SuppressWarnings("unused") // accessed through RESTARTS
  private long restarts;

  private long scheduledAt; // SCHEDULED-bit holder: 0 = this run is not sampled
  private int messageCountdown = 1; // run thread: the first message is timed
  private boolean retired; // run thread

  MailboxProbe(ActorGroup group, ActorDetail detail, int sampleEvery, boolean countsDepth) {
    this.group = group;
    this.countsDepth = countsDepth;
    this.detail = detail;
    this.sampleEvery = sampleEvery;
  }

  /**
   * The thread that just set the SCHEDULED bit, for a schedule {@link
   * DispatcherTelemetry#sampleSchedule()} chose: the run it starts will be timed. The scheduling
   * thread is usually another actor's thread, so it touches this object (whose line the run
   * thread writes on every run) only for the schedules it samples.
   */
  public void stampScheduled() {
    scheduledAt = System.nanoTime();
  }

  /**
   * Run thread, at the start of a run.
   *
   * @return the timestamp {@link #stampScheduled} took for this run, or 0 if this run is not sampled
   */
  public long takeScheduledAt() {
    long t = scheduledAt;
    if (t != 0L) {
      scheduledAt = 0L;
    }
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

  /** @return whether the run thread should time the next message (one in {@code sampleEvery}) */
  public boolean sampleMessage() {
    if (--messageCountdown <= 0) {
      messageCountdown = sampleEvery;
      return true;
    }
    return false;
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
   */
  public void runEnded(int processed, boolean closed) {
    if (retired) { // a run after the one that closed the mailbox (system messages only)
      group.retire(processed, 1);
      return;
    }
    MESSAGES.setOpaque(this, (long) MESSAGES.get(this) + processed);
    RUNS.setOpaque(this, (long) RUNS.get(this) + 1);
    if (closed) {
      retire();
    }
  }

  /** Run thread: the actor is being restarted. */
  public void restarted() {
    RESTARTS.setOpaque(this, (long) RESTARTS.get(this) + 1);
    group.actorClass.restarts.increment();
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
