package dev.troupe.actor.internal.dispatch;

import dev.troupe.executors.AffinityPool;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

// Padding as class layers (JCTools style: HotSpot lays a superclass's fields out before its
// subclass's): every mailbox of the dispatcher reads the batch settings and the executor on every
// run and every schedule, from every thread, so no object that a thread writes may share their
// cache lines. The collector copies the dispatcher next to whichever mailbox it reaches first;
// without the pads that mailbox's writes made every other thread miss on every message (see
// AffinityPool's pads for the measurement).

/** Keeps the hot fields off the cache lines of whatever precedes the dispatcher in the heap. */
abstract class DispatcherPad0 {
  long p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
  /**
   * Fills the 4-byte gap after a compressed object header, which the field layout (JDK 15+)
   * would otherwise give to an int or a reference of a later layer, in front of the pad.
   */
  int p016;
}

/** The fields a mailbox reads on every run and schedule; final. */
abstract class DispatcherHotFields extends DispatcherPad0 {
  final int throughput;
  final long throughputDeadlineNanos;
  final ExecutorService executor;
  /**
   * The executor if it is an affinity pool, else null: called as a final class, so a schedule
   * does not read the pool object's header (an interface type check).
   */
  final AffinityPool affinityPool;

  DispatcherHotFields(int throughput, long throughputDeadlineNanos, ExecutorService executor) {
    this.throughput = throughput;
    this.throughputDeadlineNanos = throughputDeadlineNanos;
    this.executor = executor;
    this.affinityPool = executor instanceof AffinityPool pool ? pool : null;
  }
}

/** Keeps the hot fields off the cache lines of whatever follows the dispatcher in the heap. */
abstract class DispatcherPad1 extends DispatcherHotFields {
  long p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;

  DispatcherPad1(int throughput, long throughputDeadlineNanos, ExecutorService executor) {
    super(throughput, throughputDeadlineNanos, executor);
  }
}

/**
 * Owns the threads that run a set of mailboxes, and the batch settings of each run.
 *
 * <p>A mailbox processes at most {@code throughput} user messages per run (and stops early at the
 * throughput deadline, if one is set) before it gives its thread back.
 *
 * <p>This class is the {@code type = Dispatcher} kind (a shared pool of threads, the executor of
 * the section). The other kinds override how a mailbox is created and run, and give the mailboxes
 * they create a {@link MailboxKind} of their own where sending or closing differs:
 * {@link PinnedDispatcher} (a thread per actor), {@link BalancingDispatcher} (one shared message
 * queue for a team of actors) and {@link CallingThreadDispatcher} (the sending thread, for tests).
 * Create them with {@link #create}.
 */
public sealed class Dispatcher extends DispatcherPad1
    permits PinnedDispatcher, BalancingDispatcher, CallingThreadDispatcher {

  /** Config value of the shared-pool kind. */
  public static final String TYPE = "Dispatcher";

  final String id;

  /**
   * The system's telemetry for this dispatcher, or null when it is off. Read once per mailbox,
   * when the mailbox is created (never on a run or a send); written once, by {@link Dispatchers},
   * before the dispatcher is published. Not among the hot fields.
   */
  dev.troupe.actor.internal.telemetry.DispatcherTelemetry telemetry;

  /**
   * @param settings parsed settings
   * @param executor the executor mailboxes run on; owned (shut down) by this dispatcher
   */
  public Dispatcher(DispatcherSettings settings, ExecutorService executor) {
    this(settings, executor, settings.throughput());
  }

  Dispatcher(DispatcherSettings settings, ExecutorService executor, int throughput) {
    super(throughput, settings.throughputDeadline().toNanos(), executor);
    this.id = settings.id();
  }

  /** Another dispatcher's executor and batch settings under a new id (see BalancingDispatcher). */
  Dispatcher(String id, Dispatcher base) {
    super(base.throughput, base.throughputDeadlineNanos, base.executor);
    this.id = id;
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
    return create(settings, threadNamePrefix, daemon, onError, null);
  }

  /**
   * Builds the dispatcher of the kind {@code settings.type()} names, with its threads, and a
   * starvation watch on its pool when it has one.
   *
   * @param settings parsed settings
   * @param threadNamePrefix {@code <system>-<id>}
   * @param daemon whether threads are daemons
   * @param onError receives failures that escaped a mailbox run
   * @param watch the starvation watch for an affinity pool, or null
   * @return the dispatcher
   */
  static Dispatcher create(
      DispatcherSettings settings,
      String threadNamePrefix,
      boolean daemon,
      Thread.UncaughtExceptionHandler onError,
      StarvationWatch watch) {
    return switch (settings.type()) {
      case PinnedDispatcher.TYPE -> new PinnedDispatcher(settings, threadNamePrefix, daemon, onError);
      case BalancingDispatcher.TYPE -> new BalancingDispatcher(
          settings, settings.newExecutor(threadNamePrefix, daemon, onError, watch));
      case CallingThreadDispatcher.TYPE -> new CallingThreadDispatcher(settings, onError);
      default -> new Dispatcher(settings, settings.newExecutor(threadNamePrefix, daemon, onError, watch));
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
   * Creates a mailbox run by this dispatcher; this is where the kind chooses the mailbox's {@link
   * MailboxKind}, once.
   *
   * @param type the mailbox type
   * @return a new mailbox
   */
  public Mailbox newMailbox(MailboxType type) {
    return new Mailbox(type.newQueue(), this, MailboxKind.OwnQueue.STATELESS);
  }

  /** Runs a mailbox that its caller has just marked SCHEDULED (exactly one caller at a time). */
  void execute(Mailbox mailbox) {
    try {
      AffinityPool pool = affinityPool;
      if (pool != null) {
        pool.execute(mailbox);
      } else {
        executor.execute(mailbox);
      }
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
    return getClass().getSimpleName() + "[" + id + ", throughput=" + throughput + "]";
  }
}
