package dev.troupe.bench.executors;

/**
 * The executor families both frameworks offer, as spelled in the {@code executor} parameter, and
 * the dispatcher keys that give each a fixed number of threads.
 */
public enum ExecutorKind {
  AFFINITY("affinity", "affinity-pool-executor"),
  FORK_JOIN("fork-join", "fork-join-executor"),
  THREAD_POOL("thread-pool", "thread-pool-executor");

  private final String id;
  private final String configName;

  ExecutorKind(String id, String configName) {
    this.id = id;
    this.configName = configName;
  }

  /**
   * @param id {@code affinity}, {@code fork-join} or {@code thread-pool}
   * @return the kind
   */
  public static ExecutorKind of(String id) {
    for (ExecutorKind k : values()) {
      if (k.id.equals(id)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "unknown executor '" + id + "': expected affinity, fork-join or thread-pool");
  }

  /**
   * @return the parameter spelling
   */
  public String id() {
    return id;
  }

  /**
   * Keys for a dispatcher section selecting this executor with exactly {@code threads} threads.
   * Both frameworks spell the affinity and fork-join keys alike; for the thread pool Pekko has
   * {@code fixed-pool-size}, Troupe the core-pool-size triple of its {@code reference.conf}.
   *
   * @param threads the pool size
   * @param pekko whether the section is for Pekko
   * @return HOCON lines
   */
  public String hocon(int threads, boolean pekko) {
    String pool;
    if (this == THREAD_POOL) {
      pool =
          pekko
              ? "fixed-pool-size = " + threads
              : "core-pool-size-min = "
                  + threads
                  + ", core-pool-size-factor = 1.0, core-pool-size-max = "
                  + threads;
    } else {
      pool =
          "parallelism-min = "
              + threads
              + ", parallelism-factor = 1.0, parallelism-max = "
              + threads;
    }
    return "executor = " + configName + "\n" + configName + " { " + pool + " }\n";
  }
}
