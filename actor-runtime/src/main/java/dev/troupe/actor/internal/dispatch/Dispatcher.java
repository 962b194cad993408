package dev.troupe.actor.internal.dispatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs mailboxes on an executor with a throughput batch: a mailbox processes at most {@code
 * throughput} user messages (and stops early at the throughput deadline, if one is set) before it
 * gives its thread back.
 */
public final class Dispatcher {
  final String id;
  final int throughput;
  final long throughputDeadlineNanos;
  private final ExecutorService executor;

  /**
   * @param settings parsed settings
   * @param executor the executor mailboxes run on; owned (shut down) by this dispatcher
   */
  public Dispatcher(DispatcherSettings settings, ExecutorService executor) {
    this.id = settings.id();
    this.throughput = settings.throughput();
    this.throughputDeadlineNanos = settings.throughputDeadline().toNanos();
    this.executor = executor;
  }

  /** @return the config id */
  public String id() {
    return id;
  }

  /** @return the executor, for futures and pipes */
  public ExecutorService executor() {
    return executor;
  }

  /**
   * Creates a mailbox run by this dispatcher.
   *
   * @param type the mailbox type
   * @return a new mailbox
   */
  public Mailbox newMailbox(MailboxType type) {
    return new Mailbox(type.newQueue(), this);
  }

  void execute(Mailbox mailbox) {
    try {
      executor.execute(mailbox);
    } catch (RejectedExecutionException e) {
      // Only after shutdown: the system is terminating and nothing will run this mailbox again.
      mailbox.rejected();
    }
  }

  /** Stops accepting mailboxes; running ones finish their current batch. */
  public void shutdown() {
    executor.shutdown();
  }

  /**
   * Waits for the executor's threads to finish.
   *
   * @param millis the bound
   * @return whether they finished
   * @throws InterruptedException if interrupted
   */
  public boolean awaitTermination(long millis) throws InterruptedException {
    return executor.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public String toString() {
    return "Dispatcher[" + id + ", throughput=" + throughput + "]";
  }
}
