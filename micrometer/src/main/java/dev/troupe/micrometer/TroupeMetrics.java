package dev.troupe.micrometer;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Telemetry;
import dev.troupe.actor.internal.ActorSystemImpl;
import dev.troupe.actor.internal.telemetry.SystemTelemetry;
import dev.troupe.actor.internal.telemetry.SystemTelemetry.ActorLifecycle;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes an actor system's figures as Micrometer meters: what the runtime's {@link Telemetry}
 * counts per dispatcher and per actor class, dead letters (by reason) and unhandled messages; when
 * {@code troupe-remoting} is present and the system is remote, what remoting publishes on the event
 * stream and what it counts per peer (messages and bytes each way, the phi of watched nodes,
 * optionally the serialization time); when {@code troupe-cluster} is present and the system is a
 * cluster node, its members by status, the unreachable ones and the shards handed over. Every
 * meter is listed, with its tags, in {@code docs/observability.md}.
 *
 * <pre>{@code
 * new TroupeMetrics(system).bindTo(meterRegistry);
 * }</pre>
 *
 * <p>Nothing is recorded twice and nothing is added to the message path: the per-dispatcher and
 * per-class meters are functions over a {@link Telemetry#snapshot() snapshot} that the binder takes
 * every {@code refresh} interval (so their values trail by at most that much), and the event meters
 * count events the runtime publishes anyway (an unhandled message, a remoting drop), on the
 * publishing thread. Histograms are the runtime's sampled ones ({@code
 * troupe.telemetry.sample-every}), published as percentile gauges, a maximum and a sample count:
 * Micrometer cannot take over a histogram recorded elsewhere, and recording each message again into
 * a Micrometer timer would cost the message path what the sampling saves.
 *
 * <p>Dispatchers and actor classes that appear after binding get their meters at the next
 * refresh. When the system terminates (or on {@link #close()}), the binder removes its meters from
 * every registry it was bound to and stops refreshing. The dispatcher and class meters need {@code
 * troupe.telemetry.enabled = on}; without it only the system-wide meters are published (and an
 * info line says so).
 */
public final class TroupeMetrics implements MeterBinder, AutoCloseable {
  /** How often the snapshot is taken when no interval is given. */
  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(1);

  private static final Logger log = LoggerFactory.getLogger(TroupeMetrics.class);
  private static final double[] PERCENTILES = {0.5, 0.9, 0.99};

  private final ActorSystem system;
  private final Duration refresh;
  private final Tags systemTags;
  private final SystemTelemetry telemetry; // null when telemetry is off
  private final EventCounters events;
  private final ClusterMeters cluster; // null: troupe-cluster absent, or the system is no cluster node

  // guarded by this
  private final List<MeterRegistry> registries = new ArrayList<>();
  private final List<Registered> meters = new ArrayList<>();
  private final Set<String> knownDispatchers = ConcurrentHashMap.newKeySet();
  private final Set<String> knownClasses = ConcurrentHashMap.newKeySet();
  private Cancellable refreshing;
  private boolean closed;

  // written by refresh(), read by meter functions on any thread
  private volatile Telemetry.Snapshot snapshot;
  private volatile Map<String, ActorLifecycle> lifecycles = Map.of();

  /**
   * A binder for {@code system}, refreshing its snapshot every {@link #DEFAULT_REFRESH}.
   *
   * @param system a Troupe actor system
   */
  public TroupeMetrics(ActorSystem system) {
    this(system, DEFAULT_REFRESH);
  }

  /**
   * A binder for {@code system}.
   *
   * @param system a Troupe actor system
   * @param refresh how often the telemetry snapshot is taken (and new dispatchers and actor classes
   *     get their meters); positive
   * @throws IllegalArgumentException if {@code refresh} is not positive, or {@code system} is not
   *     one of Troupe's runtime
   */
  public TroupeMetrics(ActorSystem system, Duration refresh) {
    this.system = Objects.requireNonNull(system, "system");
    this.refresh = Objects.requireNonNull(refresh, "refresh");
    if (refresh.isNegative() || refresh.isZero()) {
      throw new IllegalArgumentException("refresh must be positive, was " + refresh);
    }
    if (!(system instanceof ActorSystemImpl)) {
      throw new IllegalArgumentException(
          "TroupeMetrics reads the Troupe runtime's figures; " + system + " is a "
              + system.getClass().getName());
    }
    this.systemTags = Tags.of("system", system.name());
    Telemetry t = Telemetry.get(system);
    this.telemetry = t instanceof SystemTelemetry s ? s : null;
    this.events = new EventCounters(this, system, systemTags);
    this.cluster =
        present("dev.troupe.cluster", "dev/troupe/cluster/Cluster.class")
            ? ClusterMeters.of(this, system, systemTags)
            : null;
  }

  /**
   * Whether an optional Troupe module is there, without reflection: in a module layer, whether it
   * was resolved; on the class path, whether one of its classes is.
   *
   * @param module the module's name
   * @param resource a class file of it, e.g. {@code dev/troupe/cluster/Cluster.class}
   */
  static boolean present(String module, String resource) {
    Module self = TroupeMetrics.class.getModule();
    if (self.isNamed()) {
      ModuleLayer layer = self.getLayer();
      return layer != null && layer.findModule(module).isPresent();
    }
    ClassLoader loader = TroupeMetrics.class.getClassLoader();
    return loader != null && loader.getResource(resource) != null;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    boolean first;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("this binder was closed (or its system terminated)");
      }
      if (registries.contains(registry)) {
        return;
      }
      first = registries.isEmpty();
      registries.add(registry);
      ActorSystemImpl impl = (ActorSystemImpl) system;
      for (String reason : ActorSystemImpl.deadLetterReasons()) {
        register(
            registry,
            FunctionCounter.builder(
                    "troupe.dead.letters", impl, sys -> sys.deadLetterCount(reason))
                    .description("messages that could not be delivered, published to dead letters")
                    .tags(systemTags.and("reason", reason))
                ::register);
      }
      events.registerIn(registry);
      if (cluster != null) {
        cluster.registerIn(registry);
      }
      for (String d : knownDispatchers) {
        registerDispatcher(registry, d);
      }
      for (String c : knownClasses) {
        registerActorClass(registry, c);
      }
    }
    if (first) {
      start();
    }
  }

  private void start() {
    events.subscribe(system);
    if (telemetry == null) {
      log.info(
          "troupe.telemetry.enabled is off for system [{}]: only its system-wide meters are"
              + " published (no dispatcher or actor class meters)",
          system.name());
    }
    if (telemetry != null || events.refreshes()) {
      refresh();
      Cancellable c =
          system
              .scheduler()
              .scheduleWithFixedDelay(refresh, refresh, this::refresh, system.dispatcher());
      synchronized (this) {
        if (closed) { // the system terminated meanwhile: close() found nothing to cancel
          c.cancel();
        } else {
          refreshing = c;
        }
      }
    }
    system.registerOnTermination(this::close);
  }

  /**
   * Takes a snapshot and gives new dispatchers and actor classes their meters; reads remoting's
   * metrics view, giving new peers theirs.
   */
  private void refresh() {
    try {
      events.refresh();
    } catch (RuntimeException e) {
      log.warn("could not read the remoting figures of system [{}]", system.name(), e);
    }
    if (telemetry == null) {
      return;
    }
    try {
      Telemetry.Snapshot s = telemetry.snapshot();
      Map<String, ActorLifecycle> l = new HashMap<>();
      for (ActorLifecycle a : telemetry.actorLifecycles()) {
        l.put(a.className(), a);
      }
      snapshot = s;
      lifecycles = l;
      for (Telemetry.DispatcherStats d : s.dispatchers()) {
        if (knownDispatchers.add(d.id())) {
          registerNew(r -> registerDispatcher(r, d.id()));
        }
      }
      for (Telemetry.ActorClassStats c : s.actorClasses()) {
        if (knownClasses.add(c.className())) {
          registerNew(r -> registerActorClass(r, c.className()));
        }
      }
    } catch (RuntimeException e) {
      log.warn("could not refresh the telemetry of system [{}]", system.name(), e);
    }
  }

  /**
   * Registers a meter that appeared after binding in every registry bound so far.
   *
   * @param registration registers the meter in one registry
   */
  synchronized void registerNew(Consumer<MeterRegistry> registration) {
    if (closed) {
      return;
    }
    for (MeterRegistry r : registries) {
      registration.accept(r);
    }
  }

  private void registerDispatcher(MeterRegistry r, String id) {
    Tags tags = systemTags.and("dispatcher", id);
    counter(r, "troupe.dispatcher.messages", "user messages the dispatcher's actors processed", tags,
        s -> dispatcher(s, id).messagesProcessed());
    counter(r, "troupe.dispatcher.mailbox.runs",
        "mailbox runs (a run processes up to throughput messages)", tags,
        s -> dispatcher(s, id).mailboxRuns());
    summary(r, "troupe.dispatcher.scheduling.delay",
        "time from a mailbox being scheduled to its run starting (sampled runs)", tags,
        s -> dispatcher(s, id).schedulingDelay());
    summary(r, "troupe.dispatcher.processing.time", "time an actor spent on one message (sampled)",
        tags, s -> dispatcher(s, id).processingTime());
  }

  private void registerActorClass(MeterRegistry r, String className) {
    Tags tags = systemTags.and("actor.class", className);
    counter(r, "troupe.actor.messages", "user messages the class's actors processed", tags,
        s -> actorClass(s, className).messagesProcessed());
    counter(r, "troupe.actor.restarts", "restarts of the class's actors", tags,
        s -> actorClass(s, className).restarts());
    lifecycle(r, "troupe.actor.started", "actors of the class created", tags, className,
        ActorLifecycle::started);
    lifecycle(r, "troupe.actor.stopped", "actors of the class that terminated", tags, className,
        ActorLifecycle::stopped);
    lifecycle(r, "troupe.actor.failures",
        "failures of the class's actors (an exception escaped to supervision)", tags, className,
        ActorLifecycle::failures);
    register(
        r,
        Gauge.builder("troupe.actor.live", this, m -> m.live(className))
                .description("actors of the class alive now (created and not yet terminated)")
                .tags(tags)
            ::register);
    // last, and its .samples counter last of all: a reader that finds it finds the class's others
    summary(r, "troupe.actor.processing.time", "time an actor of the class spent on one message"
        + " (sampled)", tags, s -> actorClass(s, className).processingTime());
  }

  private double live(String className) {
    ActorLifecycle a = lifecycles.get(className);
    return a == null ? 0 : a.started() - a.stopped();
  }

  private void counter(
      MeterRegistry r,
      String name,
      String description,
      Tags tags,
      ToLongFunction<Telemetry.Snapshot> value) {
    register(
        r,
        FunctionCounter.builder(name, this, m -> m.read(value))
                .description(description)
                .tags(tags)
            ::register);
  }

  private void lifecycle(
      MeterRegistry r,
      String name,
      String description,
      Tags tags,
      String className,
      ToLongFunction<ActorLifecycle> value) {
    register(
        r,
        FunctionCounter.builder(
                name,
                this,
                m -> {
                  ActorLifecycle a = m.lifecycles.get(className);
                  return a == null ? 0 : value.applyAsLong(a);
                })
                .description(description)
                .tags(tags)
            ::register);
  }

  /**
   * A runtime histogram: a time gauge per percentile ({@code <name>.percentile}, tag {@code phi}, as
   * Micrometer names the percentiles it computes itself), one for the maximum ({@code <name>.max})
   * and a counter of its samples ({@code <name>.samples}).
   */
  private void summary(
      MeterRegistry r,
      String name,
      String description,
      Tags tags,
      Function<Telemetry.Snapshot, Telemetry.Summary> summary) {
    for (double q : PERCENTILES) {
      ToLongFunction<Telemetry.Summary> pick =
          q == 0.5 ? Telemetry.Summary::p50 : q == 0.9 ? Telemetry.Summary::p90 : Telemetry.Summary::p99;
      register(
          r,
          TimeGauge.builder(
                  name + ".percentile", this, TimeUnit.NANOSECONDS, nanos(summary, pick))
                  .description(description + ", percentile")
                  .tags(tags.and("phi", Double.toString(q)))
              ::register);
    }
    register(
        r,
        TimeGauge.builder(
                name + ".max", this, TimeUnit.NANOSECONDS, nanos(summary, Telemetry.Summary::max))
                .description(description + ", largest since the system started")
                .tags(tags)
            ::register);
    counter(r, name + ".samples", description + ", values recorded", tags,
        s -> summary.apply(s).samples());
  }

  private static ToDoubleFunction<TroupeMetrics> nanos(
      Function<Telemetry.Snapshot, Telemetry.Summary> summary,
      ToLongFunction<Telemetry.Summary> pick) {
    return m -> m.read(s -> pick.applyAsLong(summary.apply(s)));
  }

  private double read(ToLongFunction<Telemetry.Snapshot> value) {
    Telemetry.Snapshot s = snapshot;
    return s == null ? 0 : value.applyAsLong(s);
  }

  private static final Telemetry.DispatcherStats NO_DISPATCHER =
      new Telemetry.DispatcherStats(
          "", 0, 0, Telemetry.Summary.EMPTY, Telemetry.Summary.EMPTY, Telemetry.Summary.EMPTY);
  private static final Telemetry.ActorClassStats NO_CLASS =
      new Telemetry.ActorClassStats("", 0, 0, Telemetry.Summary.EMPTY);

  private static Telemetry.DispatcherStats dispatcher(Telemetry.Snapshot s, String id) {
    Telemetry.DispatcherStats d = s.dispatcher(id);
    return d == null ? NO_DISPATCHER : d;
  }

  private static Telemetry.ActorClassStats actorClass(Telemetry.Snapshot s, String className) {
    for (Telemetry.ActorClassStats c : s.actorClasses()) {
      if (c.className().equals(className)) {
        return c;
      }
    }
    return NO_CLASS;
  }

  /**
   * Registers a meter and remembers it, for removal when the system terminates.
   *
   * @param r the registry
   * @param builder a meter builder's {@code register}
   */
  synchronized void register(MeterRegistry r, Function<MeterRegistry, ? extends Meter> builder) {
    meters.add(new Registered(r, builder.apply(r)));
  }

  /**
   * Stops refreshing, unsubscribes from the event stream and removes every meter this binder
   * registered, from every registry. Called by itself when the system terminates; idempotent.
   */
  @Override
  public void close() {
    List<Registered> toRemove;
    Cancellable c;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      c = refreshing;
      toRemove = new ArrayList<>(meters);
      meters.clear();
      registries.clear();
    }
    if (c != null) {
      c.cancel();
    }
    events.unsubscribe(system);
    for (Registered m : toRemove) {
      m.registry.remove(m.meter);
    }
  }

  /** A meter and the registry it was registered in. */
  private record Registered(MeterRegistry registry, Meter meter) {}
}
