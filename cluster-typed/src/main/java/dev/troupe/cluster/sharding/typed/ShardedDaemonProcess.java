package dev.troupe.cluster.sharding.typed;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActorWithTimers;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.cluster.sharding.typed.internal.PerSystem;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A fixed number of instances of a behaviour kept running across the cluster, each on one member at
 * a time: workers that each own a slice of some work (a partition of a queue, a range of keys, a
 * projection's tag) and must run somewhere, and not twice, as members come and go.
 *
 * <pre>{@code
 * ShardedDaemonProcess.get(system).init(Indexer.Command.class, "indexers", 4, Indexer::create);
 * }</pre>
 *
 * <p>Call {@link #init} on every member, with the same name, count and behaviour. The instances
 * are entities of a sharded type of their own ({@code sharded-daemon-process-<name>}), one per shard,
 * numbered 0 to {@code numberOfInstances - 1}; the sharding places them on the members with the
 * settings' role and moves them when a member leaves or fails (the instance gets the stop message,
 * if one was given, before it moves). Each member with the role asks the sharding to start every
 * instance when {@code init} is called and again every {@code keep-alive-interval}, so an instance
 * whose member went away runs again elsewhere within that interval. Instances are never passivated
 * for being idle, and nothing but those reminders reaches them through the sharding: they talk to
 * the rest of the system through the receptionist, topics, or refs they are given.
 *
 * <p>The system must be a cluster member ({@code troupe.actor.provider = cluster}).
 */
public final class ShardedDaemonProcess {
  /** The prefix of the entity type's name; the rest is the process's name. */
  public static final String TYPE_PREFIX = "sharded-daemon-process-";

  /** The most instances one process may have. */
  public static final int MAX_INSTANCES = 10_000;

  private static final PerSystem<ShardedDaemonProcess> BY_SYSTEM = new PerSystem<>(ShardedDaemonProcess::new);

  private final dev.troupe.actor.ActorSystem system;
  private final Map<String, Integer> started = new HashMap<>(); // name -> instances; guarded by this

  private ShardedDaemonProcess(dev.troupe.actor.ActorSystem system) {
    this.system = system;
  }

  /**
   * @param system a typed actor system
   * @return its sharded daemon processes; the same instance on every call while the system lives
   */
  public static ShardedDaemonProcess get(ActorSystem<?> system) {
    return get(Adapter.toClassic(Objects.requireNonNull(system, "system")));
  }

  /**
   * @param system a classic actor system (one that runs typed actors through {@code Adapter})
   * @return its sharded daemon processes
   */
  public static ShardedDaemonProcess get(dev.troupe.actor.ActorSystem system) {
    return BY_SYSTEM.get(system);
  }

  /**
   * Starts this member's part of the process with the system's settings and no stop message (an
   * instance that moves is stopped directly).
   *
   * @param messageClass what the instances accept
   * @param name the process's name, the same on every member
   * @param numberOfInstances how many instances run in the cluster, at least 1
   * @param behaviorFactory the behaviour of instance {@code i} (0 to {@code numberOfInstances - 1})
   * @param <T> what the instances accept
   * @see #init(Class, String, int, IntFunction, ShardedDaemonProcessSettings, Optional)
   */
  public <T> void init(Class<T> messageClass, String name, int numberOfInstances, IntFunction<Behavior<T>> behaviorFactory) {
    init(messageClass, name, numberOfInstances, behaviorFactory, ShardedDaemonProcessSettings.create(system),
        Optional.empty());
  }

  /**
   * Starts this member's part of the process: its sharding region for the instances and, when this
   * member has the settings' role, the keep-alive that asks for every instance now and every {@code
   * keep-alive-interval}. A second call with the same name and number of instances does nothing.
   *
   * @param messageClass what the instances accept
   * @param name the process's name, the same on every member: letters, digits, {@code -}, {@code _}
   *     and {@code .}
   * @param numberOfInstances how many instances run in the cluster, at least 1 and at most {@value
   *     #MAX_INSTANCES}
   * @param behaviorFactory the behaviour of instance {@code i} (0 to {@code numberOfInstances - 1})
   * @param settings keep-alive interval, role and sharding settings
   * @param stopMessage what an instance is told when it must move to another member (it must stop
   *     on it); empty = it is stopped directly
   * @param <T> what the instances accept
   * @throws IllegalArgumentException for a bad name or count, or a name started here with another
   *     count
   * @throws IllegalStateException if the cluster has not started on this system
   */
  public synchronized <T> void init(Class<T> messageClass, String name, int numberOfInstances,
      IntFunction<Behavior<T>> behaviorFactory, ShardedDaemonProcessSettings settings, Optional<T> stopMessage) {
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(behaviorFactory, "behaviorFactory");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(stopMessage, "stopMessage");
    checkName(name);
    if (numberOfInstances < 1 || numberOfInstances > MAX_INSTANCES) {
      throw new IllegalArgumentException("numberOfInstances must be 1 to " + MAX_INSTANCES + ", was " + numberOfInstances);
    }
    Integer running = started.get(name);
    if (running != null) {
      if (running != numberOfInstances) {
        throw new IllegalArgumentException("sharded daemon process '" + name + "' runs here with " + running
            + " instances, not " + numberOfInstances);
      }
      return;
    }
    ClusterShardingSettings sharding = settings.shardingSettings().orElseGet(() -> ClusterShardingSettings.create(system))
        .withPassivateIdleAfter(Duration.ZERO);
    if (settings.role().isPresent()) {
      sharding = sharding.withRole(settings.role().get());
    }
    InstanceExtractor extractor = new InstanceExtractor(numberOfInstances);
    Props entityProps = Adapter.props(Behaviors.<T>setup(ctx -> {
      String id = URLDecoder.decode(ctx.getSelf().path().name(), StandardCharsets.UTF_8);
      if (!extractor.isInstance(id)) { // a shard told to start another id directly, not through the region
        ctx.getLog().warn("sharded daemon process '{}' has no instance '{}'; it does not start", name, id);
        return Behaviors.stopped();
      }
      return behaviorFactory.apply(Integer.parseInt(id));
    }));
    Object stop = stopMessage.isPresent() ? stopMessage.get() : PoisonPill.getInstance();
    ActorRef region = ClusterSharding.get(system).start(TYPE_PREFIX + name, entityProps, sharding,
        extractor, stop);
    Optional<String> role = sharding.role();
    if (role.isEmpty() || Cluster.get(system).selfMember().hasRole(role.get())) {
      system.actorOf(Props.create(KeepAlive.class, () -> new KeepAlive(region, numberOfInstances, settings.keepAliveInterval())),
          TYPE_PREFIX + name + "-keep-alive");
    }
    started.put(name, numberOfInstances);
  }

  private static void checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.length() > 100) {
      throw new IllegalArgumentException("a sharded daemon process's name must have 1 to 100 characters, was '" + name + "'");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.')) {
        throw new IllegalArgumentException("a sharded daemon process's name may hold letters, digits, '-', '_' and '.',"
            + " was '" + name + "'");
      }
    }
  }

  /**
   * Instance {@code i} is entity {@code "i"} in shard {@code "i"}, so the sharding spreads the
   * instances as it spreads shards. Only the reminders reach instances: any other message, and a
   * reminder for an id that is not an instance's (e.g. from a peer that runs the process with
   * another count, or a hostile one), is dropped.
   */
  static final class InstanceExtractor implements ShardRegion.MessageExtractor {
    private final int instances;

    InstanceExtractor(int instances) {
      this.instances = instances;
    }

    @Override
    public String entityId(Object message) {
      return message instanceof ShardRegion.StartEntity s && isInstance(s.entityId()) ? s.entityId() : null;
    }

    @Override
    public Object entityMessage(Object message) {
      return message;
    }

    @Override
    public String shardId(Object message) {
      return entityId(message);
    }

    /** @return whether {@code id} is the canonical decimal form of 0 to instances - 1 */
    boolean isInstance(String id) {
      int n = id.length();
      if (n == 0 || n > 5 || (n > 1 && id.charAt(0) == '0')) {
        return false;
      }
      int value = 0;
      for (int i = 0; i < n; i++) {
        char c = id.charAt(i);
        if (c < '0' || c > '9') {
          return false;
        }
        value = value * 10 + (c - '0');
      }
      return value < instances;
    }
  }

  /** Asks the region for every instance now and then on a timer. */
  static final class KeepAlive extends UntypedActorWithTimers {
    private static final Object TICK = "tick";
    private final ActorRef region;
    private final ShardRegion.StartEntity[] reminders;
    private final Duration interval;

    KeepAlive(ActorRef region, int instances, Duration interval) {
      this.region = region;
      this.interval = interval;
      this.reminders = new ShardRegion.StartEntity[instances];
      for (int i = 0; i < instances; i++) {
        reminders[i] = new ShardRegion.StartEntity(Integer.toString(i));
      }
    }

    @Override
    public void preStart() {
      remind();
      getTimers().startTimerWithFixedDelay(TICK, TICK, interval);
    }

    @Override
    public void onReceive(Object message) {
      if (message == TICK) {
        remind();
      } else {
        unhandled(message);
      }
    }

    private void remind() {
      for (ShardRegion.StartEntity r : reminders) {
        region.tell(r, getSelf());
      }
    }
  }
}
