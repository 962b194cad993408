package dev.troupe.actor.internal.dispatch;

/**
 * Owns what a dispatcher kind changes in each of its mailboxes: send, system send, close.
 *
 * <p>The dispatcher chooses the kind once, when it creates the mailbox ({@link
 * Dispatcher#newMailbox}), and the mailbox keeps it in a final field: no send asks which kind of
 * mailbox it is talking to. {@link OwnQueue#STATELESS}, the kind of every mailbox with a queue of its
 * own on a {@code Dispatcher} or {@code CallingThreadDispatcher}, is one object for all of them, so
 * the choice costs a mailbox one reference; while it is the only kind a call site has seen, C2
 * inlines its methods there (behind at most one class check). The other kinds carry per-mailbox state: a
 * team membership ({@link BalancingDispatcher.Membership}) or a thread ({@link
 * PinnedDispatcher.PinnedThread}).
 *
 * <p>Each method gets the mailbox it belongs to; the thread that calls it is on the method.
 */
abstract sealed class MailboxKind permits MailboxKind.OwnQueue, BalancingDispatcher.Membership {

  /**
   * Any thread: enqueues a user message for {@code m} and makes sure a thread will process it.
   *
   * @param m the receiver's mailbox
   * @param e the envelope
   */
  abstract void enqueue(Mailbox m, Envelope e);

  /**
   * Any thread: a system message was just pushed onto {@code m}'s stack, and {@code m} is about to
   * be scheduled for it.
   *
   * @param m the mailbox
   */
  abstract void systemEnqueued(Mailbox m);

  /**
   * Whether the user queue is the mailbox's own: a closed mailbox then drains it to dead letters.
   * A shared queue (a team's) is left to the mailboxes that share it.
   *
   * @return whether the queue is the mailbox's alone
   */
  abstract boolean ownsQueue();

  /**
   * The running thread of {@code m}, once: its actor terminated and {@code m} is now closed;
   * releases what the kind holds for it.
   *
   * @param m the mailbox
   */
  abstract void closed(Mailbox m);

  /**
   * A queue of its own, which a full bounded queue refuses (the message goes to dead letters); the
   * mailbox is run by the dispatcher's executor, or by its own thread ({@link
   * PinnedDispatcher.PinnedThread}, which is this kind with the thread attached).
   */
  static sealed class OwnQueue extends MailboxKind permits PinnedDispatcher.PinnedThread {
    /**
     * The one instance for every mailbox whose kind holds no state of its own (not to be confused
     * with a team's shared queue, {@link BalancingDispatcher.Membership}). Held here, not in
     * {@link MailboxKind}: a superclass whose initializer creates a subclass can deadlock two
     * threads initializing the two classes at once.
     */
    static final OwnQueue STATELESS = new OwnQueue();

    OwnQueue() {}

    @Override
    final void enqueue(Mailbox m, Envelope e) {
      if (m.queue().offer(e)) {
        m.trySchedule(true, false, false);
      } else {
        m.owner().deadLetter(e.message, e.sender, true); // a full bounded queue
      }
    }

    @Override
    final void systemEnqueued(Mailbox m) {}

    @Override
    final boolean ownsQueue() {
      return true;
    }

    /** Nothing to release (a pinned thread sees the closed mailbox after this run and exits). */
    @Override
    final void closed(Mailbox m) {}
  }
}
