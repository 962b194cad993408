package dev.troupe.actor.internal.dispatch;

import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dispatchers and mailbox types of one actor system, created on first use of their id and
 * cached: config is parsed once per id, never on the message path.
 */
public final class Dispatchers {
  private final Config config;
  private final String systemName;
  private final boolean daemon;
  private final Thread.UncaughtExceptionHandler onError;
  private final ConcurrentHashMap<String, Dispatcher> dispatchers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, MailboxType> mailboxes = new ConcurrentHashMap<>();
  private volatile boolean shutdown;
  private dev.troupe.actor.internal.telemetry.SystemTelemetry telemetry; // set before first lookup
  /** The system's scheduler for the starvation watches; null until the system has made it. */
  private volatile dev.troupe.actor.Scheduler scheduler;
  private final org.slf4j.Logger log;

  /**
   * @param config the system's full configuration
   * @param systemName used in thread names
   * @param daemon whether dispatcher threads are daemons
   * @param onError receives failures that escaped a mailbox run
   */
  public Dispatchers(
      Config config, String systemName, boolean daemon, Thread.UncaughtExceptionHandler onError) {
    this.config = config;
    this.systemName = systemName;
    this.daemon = daemon;
    this.onError = onError;
    this.log = org.slf4j.LoggerFactory.getLogger("dev.troupe.actor." + systemName);
  }

  /**
   * Hands the system's scheduler to the starvation watches (the dispatchers exist before it).
   *
   * @param s the scheduler
   */
  public void scheduler(dev.troupe.actor.Scheduler s) {
    this.scheduler = s;
  }

  /**
   * Gives every dispatcher created from now on its telemetry; called by the system before it
   * looks up its first dispatcher, and only when telemetry is on.
   *
   * @param t the system's telemetry
   */
  public synchronized void telemetry(dev.troupe.actor.internal.telemetry.SystemTelemetry t) {
    this.telemetry = t;
  }

  /** A pool's team counts under its base dispatcher: teams come and go with their pools. */
  private Dispatcher observed(Dispatcher d, String telemetryId) {
    if (telemetry != null) {
      d.telemetry = telemetry.dispatcher(telemetryId);
    }
    return d;
  }

  /** @return the default dispatcher */
  public Dispatcher defaultDispatcher() {
    return lookup(DispatcherSettings.DEFAULT_ID);
  }

  /**
   * The dispatcher configured at {@code id}, created on first use.
   *
   * @param id the config path
   * @return the dispatcher
   * @throws dev.troupe.actor.ConfigurationException if unknown or malformed
   */
  public Dispatcher lookup(String id) {
    Dispatcher d = dispatchers.get(id);
    if (d != null) {
      return d;
    }
    synchronized (this) { // creation only: starts threads once per id
      d = dispatchers.get(id);
      if (d == null) {
        if (shutdown) {
          throw new IllegalStateException("actor system " + systemName + " is terminated");
        }
        DispatcherSettings s = DispatcherSettings.from(config, id);
        StarvationWatch watch =
            s.starvationWarningAfter().isZero() ? null : new StarvationWatch(id, s.starvationWarningAfter(), log, () -> scheduler);
        d = observed(Dispatcher.create(s, systemName + "-" + id, daemon, onError, watch), id);
        dispatchers.put(id, d);
      }
      return d;
    }
  }

  /**
   * The team a {@code BalancingPool}'s routees share: a {@link BalancingDispatcher} of its own on
   * the threads of the dispatcher {@code baseId} (no threads of its own), registered under {@code
   * teamId} so that routees created with that id join it, until {@link #releaseTeam}. If {@code
   * baseId} is itself a BalancingDispatcher, the routees join that team instead.
   *
   * @param baseId the routees' configured dispatcher id, or null for the default dispatcher
   * @param teamId a unique id for the new team (not a config path)
   * @return the id the routees must use: {@code teamId}, or {@code baseId} for a configured team
   * @throws dev.troupe.actor.ConfigurationException if the base dispatcher is unknown or malformed,
   *     or of a kind that cannot host a team (pinned, calling-thread)
   */
  public String balancingTeam(String baseId, String teamId) {
    String id = baseId == null ? DispatcherSettings.DEFAULT_ID : baseId;
    Dispatcher base = lookup(id);
    if (base instanceof BalancingDispatcher) {
      return id;
    }
    if (base.getClass() != Dispatcher.class) {
      throw new ConfigurationException(
          "a BalancingPool's routees share a queue on a pool of threads, but dispatcher " + id
              + " is a " + base.getClass().getSimpleName()
              + "; give the routees a dispatcher of type Dispatcher or BalancingDispatcher");
    }
    synchronized (this) {
      if (shutdown) {
        throw new IllegalStateException("actor system " + systemName + " is terminated");
      }
      if (dispatchers.putIfAbsent(teamId, observed(new BalancingDispatcher(teamId, base), id)) != null) {
        throw new IllegalStateException("dispatcher id " + teamId + " is taken");
      }
    }
    return teamId;
  }

  /**
   * Forgets a team made by {@link #balancingTeam} once its pool has stopped (its mailboxes keep
   * their reference; the executor belongs to the base dispatcher and keeps running).
   *
   * @param teamId the team's id
   */
  public void releaseTeam(String teamId) {
    dispatchers.computeIfPresent(teamId, (k, d) -> d instanceof BalancingDispatcher b && b.isPoolTeam() ? null : d);
  }

  /**
   * The mailbox type configured at {@code id}.
   *
   * @param id the config path, e.g. {@code bounded-mailbox}
   * @return the type
   * @throws dev.troupe.actor.ConfigurationException if unknown or malformed
   */
  public MailboxType mailboxType(String id) {
    MailboxType t = mailboxes.get(id);
    if (t == null) {
      t = MailboxType.from(id, DispatcherSettings.section(config, id, "mailbox"));
      mailboxes.putIfAbsent(id, t);
    }
    return t;
  }

  /** Shuts every dispatcher down; their threads exit after their current batch. */
  public synchronized void shutdown() {
    shutdown = true;
    for (Dispatcher d : dispatchers.values()) {
      d.shutdown();
    }
  }

  /** @return the dispatchers created so far */
  public synchronized List<Dispatcher> all() {
    return new ArrayList<>(dispatchers.values());
  }
}
