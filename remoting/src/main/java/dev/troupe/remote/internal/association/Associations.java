package dev.troupe.remote.internal.association;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.TraceCarrier;
import dev.troupe.remote.internal.config.RemoteSettings;
import dev.troupe.remote.internal.transport.Drops;
import dev.troupe.remote.internal.transport.Lane;
import dev.troupe.remote.internal.transport.NettyTransport;
import dev.troupe.remote.internal.transport.OutboundEnvelope;
import dev.troupe.remote.internal.transport.Wire;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The associations of one node, by the peer's address, and the way out to them: a {@link
 * RemoteActorRef}'s {@code tell} and system messages come here ({@link #send}), are serialized on
 * the caller's thread and queued on the peer's lane, with no detour through the provider.
 *
 * <p>Associations are bounded: one exists only for a node that this node sends to or that
 * connected here (naming a node in a path creates none, see {@link RemoteActorRef}); one idle for
 * {@code association-idle-timeout} (no connection, nothing queued or unacknowledged, no watch) is
 * retired, what must outlive it kept in a bounded record ({@code maximum-retired-associations});
 * at {@code maximum-associations} idle ones are retired at once, and while none is, a new node's
 * handshake is refused and messages to a new node are dropped.
 */
public final class Associations {
  /** What the association layer asks of death watch across nodes (the watch layer). */
  public interface WatchListener {
    /** A local {@code watcher} sent a {@code Watch} to {@code watchee}, an actor on another node. */
    void watched(RemoteActorRef watchee, ActorRef watcher);

    /** The watch of {@code watchee} by the local {@code watcher} ended. */
    void unwatched(ActorRef watchee, ActorRef watcher);

    /** @return whether some local actor watches an actor on {@code node} (its association stays) */
    boolean watches(Address node);
  }

  private final RuntimeSystem system;
  private final RemoteSettings settings;
  private final NettyTransport transport;
  private final Drops drops;
  private final Association.Hooks hooks;
  private final WatchListener watches;
  private final Serialization serialization;
  private final LongSupplier clock;
  private final Logger logger;
  private final ConcurrentHashMap<Address, Association> associations = new ConcurrentHashMap<>();
  private final RetiredAssociations retired;
  private final AtomicBoolean pressureSweep = new AtomicBoolean();
  // null unless troupe.remote.advanced.failure-injector = on (tests of partitions)
  private final FailureInjector injector;
  // null unless troupe.remote.advanced.measure-serialization = on
  private final SerializationTimes serializationTimes;

  /** @param serialization the system's registry: messages are serialized with it on the sender's thread */
  public Associations(
      RuntimeSystem system,
      RemoteSettings settings,
      NettyTransport transport,
      Drops drops,
      Association.Hooks hooks,
      WatchListener watches,
      Serialization serialization,
      LongSupplier clock,
      Logger logger) {
    this.system = system;
    this.settings = settings;
    this.transport = transport;
    this.drops = drops;
    this.hooks = hooks;
    this.watches = watches;
    this.serialization = serialization;
    this.clock = clock;
    this.logger = logger;
    this.retired = new RetiredAssociations(settings.maximumRetiredAssociations());
    this.injector = settings.failureInjector() ? new FailureInjector() : null;
    this.serializationTimes = settings.measureSerialization() ? new SerializationTimes() : null;
  }

  /** @return the summed (de)serialization times, or null unless {@code measure-serialization = on} */
  public SerializationTimes serializationTimes() {
    return serializationTimes;
  }

  /**
   * @return the failure injector that cuts this node off from chosen nodes in tests, or null unless
   *     {@code troupe.remote.advanced.failure-injector = on}
   */
  public FailureInjector failureInjector() {
    return injector;
  }

  /** @return whether the failure injector cuts {@code node} off now (false when it is off) */
  public boolean cutOff(Address node) {
    return injector != null && injector.cuts(node);
  }

  RuntimeSystem system() {
    return system;
  }

  Drops drops() {
    return drops;
  }

  WatchListener watches() {
    return watches;
  }

  /**
   * The association with {@code remote}, created on first use (it connects only when sent to),
   * from what a retired one left if there is such a record.
   *
   * @return null when {@code maximum-associations} exist (idle ones are being retired meanwhile)
   */
  public Association association(Address remote) {
    Association a = associations.get(remote);
    if (a != null && !a.retired()) {
      return a;
    }
    if (a != null) {
      associations.remove(remote, a); // its retirement removes it too, a moment later
    }
    if (associations.size() >= settings.maximumAssociations()) {
      sweepNow();
      return associations.get(remote); // another thread may have made it meanwhile
    }
    return associations.computeIfAbsent(
        remote,
        r -> {
          Association n = new Association(r, transport, system.actorSystem().eventStream(), hooks, clock);
          Association.Remembered left = retired.take(r);
          if (left != null) {
            n.restore(left);
          }
          return n;
        });
  }

  /** @return the association with {@code remote} if one exists now (none is created), else null */
  public Association existing(Address remote) {
    return associations.get(remote);
  }

  /** @return the associations that exist now */
  public Collection<Association> all() {
    return associations.values();
  }

  /** @return the associations that exist now, for tests */
  public int count() {
    return associations.size();
  }

  /** @return the retired associations whose records are kept, for tests */
  public int retiredRecordCount() {
    return retired.size();
  }

  /** Starts the retirement of idle associations, on the transport's timer. */
  public void startSweeping() {
    long idle = settings.associationIdleTimeout().toNanos();
    long every = Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(idle / 4, TimeUnit.SECONDS.toNanos(1)));
    transport.nextLoop().scheduleAtFixedRate(() -> sweep(idle), every, every, TimeUnit.NANOSECONDS);
  }

  /** Retires the associations idle for {@code idleNanos} or longer; each on its own loop. */
  private void sweep(long idleNanos) {
    long now = clock.getAsLong();
    for (Association a : associations.values()) {
      if (now - a.activeAt() >= idleNanos && !a.retired() && !watches.watches(a.remote)) {
        try {
          a.loop().execute(() -> retire(a, idleNanos));
        } catch (RejectedExecutionException terminated) {
          return;
        }
      }
    }
  }

  /** At {@code maximum-associations}: retires every idle association, once at a time. */
  private void sweepNow() {
    if (pressureSweep.compareAndSet(false, true)) {
      try {
        transport.nextLoop().execute(() -> {
          pressureSweep.set(false);
          sweep(0);
        });
      } catch (RejectedExecutionException terminated) {
        // shut down
      }
    }
  }

  /** On {@code a}'s loop. */
  private void retire(Association a, long idleNanos) {
    if (watches.watches(a.remote)) {
      return;
    }
    Association.Remembered left;
    // under the records' lock: whoever sees the association retired finds its record
    synchronized (retired) {
      left = a.retireIfIdle(clock.getAsLong(), idleNanos);
      if (left == Association.NOT_RETIRED) {
        return;
      }
      if (left != null) {
        retired.put(a.remote, left);
      }
    }
    associations.remove(a.remote, a);
    logger.debug("{} idle: its association is removed", a.remote);
  }

  // ------------------------------------------------------------------ out

  /**
   * The lane of user messages to {@code path}: the large-message lane when the path matches
   * {@code troupe.remote.large-message-destinations}, else the ordinary one. Asked once per ref.
   */
  Lane laneFor(ActorPath path) {
    return settings.largeMessageDestinations().isEmpty() || !settings.largeMessageDestinations().matches(path.elements())
        ? Lane.ORDINARY
        : Lane.LARGE;
  }

  /**
   * Serializes on the caller's thread and queues on {@code lane}; never blocks, never throws. A
   * user message takes the caller's trace context along when a tracing module is installed.
   */
  public void send(RemoteActorRef recipient, Object message, ActorRef sender, Lane lane) {
    if (injector != null && injector.cuts(recipient.path().address())) {
      return; // a test's partition: lost without a word, as on a cut cable
    }
    Serialized payload;
    SerializationTimes times = serializationTimes;
    long start = times == null ? 0 : System.nanoTime();
    try {
      payload = serialization.serialize(message);
      if (times != null) {
        times.serialized(System.nanoTime() - start);
      }
    } catch (RuntimeException e) {
      drops.dropped(message, "cannot serialize it: " + e.getMessage(), sender, recipient);
      return;
    }
    boolean large = lane == Lane.LARGE;
    int limit = large ? settings.maximumLargeFrameSize() : settings.maximumFrameSize();
    if (payload.bytes().length > limit) {
      drops.dropped(
          message,
          "serialized to " + payload.bytes().length + " bytes, above troupe.remote." + (large ? "maximum-large-frame-size (" : "maximum-frame-size (")
              + limit + " bytes" + (large ? ", the large-message lane's limit)" : ")"),
          sender,
          recipient);
      return;
    }
    TraceCarrier tracing = system.traceCarrier(); // null unless a tracing module is installed
    OutboundEnvelope e =
        new OutboundEnvelope(recipient, recipient.serializedPath(), sender, message, payload,
            tracing == null || lane == Lane.CONTROL ? null : tracing.outboundContext());
    Association association = recipient.association();
    if (association == null) {
      drops.dropped(e, "no association with " + recipient.path().address() + " can be made now: "
          + settings.maximumAssociations() + " exist (troupe.remote.advanced.maximum-associations)");
      return;
    }
    if (lane == Lane.CONTROL) {
      // a sequenced message must never be dropped by the encoder (its number would leave a gap):
      // the frame's bound is checked here with the paths in full, as on a new connection
      long frame = Wire.systemFrameBound(payload, e.recipientPath(), sender == null ? null : sender.path().toSerializationFormat());
      if (frame > settings.maximumFrameSize()) {
        drops.dropped(e, "the system message's frame could exceed troupe.remote.maximum-frame-size");
        return;
      }
      association.sendSystem(e);
    } else {
      association.lane(lane).send(e);
    }
  }
}
