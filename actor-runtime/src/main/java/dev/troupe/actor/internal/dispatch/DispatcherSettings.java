package dev.troupe.actor.internal.dispatch;

import dev.troupe.runtime.spi.ConfigReader;
import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.executors.AffinityPool;
import dev.troupe.executors.BusySpinIdleStrategy;
import dev.troupe.executors.ExecutorFactories;
import dev.troupe.executors.NamedThreadFactory;
import dev.troupe.executors.RejectionHandler;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * A dispatcher section parsed and validated once: every key falls back to {@code
 * troupe.actor.default-dispatcher}, and every error names the full key.
 *
 * @param id the section's path
 * @param type the dispatcher kind: {@code Dispatcher}, {@code PinnedDispatcher}, {@code
 *     BalancingDispatcher} or {@code CallingThreadDispatcher}
 * @param executor which executor backs it: {@code affinity-pool-executor}, {@code
 *     fork-join-executor}, {@code thread-pool-executor} or {@code virtual-thread-executor} (JDK 21+)
 * @param throughput messages per mailbox run, {@code >= 1}
 * @param throughputDeadline time limit of a run, zero for none
 * @param executorConfig the chosen executor's own section
 * @param starvationWarningAfter how long every thread of an affinity pool may be inside one
 *     actor's turn before a warning says the dispatcher is starved ({@link StarvationWatch}); zero
 *     for never
 */
public record DispatcherSettings(
    String id,
    String type,
    String executor,
    int throughput,
    Duration throughputDeadline,
    Config executorConfig,
    Duration starvationWarningAfter) {

  /** Settings without a starvation warning (tests that build a dispatcher by hand). */
  public DispatcherSettings(
      String id, String type, String executor, int throughput, Duration throughputDeadline, Config executorConfig) {
    this(id, type, executor, throughput, throughputDeadline, executorConfig, Duration.ZERO);
  }

  /** The id of the default dispatcher. */
  public static final String DEFAULT_ID = "troupe.actor.default-dispatcher";

  /** The dispatcher kinds, as spelled in {@code type}. */
  static final java.util.List<String> TYPES =
      java.util.List.of(
          Dispatcher.TYPE,
          PinnedDispatcher.TYPE,
          BalancingDispatcher.TYPE,
          CallingThreadDispatcher.TYPE);

  static final String AFFINITY = "affinity-pool-executor";
  static final String FORK_JOIN = "fork-join-executor";
  static final String THREAD_POOL = "thread-pool-executor";
  static final String VIRTUAL = "virtual-thread-executor";

  /**
   * Parses the dispatcher section at {@code id}.
   *
   * @param root the system's full configuration
   * @param id the dispatcher's config path
   * @return the settings
   * @throws ConfigurationException if there is no such section or a value is malformed
   */
  public static DispatcherSettings from(Config root, String id) {
    Config section = section(root, id, "dispatcher");
    Config full = section.withFallback(root.getConfig(DEFAULT_ID));
    String type = ConfigReader.string(full, id, "type");
    if (!TYPES.contains(type)) {
      throw new ConfigurationException(
          "invalid configuration value at '" + id + ".type': unknown dispatcher type '" + type
              + "', expected one of " + String.join(", ", TYPES));
    }
    String executor = ConfigReader.string(full, id, "executor");
    if (!executor.equals(AFFINITY) && !executor.equals(FORK_JOIN) && !executor.equals(THREAD_POOL)
        && !executor.equals(VIRTUAL)) {
      throw new ConfigurationException(
          "unknown executor '" + executor + "' at " + id + ".executor: expected " + AFFINITY + ", "
              + FORK_JOIN + ", " + THREAD_POOL + " or " + VIRTUAL);
    }
    int throughput = ConfigReader.intAtLeast(full, id, "throughput", 1);
    Duration deadline = ConfigReader.durationAtLeastZero(full, id, "throughput-deadline-time");
    Config exec;
    if (executor.equals(VIRTUAL)) {
      // Dispatchers are created on first use: an actorOf with this one is the earliest point that
      // leaves systems alone which only define it (a shared config) on an older JDK.
      VirtualThreads.check(id);
      exec = com.typesafe.config.ConfigFactory.empty(); // no keys of its own
    } else {
      try {
        exec = full.getConfig(executor);
      } catch (com.typesafe.config.ConfigException e) {
        throw new ConfigurationException("invalid section at '" + id + "." + executor + "'", e);
      }
    }
    Duration starvation = ConfigReader.durationAtLeastZero(full, id, "starvation-warning-after");
    DispatcherSettings s = new DispatcherSettings(id, type, executor, throughput, deadline, exec, starvation);
    s.validateExecutor();
    return s;
  }

  /**
   * Finds a section by id: the exact path, or the same path under {@code troupe.actor}.
   *
   * @param root the full configuration
   * @param id the id
   * @param what "dispatcher" or "mailbox", for the error message
   * @return the section
   */
  static Config section(Config root, String id, String what) {
    if (id == null || id.isEmpty()) {
      throw new ConfigurationException("empty " + what + " id");
    }
    try {
      if (root.hasPath(id) && root.getValue(id).valueType() == com.typesafe.config.ConfigValueType.OBJECT) {
        return root.getConfig(id);
      }
      String nested = "troupe.actor." + id;
      if (root.hasPath(nested)) {
        return root.getConfig(nested);
      }
    } catch (com.typesafe.config.ConfigException e) {
      throw new ConfigurationException("invalid " + what + " id '" + id + "'", e);
    }
    throw new ConfigurationException(
        "unknown " + what + " id '" + id + "': no config section at '" + id + "'");
  }

  private void validateExecutor() {
    String path = id + "." + executor;
    switch (executor) {
      case AFFINITY -> {
        ConfigReader.scaledPoolSize(executorConfig, path, "parallelism");
        ConfigReader.intAtLeast(executorConfig, path, "task-queue-size", 1);
        rejectionHandler(path);
        int level = ConfigReader.intAtLeast(executorConfig, path, "idle-cpu-level", 1);
        if (level > 10) {
          throw new ConfigurationException(
              "invalid configuration value at '" + path + ".idle-cpu-level': must be 1..10, was " + level);
        }
        ConfigReader.intAtLeast(executorConfig, path, "fair-work-distribution.threshold", 0);
        busySpin(path);
      }
      case FORK_JOIN -> {
        ConfigReader.scaledPoolSize(executorConfig, path, "parallelism");
        taskPeekingFifo(path);
      }
      case VIRTUAL -> {}
      default -> {
        int core = ConfigReader.scaledPoolSize(executorConfig, path, "core-pool-size");
        int max = ConfigReader.scaledPoolSize(executorConfig, path, "max-pool-size");
        if (max < core) {
          throw new ConfigurationException(
              "invalid configuration value at '" + path + ".max-pool-size-max': the scaled maximum ("
                  + max + ") is below the scaled core size (" + core + ")");
        }
        ConfigReader.durationAtLeastZero(executorConfig, path, "keep-alive-time");
        ConfigReader.intAtLeast(executorConfig, path, "task-queue-size", -1);
      }
    }
  }

  private RejectionHandler rejectionHandler(String path) {
    String name = ConfigReader.string(executorConfig, path, "rejection-handler");
    return switch (name) {
      case "lossless" -> RejectionHandler.lossless();
      case "spill" -> RejectionHandler.spillToOverflow();
      default -> throw new ConfigurationException(
          "invalid configuration value at '" + path + ".rejection-handler': expected lossless or spill, was '"
              + name + "'");
    };
  }

  /** {@code idle-strategy}: whether idle workers busy-spin instead of backing off. */
  private boolean busySpin(String path) {
    String name = ConfigReader.string(executorConfig, path, "idle-strategy");
    return switch (name) {
      case "backoff" -> false;
      case "busy-spin" -> true;
      default -> throw new ConfigurationException(
          "invalid configuration value at '" + path + ".idle-strategy': expected backoff or busy-spin, was '"
              + name + "'");
    };
  }

  private boolean taskPeekingFifo(String path) {
    String mode = ConfigReader.string(executorConfig, path, "task-peeking-mode");
    return switch (mode) {
      case "FIFO" -> true;
      case "LIFO" -> false;
      default -> throw new ConfigurationException(
          "invalid configuration value at '" + path + ".task-peeking-mode': expected FIFO or LIFO, was '"
              + mode + "'");
    };
  }

  /**
   * Builds the executor these settings describe.
   *
   * @param threadNamePrefix {@code <system>-<id>}
   * @param daemon whether threads are daemons
   * @param onError where task failures go (they never kill a worker)
   * @return the executor
   */
  public ExecutorService newExecutor(
      String threadNamePrefix, boolean daemon, Thread.UncaughtExceptionHandler onError) {
    return newExecutor(threadNamePrefix, daemon, onError, null);
  }

  /**
   * Builds the executor these settings describe, with a starvation watch on an affinity pool.
   *
   * @param threadNamePrefix {@code <system>-<id>}
   * @param daemon whether threads are daemons
   * @param onError where task failures go (they never kill a worker)
   * @param watch watches the pool for starvation, or null (ignored by the other executors)
   * @return the executor
   */
  ExecutorService newExecutor(
      String threadNamePrefix, boolean daemon, Thread.UncaughtExceptionHandler onError, StarvationWatch watch) {
    String path = id + "." + executor;
    NamedThreadFactory threads = new NamedThreadFactory(threadNamePrefix, daemon);
    return switch (executor) {
      case AFFINITY -> {
        AffinityPool.Builder b = AffinityPool.builder()
            .parallelism(ConfigReader.scaledPoolSize(executorConfig, path, "parallelism"))
            .taskQueueSize(ConfigReader.intAtLeast(executorConfig, path, "task-queue-size", 1))
            .idleCpuLevel(ConfigReader.intAtLeast(executorConfig, path, "idle-cpu-level", 1))
            .fairDistributionThreshold(
                ConfigReader.intAtLeast(executorConfig, path, "fair-work-distribution.threshold", 0))
            .rejectionHandler(rejectionHandler(path))
            .threadFactory(threads)
            .errorHandler(t -> onError.uncaughtException(Thread.currentThread(), t));
        if (busySpin(path)) {
          b.idleStrategy(BusySpinIdleStrategy::new);
        }
        if (watch != null) {
          b.wakeListener(watch::onWake);
        }
        AffinityPool pool = b.build();
        if (watch != null) {
          watch.watch(pool);
        }
        yield pool;
      }
      case FORK_JOIN -> ExecutorFactories.forkJoin(
          ConfigReader.scaledPoolSize(executorConfig, path, "parallelism"),
          taskPeekingFifo(path),
          threadNamePrefix,
          daemon,
          onError);
      case VIRTUAL -> VirtualThreads.newExecutor(id, threadNamePrefix, onError);
      default -> {
        int core = ConfigReader.scaledPoolSize(executorConfig, path, "core-pool-size");
        int max = ConfigReader.scaledPoolSize(executorConfig, path, "max-pool-size");
        yield ExecutorFactories.threadPool(
            core,
            max,
            ConfigReader.durationAtLeastZero(executorConfig, path, "keep-alive-time"),
            ConfigReader.intAtLeast(executorConfig, path, "task-queue-size", -1),
            threads);
      }
    };
  }
}
