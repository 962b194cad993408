package dev.troupe.actor;

import dev.troupe.actor.spi.SystemSpi;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Stops a system in ordered phases, so that a service can unbind, finish its requests and close
 * its resources before its actors are stopped. There is one per system: {@link #get(ActorSystem)}.
 *
 * <pre>{@code
 * CoordinatedShutdown cs = CoordinatedShutdown.get(system);
 * cs.addTask(CoordinatedShutdown.PHASE_SERVICE_UNBIND, "http-unbind", () -> server.unbind());
 * cs.runAll(CoordinatedShutdown.unknownReason()); // or system.terminate(), or SIGTERM
 * }</pre>
 *
 * <p>The built-in phases run in this order: {@value #PHASE_BEFORE_SERVICE_UNBIND}, {@value
 * #PHASE_SERVICE_UNBIND}, {@value #PHASE_SERVICE_REQUESTS_DONE}, {@value #PHASE_SERVICE_STOP},
 * {@value #PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE}, {@value #PHASE_ACTOR_SYSTEM_TERMINATE}. Phases
 * are configured under {@code troupe.coordinated-shutdown.phases}: a phase runs after every phase
 * its {@code depends-on} names, so a module or an application adds a phase of its own by naming
 * what it follows (and, to run before a built-in phase, by adding itself to that phase's {@code
 * depends-on}).
 *
 * <p>The tasks of one phase run concurrently; the next phase starts when all of them have
 * completed or the phase's {@code timeout} has passed. A task that fails, throws or times out is
 * logged, naming the phase and the task, and the shutdown goes on; a phase configured with {@code
 * recover = off} instead ends the shutdown there (the stage of {@link #runAll} fails, and later
 * phases do not run). The last phase, {@value #PHASE_ACTOR_SYSTEM_TERMINATE}, terminates the
 * system when {@code terminate-actor-system = on} (the default).
 *
 * <p>It runs on the first of: {@link #runAll}, {@link ActorSystem#terminate()} (reason {@link
 * ActorSystemTerminateReason}), or the JVM's shutdown (SIGTERM, {@code System.exit}, the end of
 * {@code main}; reason {@link JvmExitReason}) when {@code run-by-jvm-shutdown-hook = on} (the
 * default). The JVM waits for it at most the sum of the phase timeouts.
 */
public abstract class CoordinatedShutdown {

  /** The first phase; for tasks that must run before anything is unbound. */
  public static final String PHASE_BEFORE_SERVICE_UNBIND = "before-service-unbind";

  /** Stop accepting new requests: unbind ports, leave load balancers. */
  public static final String PHASE_SERVICE_UNBIND = "service-unbind";

  /** Wait for the requests in flight to be answered. */
  public static final String PHASE_SERVICE_REQUESTS_DONE = "service-requests-done";

  /** Stop the service's own resources (connections, pools). */
  public static final String PHASE_SERVICE_STOP = "service-stop";

  /** The last phase in which the whole system still runs. */
  public static final String PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE = "before-actor-system-terminate";

  /** The system's actors are stopped and its threads shut down. */
  public static final String PHASE_ACTOR_SYSTEM_TERMINATE = "actor-system-terminate";

  /** For the runtime's implementation. */
  protected CoordinatedShutdown() {}

  // The phases by the names of Pekko's Java API, for code moving from it.

  /** @return {@link #PHASE_BEFORE_SERVICE_UNBIND} */
  public static String PhaseBeforeServiceUnbind() {
    return PHASE_BEFORE_SERVICE_UNBIND;
  }

  /** @return {@link #PHASE_SERVICE_UNBIND} */
  public static String PhaseServiceUnbind() {
    return PHASE_SERVICE_UNBIND;
  }

  /** @return {@link #PHASE_SERVICE_REQUESTS_DONE} */
  public static String PhaseServiceRequestsDone() {
    return PHASE_SERVICE_REQUESTS_DONE;
  }

  /** @return {@link #PHASE_SERVICE_STOP} */
  public static String PhaseServiceStop() {
    return PHASE_SERVICE_STOP;
  }

  /** @return {@link #PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE} */
  public static String PhaseBeforeActorSystemTerminate() {
    return PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE;
  }

  /** @return {@link #PHASE_ACTOR_SYSTEM_TERMINATE} */
  public static String PhaseActorSystemTerminate() {
    return PHASE_ACTOR_SYSTEM_TERMINATE;
  }

  /**
   * The coordinated shutdown of a system; the same instance on every call.
   *
   * @param system the system
   * @return its coordinated shutdown
   */
  public static CoordinatedShutdown get(ActorSystem system) {
    Objects.requireNonNull(system, "system");
    if (!(system instanceof SystemSpi s)) {
      throw new IllegalArgumentException(
          "not a system of the Troupe runtime: " + system.getClass().getName());
    }
    return s.coordinatedShutdown();
  }

  /**
   * Adds a task to a phase. The task is called when its phase starts, on a thread of the system
   * (or the caller's thread once the system's threads have stopped); the phase waits for the
   * returned stage. A task that throws, returns {@code null} or a failed stage counts as failed.
   *
   * @param phase a configured phase, e.g. {@link #PHASE_SERVICE_UNBIND}
   * @param taskName a non-blank name, used in log lines
   * @param task starts the work and returns its completion
   * @return a handle whose {@code cancel()} removes the task, if its phase has not started yet
   * @throws IllegalArgumentException if no phase of that name is configured, or the name is blank
   * @throws IllegalStateException naming the phase and task, if the phase has already started: a
   *     task added that late would never run
   */
  public abstract Cancellable addTask(
      String phase, String taskName, Supplier<? extends CompletionStage<Done>> task);

  /**
   * Runs all phases, once. Every call returns the stage of the first one; only the first call's
   * reason is kept.
   *
   * @param reason why the system shuts down
   * @return completed with {@link Done} when the last phase is over; failed when a phase with
   *     {@code recover = off} had a failed task
   */
  public abstract CompletionStage<Done> runAll(Reason reason);

  /** @return the reason of the shutdown, once one has started */
  public abstract Optional<Reason> getShutdownReason();

  /** @return the configured phases, in the order they run */
  public abstract List<String> phases();

  /**
   * The configured timeout of a phase.
   *
   * @param phase the phase
   * @return its timeout
   * @throws IllegalArgumentException if no phase of that name is configured
   */
  public abstract Duration timeout(String phase);

  /** @return the sum of all phase timeouts: how long a full shutdown takes at most */
  public abstract Duration totalTimeout();

  /**
   * Why a system shuts down. Applications may define their own (e.g. a record implementing this
   * interface); the well-known ones are {@link UnknownReason}, {@link JvmExitReason} and {@link
   * ActorSystemTerminateReason}.
   */
  public interface Reason {}

  /** No particular reason was given. */
  public record UnknownReason() implements Reason {}

  /** The JVM is shutting down (SIGTERM, {@code System.exit} or the end of the program). */
  public record JvmExitReason() implements Reason {}

  /** {@link ActorSystem#terminate()} was called. */
  public record ActorSystemTerminateReason() implements Reason {}

  private static final Reason UNKNOWN = new UnknownReason();
  private static final Reason JVM_EXIT = new JvmExitReason();
  private static final Reason SYSTEM_TERMINATE = new ActorSystemTerminateReason();

  /** @return the reason given when there is no particular one */
  public static Reason unknownReason() {
    return UNKNOWN;
  }

  /** @return the reason of a shutdown run by the JVM's shutdown hook */
  public static Reason jvmExitReason() {
    return JVM_EXIT;
  }

  /** @return the reason of a shutdown run by {@link ActorSystem#terminate()} */
  public static Reason actorSystemTerminateReason() {
    return SYSTEM_TERMINATE;
  }
}
