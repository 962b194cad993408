package dev.troupe.actor.internal.dispatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs mailboxes on an executor with a throughput batch: a mailbox processes at most {@code
 * throughput} user messages (and stops early at the throughput deadline, if one is set) before it
 * gives its thread back.
 *
 * <p>This class is the {@code type = Dispatcher} kind (a shared pool of threads, the executor of
 * the section). The other kinds override how a mailbox is created, run and released:
 * {@link PinnedDispatcher} (a thread per actor), {@link BalancingDispatcher} (one shared message
 * queue for a team of actors) and {@link CallingThreadDispatcher} (the sending thread, for tests).
 * Create them with {@link #create}.
 */
public sealed class Dispatcher
    permits PinnedDispatcher, BalancingDispatcher, CallingThreadDispatcher {

  /** Config value of the shared-pool kind. */
  public static final String TYPE = "Dispatcher";

  final String id;
  final int throughput;
  final long throughputDeadlineNanos;
  private final ExecutorService executor;

  /**
   * @param settings parsed settings
   * @param executor the executor mailboxes run on; owned (shut down) by this dispatcher
   */
  public Dispatcher(DispatcherSettings settings, ExecutorService executor) {
    this(settings, executor, settings.throughput());
  }

  Dispatcher(DispatcherSettings settings, ExecutorService executor, int throughput) {
    this.id = settings.id();
    this.throughput = throughput;
    this.throughputDeadlineNanos = settings.throughputDeadline().toNanos();
    this.executor = executor;
  }

  /** Another dispatcher's executor and batch settings under a new id (see BalancingDispatcher). */
  Dispatcher(String id, Dispatcher base) {
    this.id = id;
    this.throughput = base.throughput;
    this.throughputDeadlineNanos = base.throughputDeadlineNanos;
    this.executor = base.executor;
  }

  /**
   * Builds the dispatcher of the kind {@code settings.type()} names, with its threads.
   *
   * @param settings parsed settings
   * @param threadNamePrefix {@code <system>-<id>}
   * @param daemon whether threads are daemons
   * @param onError receives failures that escaped a mailbox run
   * @return the dispatcher
   */
  public static Dispatcher create(
      DispatcherSettings settings,
      String threadNamePrefix,
      boolean daemon,
      Thread.UncaughtExceptionHandler onError) {
    return switch (settings.type()) {
      case PinnedDispatcher.TYPE -> new PinnedDispatcher(settings, threadNamePrefix, daemon, onError);
      case BalancingDispatcher.TYPE -> new BalancingDispatcher(
          settings, settings.newExecutor(threadNamePrefix, daemon, onError));
      case CallingThreadDispatcher.TYPE -> new CallingThreadDispatcher(settings, onError);
      default -> new Dispatcher(settings, settings.newExecutor(threadNamePrefix, daemon, onError));
    };
  }

  /** @return the config id */
  public String id() {
    return id;
  }

  /** @return the executor, for futures, pipes and scheduled tasks of actors on this dispatcher */
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

  /** Runs a mailbox that its caller has just marked SCHEDULED (exactly one caller at a time). */
  void execute(Mailbox mailbox) {
    try {
      executor.execute(mailbox);
    } catch (RejectedExecutionException e) {
      // Only after shutdown: the system is terminating and nothing will run this mailbox again.
      mailbox.rejected();
    }
  }

  /** The mailbox's actor terminated (called once, on the thread running the mailbox). */
  void closed(Mailbox mailbox) {}

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
    return getClass().getSimpleName() + "[" + id + ", throughput=" + throughput + "]";
  }
}
