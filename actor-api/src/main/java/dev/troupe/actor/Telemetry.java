package dev.troupe.actor;

import dev.troupe.actor.spi.TelemetrySource;
import java.util.List;

/**
 * What an actor system has done, counted by the runtime: per dispatcher, per actor class and, for
 * the actor paths that opt in, per actor. Switched on with {@code troupe.telemetry.enabled = on};
 * switched off (the default) it costs nothing on the message path and {@link #snapshot()} reports
 * {@code enabled = false} and nothing else.
 *
 * <pre>{@code
 * Telemetry.Snapshot s = Telemetry.get(system).snapshot();
 * for (Telemetry.DispatcherStats d : s.dispatchers()) {
 *   System.out.println(d.id() + ": " + d.messagesProcessed() + " messages, p99 wait "
 *       + d.schedulingDelay().p99() + " ns");
 * }
 * }</pre>
 *
 * <p>Counts (messages, mailbox runs, restarts, dead letters) are exact once the system is quiet:
 * a mailbox adds its messages when its run ends, so a count read while actors run may trail by
 * the runs in progress. Times and mailbox depths are sampled (one run and one message in {@code
 * troupe.telemetry.sample-every}) and summarized with a log-linear histogram whose percentiles are
 * accurate to within an eighth of the value. The same figures are published as JMX MBeans under
 * the domain {@code dev.troupe} (see the user guide).
 */
public interface Telemetry {

  /**
   * The telemetry of a system.
   *
   * @param system the actor system
   * @return its telemetry; a disabled one for a system whose runtime has none
   */
  static Telemetry get(ActorSystem system) {
    if (system instanceof TelemetrySource s) {
      return s.telemetry();
    }
    return Disabled.INSTANCE;
  }

  /** @return whether the system collects telemetry ({@code troupe.telemetry.enabled}) */
  boolean enabled();

  /**
   * Reads the counters and histograms now. Not on any message path: it walks the live actors'
   * counters, so call it at a monitoring rate, not per message.
   *
   * @return an immutable snapshot
   */
  Snapshot snapshot();

  /**
   * Everything a system counted, at one moment.
   *
   * @param enabled whether telemetry is on; when off, every other component is zero or empty
   * @param sampleEvery one mailbox run and one message in this many is timed
   * @param deadLetters messages published to dead letters since the system started
   * @param restarts actor restarts since the system started
   * @param dispatchers one entry per dispatcher that has run actors
   * @param actorClasses one entry per actor class (all dispatchers together)
   * @param actors one entry per live actor whose path matches {@code troupe.telemetry.actor-paths}
   */
  record Snapshot(
      boolean enabled,
      int sampleEvery,
      long deadLetters,
      long restarts,
      List<DispatcherStats> dispatchers,
      List<ActorClassStats> actorClasses,
      List<ActorStats> actors) {
    /** Copies the lists, so the snapshot stays immutable. */
    public Snapshot {
      dispatchers = List.copyOf(dispatchers);
      actorClasses = List.copyOf(actorClasses);
      actors = List.copyOf(actors);
    }

    /**
     * @param id a dispatcher id
     * @return its entry, or null if it has run no actor
     */
    public DispatcherStats dispatcher(String id) {
      return dispatchers.stream().filter(d -> d.id().equals(id)).findFirst().orElse(null);
    }

    /**
     * @param actorClass an actor class
     * @return its entry, or null if no actor of it was created
     */
    public ActorClassStats actorClass(Class<?> actorClass) {
      String n = actorClass.getName();
      return actorClasses.stream().filter(c -> c.className().equals(n)).findFirst().orElse(null);
    }

    /**
     * @param path an actor's path without address, e.g. {@code /user/orders/o1}
     * @return its entry, or null if it is not opted in or not alive
     */
    public ActorStats actor(String path) {
      return actors.stream().filter(a -> a.path().equals(path)).findFirst().orElse(null);
    }
  }

  /**
   * One dispatcher: the actors it runs, all classes together.
   *
   * @param id the dispatcher's config id
   * @param messagesProcessed user messages its actors processed
   * @param mailboxRuns mailbox runs (a run processes up to {@code throughput} messages)
   * @param schedulingDelay nanoseconds from a mailbox being scheduled to its run starting: how long
   *     the message that woke an idle actor waited for a thread (sampled runs)
   * @param processingTime nanoseconds an actor spent on one message (sampled messages)
   * @param mailboxDepth user messages queued when a sampled run started; only with {@code
   *     troupe.telemetry.mailbox-depth = on} (it costs an atomic per send), else empty; mailboxes
   *     with a queue of their own only, not a balancing team's shared queue
   */
  record DispatcherStats(
      String id,
      long messagesProcessed,
      long mailboxRuns,
      Summary schedulingDelay,
      Summary processingTime,
      Summary mailboxDepth) {}

  /**
   * One actor class, over every actor of it on every dispatcher, stopped ones included.
   *
   * @param className the class's binary name
   * @param messagesProcessed user messages its actors processed
   * @param restarts restarts of its actors
   * @param processingTime nanoseconds per message (sampled messages)
   */
  record ActorClassStats(
      String className, long messagesProcessed, long restarts, Summary processingTime) {}

  /**
   * One live actor that opted in by path.
   *
   * @param path the actor's path without address
   * @param className its class's binary name
   * @param dispatcher its dispatcher's id
   * @param messagesProcessed user messages it processed
   * @param mailboxRuns its mailbox's runs
   * @param restarts its restarts
   * @param schedulingDelay as for {@link DispatcherStats#schedulingDelay()}, this actor only
   * @param processingTime as for {@link DispatcherStats#processingTime()}, this actor only
   * @param mailboxDepth as for {@link DispatcherStats#mailboxDepth()}, this actor only
   */
  record ActorStats(
      String path,
      String className,
      String dispatcher,
      long messagesProcessed,
      long mailboxRuns,
      long restarts,
      Summary schedulingDelay,
      Summary processingTime,
      Summary mailboxDepth) {}

  /**
   * A distribution summarized: nanoseconds for times, messages for depths. Percentiles are the
   * upper edge of their histogram bucket (at most an eighth above the true value), capped at the
   * maximum seen.
   *
   * @param samples values recorded
   * @param p50 median
   * @param p90 90th percentile
   * @param p99 99th percentile
   * @param max largest value
   */
  record Summary(long samples, long p50, long p90, long p99, long max) {
    /** No samples. */
    public static final Summary EMPTY = new Summary(0, 0, 0, 0, 0);
  }

  /** The telemetry of a system that collects none. */
  final class Disabled implements Telemetry {
    /** The one instance. */
    public static final Disabled INSTANCE = new Disabled();

    private static final Snapshot EMPTY =
        new Snapshot(false, 0, 0, 0, List.of(), List.of(), List.of());

    private Disabled() {}

    @Override
    public boolean enabled() {
      return false;
    }

    @Override
    public Snapshot snapshot() {
      return EMPTY;
    }
  }
}
