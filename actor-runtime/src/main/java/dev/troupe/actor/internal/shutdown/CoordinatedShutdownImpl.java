package dev.troupe.actor.internal.shutdown;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.Done;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The phases of one system's shutdown and the tasks added to them.
 *
 * <p>A run walks the phases in order. Starting a phase closes it to new tasks (under this object's
 * lock, so that a task is either run or refused, never lost), calls each task's supplier in turn
 * on the starting thread, and arms the phase timeout (on the JDK's delay thread, independent of
 * the system's scheduler, which the last phase shuts down) before the first supplier is called: a
 * supplier that blocks cannot hold the run. The next phase starts on the default dispatcher (or
 * on the completing thread, once the dispatcher is shut down); phases without tasks are passed
 * through at once, so a plain {@code terminate()} costs no thread hop.
 */
public final class CoordinatedShutdownImpl extends CoordinatedShutdown {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinatedShutdown.class);
  private static final Done DONE = Done.getInstance();

  private final String systemName;
  private final BooleanSupplier systemTerminating;
  private final ShutdownSettings settings;
  private final Executor executor;
  private final Map<String, Integer> index = new HashMap<>();
  private final List<List<Task>> tasks = new ArrayList<>(); // per phase; guarded by this
  private int started = -1; // the latest phase that started; guarded by this
  private final AtomicReference<Reason> reason = new AtomicReference<>();
  private final CompletableFuture<Done> done = new CompletableFuture<>();
  private final CompletionStage<Done> result = done.minimalCompletionStage();
  private final CompletableFuture<Void> threadsStopped = new CompletableFuture<>();
  private final CompletableFuture<Void> callbacksRun = new CompletableFuture<>();

  /**
   * The shutdown of one system.
   *
   * @param systemName the system's name, for logs and the JVM hook
   * @param terminateNow stops the system's actors and threads (the last phase's task)
   * @param systemTerminating whether the system's termination has begun (the run ends after the
   *     current phase then)
   * @param settings {@code troupe.coordinated-shutdown}, parsed
   * @param executor where the next phase starts, until it rejects work
   */
  public CoordinatedShutdownImpl(
      String systemName,
      Supplier<? extends CompletionStage<?>> terminateNow,
      BooleanSupplier systemTerminating,
      ShutdownSettings settings,
      Executor executor) {
    this.systemName = systemName;
    this.systemTerminating = systemTerminating;
    this.settings = settings;
    this.executor = executor;
    for (ShutdownSettings.Phase p : settings.phases()) {
      index.put(p.name(), tasks.size());
      tasks.add(new ArrayList<>(2));
    }
    if (settings.terminateActorSystem()) {
      addTask(
          PHASE_ACTOR_SYSTEM_TERMINATE,
          "terminate-actor-system",
          () -> terminateNow.get().thenApply(t -> DONE));
    }
    if (settings.runByJvmShutdownHook() && !JvmShutdownHook.register(this)) {
      LOG.debug("actor system {} started while the JVM shuts down: no shutdown hook", systemName);
    }
  }

  String systemName() {
    return systemName;
  }

  /**
   * Called by the system once its actors have stopped and its threads are shut down, before its
   * termination callbacks: the JVM hook no longer needs to wait for it.
   */
  public void systemStopped() {
    JvmShutdownHook.unregister(this);
    threadsStopped.complete(null);
  }

  /** @return completes when the run is over or the system's threads have stopped, if earlier */
  CompletableFuture<?> overForJvmExit() {
    return CompletableFuture.anyOf(done, threadsStopped);
  }

  /**
   * @return completes once the system's termination callbacks have run; the JVM hook waits for it
   *     a short while after {@link #overForJvmExit}, so that the callbacks run before the JVM
   *     exits (not for ever: a callback that calls {@code System.exit} waits for the JVM hook)
   */
  CompletableFuture<Void> callbacksRun() {
    return callbacksRun;
  }

  /** Called by the system after its termination callbacks ran. */
  public void callbacksDone() {
    callbacksRun.complete(null);
  }

  // ================================================================ API

  @Override
  public Cancellable addTask(
      String phase, String taskName, Supplier<? extends CompletionStage<Done>> task) {
    Objects.requireNonNull(task, "task");
    if (taskName == null || taskName.isBlank()) {
      throw new IllegalArgumentException("a coordinated shutdown task needs a non-blank name");
    }
    int i = indexOf(phase);
    Task t = new Task(i, taskName, task);
    synchronized (this) {
      if (started >= i) {
        throw new IllegalStateException(
            "coordinated shutdown of actor system "
                + systemName
                + " has already started phase '"
                + phase
                + "'; task '"
                + taskName
                + "' would never run and was not added");
      }
      tasks.get(i).add(t);
    }
    return t;
  }

  @Override
  public CompletionStage<Done> runAll(Reason why) {
    Objects.requireNonNull(why, "reason");
    if (reason.compareAndSet(null, why)) {
      LOG.debug("coordinated shutdown of actor system {} starts, reason: {}", systemName, why);
      runFrom(0);
    }
    return result;
  }

  @Override
  public Optional<Reason> getShutdownReason() {
    return Optional.ofNullable(reason.get());
  }

  @Override
  public List<String> phases() {
    return settings.phases().stream().map(ShutdownSettings.Phase::name).toList();
  }

  @Override
  public Duration timeout(String phase) {
    return settings.phases().get(indexOf(phase)).timeout();
  }

  @Override
  public Duration totalTimeout() {
    return settings.totalTimeout();
  }

  private int indexOf(String phase) {
    Integer i = phase == null ? null : index.get(phase);
    if (i == null) {
      throw new IllegalArgumentException(
          "unknown coordinated shutdown phase '" + phase + "'; the phases are " + phases());
    }
    return i;
  }

  @Override
  public String toString() {
    return "CoordinatedShutdown[" + systemName + "]";
  }

  // ================================================================ the run

  /** Runs phase {@code first} and those after it; returns when one has tasks in flight. */
  private void runFrom(int first) {
    for (int i = first; i < tasks.size(); i++) {
      List<Task> run;
      synchronized (this) {
        started = i;
        run = List.copyOf(tasks.get(i));
      }
      if (!run.isEmpty()) {
        runPhase(i, run);
        return;
      }
    }
    done.complete(DONE);
  }

  private void runPhase(int i, List<Task> run) {
    ShutdownSettings.Phase phase = settings.phases().get(i);
    CompletableFuture<?>[] results = new CompletableFuture<?>[run.size()];
    for (int k = 0; k < results.length; k++) {
      results[k] = new CompletableFuture<Done>();
    }
    CompletableFuture<Void> all =
        CompletableFuture.allOf(results)
            .orTimeout(phase.timeout().toNanos(), TimeUnit.NANOSECONDS);
    all.whenComplete((v, failure) -> phaseOver(i, run, results, failure));
    for (int k = 0; k < results.length; k++) {
      start(phase, run.get(k), results[k]);
    }
  }

  @SuppressWarnings("unchecked")
  private void start(ShutdownSettings.Phase phase, Task task, CompletableFuture<?> result) {
    CompletableFuture<Done> r = (CompletableFuture<Done>) result;
    CompletionStage<Done> stage;
    try {
      stage = task.supplier.get();
      if (stage == null) {
        throw new NullPointerException("the task returned null instead of a CompletionStage");
      }
    } catch (Throwable t) {
      stage = CompletableFuture.failedStage(t);
    }
    stage.whenComplete(
        (d, failure) -> {
          if (failure == null) {
            r.complete(DONE);
          } else {
            Throwable cause = failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure;
            LOG.warn(
                "coordinated shutdown of actor system {}: task '{}' of phase '{}' failed",
                systemName,
                task.name,
                phase.name(),
                cause);
            r.completeExceptionally(cause);
          }
        });
  }

  private void phaseOver(int i, List<Task> run, CompletableFuture<?>[] results, Throwable failure) {
    ShutdownSettings.Phase phase = settings.phases().get(i);
    if (failure instanceof TimeoutException) {
      List<String> pending = new ArrayList<>();
      for (int k = 0; k < results.length; k++) {
        if (!results[k].isDone()) {
          pending.add(run.get(k).name);
        }
      }
      LOG.warn(
          "coordinated shutdown of actor system {}: phase '{}' timed out after {} ms; tasks not done: {}",
          systemName,
          phase.name(),
          phase.timeout().toMillis(),
          pending);
    }
    if (failure != null && !phase.recover()) {
      LOG.error(
          "coordinated shutdown of actor system {} ends at phase '{}' (recover = off); later phases do not run",
          systemName,
          phase.name());
      done.completeExceptionally(
          new IllegalStateException(
              "coordinated shutdown of actor system " + systemName + " failed in phase '" + phase.name() + "'",
              failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure));
      return;
    }
    if (i + 1 == tasks.size() || systemTerminating.getAsBoolean()) {
      runFrom(i + 1); // nothing left to run, or the threads are going: no hop to the dispatcher
      return;
    }
    try {
      executor.execute(() -> runFrom(i + 1));
    } catch (RejectedExecutionException shutDown) {
      runFrom(i + 1);
    }
  }

  /** A task added to a phase; cancelling it before the phase starts removes it. */
  private final class Task implements Cancellable {
    final int phase;
    final String name;
    final Supplier<? extends CompletionStage<Done>> supplier;
    private boolean cancelled; // guarded by the outer object

    Task(int phase, String name, Supplier<? extends CompletionStage<Done>> supplier) {
      this.phase = phase;
      this.name = name;
      this.supplier = supplier;
    }

    @Override
    public boolean cancel() {
      synchronized (CoordinatedShutdownImpl.this) {
        if (cancelled || started >= phase) {
          return false;
        }
        cancelled = true;
        return tasks.get(phase).remove(this);
      }
    }

    @Override
    public boolean isCancelled() {
      synchronized (CoordinatedShutdownImpl.this) {
        return cancelled;
      }
    }

    @Override
    public String toString() {
      return "Task[" + name + "]";
    }
  }
}
