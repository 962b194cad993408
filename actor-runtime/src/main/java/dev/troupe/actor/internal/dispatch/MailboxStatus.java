package dev.troupe.actor.internal.dispatch;

/**
 * The scheduling state machine of a {@link Mailbox}, packed in one {@code int} so that every
 * transition is a single CAS.
 *
 * <pre>
 *   bit 0      CLOSED     the actor terminated; the mailbox only drains to dead letters
 *   bit 1      SCHEDULED  the mailbox is queued on, or running on, an executor thread
 *   bit 2      SAMPLE     telemetry: the schedule that sets SCHEDULED next times the run it starts
 *   bits 3..31 suspend count (SUSPEND_UNIT each): user messages wait while it is non-zero
 * </pre>
 *
 * Transitions:
 *
 * <ul>
 *   <li>idle → scheduled: by whoever enqueued a message (or the consumer's own re-check) when the
 *       mailbox may run; exactly one CAS wins, so a mailbox is on at most one executor queue and
 *       runs on at most one thread;
 *   <li>scheduled → idle: by the running thread at the end of a run, followed by a re-check so that
 *       a message enqueued during the run is not stranded;
 *   <li>suspend/resume: by the running thread while processing system messages;
 *   <li>open → closed: once, when the actor terminates. A closed mailbox can still be scheduled: its
 *       run drains late messages to dead letters, so that no message is silently lost.
 * </ul>
 */
final class MailboxStatus {
  static final int CLOSED = 1;
  static final int SCHEDULED = 2;
  /**
   * Set by a run of an observed mailbox when it ends (one run in {@code troupe.telemetry
   * .sample-every}) and cleared by the schedule that follows, in the CAS that sets SCHEDULED:
   * the scheduling thread learns that it is to stamp the time from the value it read anyway, so a
   * schedule pays nothing for sampling, and a mailbox without telemetry never has the bit.
   */
  static final int SAMPLE = 4;
  static final int SUSPEND_UNIT = 8;

  private MailboxStatus() {}

  static boolean isClosed(int s) {
    return (s & CLOSED) != 0;
  }

  static boolean isScheduled(int s) {
    return (s & SCHEDULED) != 0;
  }

  static boolean isSampled(int s) {
    return (s & SAMPLE) != 0;
  }

  static boolean isSuspended(int s) {
    return s >= SUSPEND_UNIT;
  }

  /** Open, not suspended: user messages may be processed (scheduled and sample bits ignored). */
  static boolean canProcessUserMessages(int s) {
    return (s & ~(SCHEDULED | SAMPLE)) == 0;
  }
}
