package dev.troupe.actor.internal.telemetry;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Telemetry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * One actor system's telemetry (issue 20), when {@code troupe.telemetry.enabled = on}. A system
 * with it off holds none: its dispatchers get no {@link DispatcherTelemetry}, its mailboxes no
 * {@link MailboxProbe}, and {@link Telemetry#get} answers {@link Telemetry.Disabled}.
 *
 * <p>Design: the message path pays per mailbox run, not per message. A run adds its message count
 * to its mailbox's probe once (an opaque store, no atomic); snapshots sum probes, so the cost of
 * aggregation falls on the reader, at a monitoring rate. Times are sampled one run and one message
 * in {@code sample-every} into shared atomic log-linear histograms ({@link LogHistogram}); the
 * mailbox depth (opt-in, {@code mailbox-depth = on}: it costs an atomic increment per send) is the
 * difference of two counters kept by a counting wrapper of the queue, read at a sampled run's start
 * (O(1), no scan). Dead letters come from the dead-letter ref's own counter;
 * restarts are counted where the supervisor restarts an actor.
 *
 * <p>Grouping: per dispatcher × actor class ({@link ActorGroup}), from which both the dispatcher
 * and the class figures are summed; actors whose path matches {@code actor-paths} also get an entry
 * of their own, for as long as they live.
 */
public final class SystemTelemetry implements Telemetry {
  /**
   * Who an actor is, for grouping.
   *
   * @param actorClassName what the actor is counted under ({@code Props.telemetryClassName()})
   * @param path its path
   */
  public record Identity(String actorClassName, ActorPath path) {}

  final String systemName;
  private final TelemetrySettings settings;
  private final Pattern paths;
  private final Function<Object, Identity> identify;
  private final LongSupplier deadLetters;
  private final ConcurrentHashMap<String, DispatcherTelemetry> dispatchers =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ActorClassTelemetry> classes = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, MailboxProbe> detailed = new ConcurrentHashMap<>();
  private final TelemetryJmx jmx;

  /**
   * @param systemName the system's name (JMX names)
   * @param settings parsed settings, enabled
   * @param identify tells a mailbox owner's class and path, or null for an owner that is no actor
   *     (it gets what the dispatcher passed to {@link DispatcherTelemetry#probe})
   * @param deadLetters the system's dead-letter count
   */
  public SystemTelemetry(
      String systemName,
      TelemetrySettings settings,
      Function<Object, Identity> identify,
      LongSupplier deadLetters) {
    this.systemName = systemName;
    this.settings = settings;
    this.paths = settings.pathMatcher();
    this.identify = identify;
    this.deadLetters = deadLetters;
    this.jmx = settings.jmx() ? new TelemetryJmx(this) : null;
  }

  /**
   * The telemetry of a dispatcher, created on first use of its id.
   *
   * @param id the dispatcher's id
   * @return its telemetry
   */
  public DispatcherTelemetry dispatcher(String id) {
    return dispatcherTelemetry(id);
  }

  int sampleEvery() {
    return settings.sampleEvery();
  }

  /** @return whether mailboxes count their queues for depth samples */
  public boolean countsDepth() {
    return settings.mailboxDepth();
  }

  private DispatcherTelemetry dispatcherTelemetry(String id) {
    DispatcherTelemetry d = dispatchers.get(id);
    if (d == null) {
      DispatcherTelemetry fresh = new DispatcherTelemetry(this, id);
      d = dispatchers.putIfAbsent(id, fresh);
      if (d == null) {
        d = fresh;
        if (jmx != null) {
          jmx.dispatcherAdded(id);
        }
      }
    }
    return d;
  }

  MailboxProbe newProbe(DispatcherTelemetry d, Object owner) {
    Identity who = identify.apply(owner);
    if (who == null) {
      return null;
    }
    String className = who.actorClassName();
    ActorClassTelemetry c = classes.get(className);
    if (c == null) {
      ActorClassTelemetry fresh = new ActorClassTelemetry(className);
      c = classes.putIfAbsent(className, fresh);
      if (c == null) {
        c = fresh;
        if (jmx != null) {
          jmx.actorClassAdded(className);
        }
      }
    }
    c.started.increment();
    ActorGroup g = d.group(c);
    ActorDetail detail = null;
    if (paths != null) {
      String path = who.path().toStringWithoutAddress();
      if (paths.matcher(path).matches()) {
        detail = new ActorDetail(path);
      }
    }
    MailboxProbe p = new MailboxProbe(g, detail, settings.sampleEvery(), settings.mailboxDepth());
    g.live.add(p);
    if (detail != null) {
      detailed.put(detail.path, p);
      if (jmx != null) {
        jmx.actorAdded(detail.path);
      }
    }
    return p;
  }

  /** An opted-in actor stopped: its entry goes. */
  void forget(MailboxProbe p) {
    if (detailed.remove(p.detail.path, p) && jmx != null) {
      jmx.actorRemoved(p.detail.path);
    }
  }

  /** Registers the MBeans of what exists so far; later ones register as they appear. */
  public void start() {
    if (jmx != null) {
      jmx.start();
    }
  }

  /** Unregisters the MBeans; called once the system has terminated. */
  public void close() {
    if (jmx != null) {
      jmx.close();
    }
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public Snapshot snapshot() {
    List<DispatcherStats> ds = new ArrayList<>();
    Map<String, long[]> classMessages = new HashMap<>();
    for (DispatcherTelemetry d : dispatchers.values()) {
      ds.add(dispatcherStats(d, classMessages));
    }
    ds.sort(Comparator.comparing(DispatcherStats::id));
    List<ActorClassStats> cs = new ArrayList<>();
    long restarts = 0;
    for (ActorClassTelemetry c : classes.values()) {
      long r = c.restarts.sum();
      restarts += r;
      long[] m = classMessages.get(c.className);
      cs.add(
          new ActorClassStats(
              c.className, m == null ? 0 : m[0], r, c.processingTime.summary()));
    }
    cs.sort(Comparator.comparing(ActorClassStats::className));
    List<ActorStats> as = new ArrayList<>();
    for (MailboxProbe p : detailed.values()) {
      as.add(actorStats(p));
    }
    as.sort(Comparator.comparing(ActorStats::path));
    return new Snapshot(
        true, settings.sampleEvery(), deadLetters.getAsLong(), restarts, ds, cs, as);
  }

  private static DispatcherStats dispatcherStats(
      DispatcherTelemetry d, Map<String, long[]> classMessages) {
    long messages = 0;
    long runs = 0;
    for (ActorGroup g : d.groups.values()) {
      long[] mr = g.counts();
      messages += mr[0];
      runs += mr[1];
      classMessages.computeIfAbsent(g.actorClass.className, k -> new long[1])[0] += mr[0];
    }
    return new DispatcherStats(
        d.id,
        messages,
        runs,
        d.schedulingDelay.summary(),
        d.processingTime.summary(),
        d.mailboxDepth.summary());
  }

  private static ActorStats actorStats(MailboxProbe p) {
    ActorDetail a = p.detail;
    return new ActorStats(
        a.path,
        p.group.actorClass.className,
        p.group.dispatcher.id,
        p.messages(),
        p.runs(),
        p.restarts(),
        a.schedulingDelay.summary(),
        a.processingTime.summary(),
        a.mailboxDepth.summary());
  }

  /**
   * The life events of one actor class's actors, all dispatchers together, counted since the
   * system started; for the Micrometer binder, which reads them with the snapshot.
   *
   * @param className the class's binary name
   * @param started actors created (their cell and mailbox bound), restarts not included
   * @param stopped actors that terminated
   * @param failures times an actor failed (a message, or a lifecycle hook, threw) and asked its
   *     supervisor what to do
   */
  public record ActorLifecycle(String className, long started, long stopped, long failures) {}

  /**
   * Reads the life-event counters of every actor class now (sums of striped counters: cheap, but
   * for monitoring, not for a message path).
   *
   * @return one entry per actor class, sorted by class name
   */
  public List<ActorLifecycle> actorLifecycles() {
    List<ActorLifecycle> out = new ArrayList<>();
    for (ActorClassTelemetry c : classes.values()) {
      out.add(
          new ActorLifecycle(c.className, c.started.sum(), c.stopped.sum(), c.failures.sum()));
    }
    out.sort(Comparator.comparing(ActorLifecycle::className));
    return out;
  }

  /** @return the stats of one dispatcher, for its MBean; null if unknown */
  DispatcherStats dispatcherStats(String id) {
    DispatcherTelemetry d = dispatchers.get(id);
    return d == null ? null : dispatcherStats(d, new HashMap<>());
  }

  /** @return the stats of one opted-in actor, for its MBean; null if gone */
  ActorStats actorStats(String path) {
    MailboxProbe p = detailed.get(path);
    return p == null ? null : actorStats(p);
  }
}
