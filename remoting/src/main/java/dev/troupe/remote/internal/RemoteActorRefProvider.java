package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Kill;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.remote.QuarantinedEvent;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;
import dev.troupe.serialization.internal.MessageSerializer;
import dev.troupe.serialization.internal.SystemMessageSerializer;
import io.netty.channel.Channel;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code troupe.actor.provider = remote}: the local provider (built with the bound address) for
 * this node's actors, {@link RemoteActorRef}s for every other address, and the {@link
 * NettyTransport} between them. What arrives is delivered as the runtime's seam expects: user
 * messages with {@code tell}, selections through {@link LocalActorRefProvider#deliverSelection}
 * on the default dispatcher (queued per connection by {@link InboundSelections}, never walked on a
 * network thread), watch, unwatch, death notices and stop with {@code sendSystemMessage}.
 *
 * <p>A whole node going is reported to death watch ({@link RuntimeSystem#addressTerminated})
 * when it says it leaves (a leaving notice at its termination) or when {@link WatchedNodes}' failure
 * detector gives up on it, which also quarantines that incarnation; system messages to a node go
 * through its {@link Association}'s exactly-once sequence.
 *
 * <p>Associations are bounded: one exists only for a node that this node sends to or that
 * connected here (naming a node in a path creates none, see {@link RemoteActorRef}); one idle for
 * {@code association-idle-timeout} (no connection, nothing queued or unacknowledged, no watch) is
 * retired, what must outlive it kept in a bounded record ({@code maximum-retired-associations});
 * at {@code maximum-associations} idle ones are retired at once, and while none is, a new node's
 * handshake is refused and messages to a new node are dropped.
 */
final class RemoteActorRefProvider implements ActorRefProvider, Association.Hooks {
  /**
   * The bytes of a system message's frame besides its strings (each counted as 3 bytes a char, the
   * most UTF-8 takes) and payload: control prefix and sequence number, and for each of recipient,
   * sender and manifest a ref code, a slot and a length (see {@link Wire}), and the serializer id.
   */
  private static final long SYSTEM_FRAME_OVERHEAD = 2 + 10 + 3 * (1 + 2 + 5) + 5;

  /** How long termination waits for the leaving notices to be written. */
  static final long LEAVING_WAIT_MILLIS = 1000;

  private final RuntimeSystem runtime;
  private final ActorSystem system;
  private final RemoteSettings settings;
  private final Logger logger;
  private final RateLimitedLog log;
  private final Drops drops;
  private final Serialization serialization;
  private final long uid;
  private final NettyTransport transport;
  private final Address address;
  private final LocalActorRefProvider local;
  private final ConcurrentHashMap<Address, Association> associations = new ConcurrentHashMap<>();
  private final RetiredAssociations retired;
  private final AtomicBoolean pressureSweep = new AtomicBoolean();
  private final LongSupplier clock = System::nanoTime;
  private final WatchedNodes watchedNodes;
  private final RemoteDaemon daemon; // remote deployment: /remote
  private final AbsentRecipients absentRecipients; // answers asks of stopped actors here
  private final InboundSelections.Target selectionTarget = new SelectionTarget();

  RemoteActorRefProvider(RuntimeSystem runtime) {
    this.runtime = runtime;
    ActorSystem system = runtime.actorSystem();
    this.system = system;
    this.settings = RemoteSettings.from(system.settings().config());
    DeploymentSettings deployment = DeploymentSettings.from(system.settings().config());
    this.logger = LoggerFactory.getLogger("dev.troupe.remote." + system.name());
    this.log = new RateLimitedLog(logger, TimeUnit.SECONDS.toNanos(5), 10);
    this.drops = new Drops(system.eventStream(), log, (ref, cause) -> local().failAsk(ref, cause));
    long u;
    do {
      u = new SecureRandom().nextLong();
    } while (u == 0);
    this.uid = u;
    this.retired = new RetiredAssociations(settings.maximumRetiredAssociations());
    this.transport = new NettyTransport(this, system.name(), settings, log);
    this.watchedNodes = new WatchedNodes(settings, clock, this::unreachable, this::association, transport::nextLoop);
    int port = transport.bind();
    try {
      this.address =
          Address.remote(system.name(), settings.canonicalHost(), settings.canonicalPort() == 0 ? port : settings.canonicalPort());
      this.local = runtime.newLocalProvider(address);
      this.absentRecipients =
          new AbsentRecipients(address, node -> {
            Association a = associations.get(node);
            return a != null && !a.retired() && a.confirmed();
          });
      // Checks troupe.serialization now, not at the first message; last, as the registry is kept
      // until the system terminates, which a failed create never does.
      this.serialization = Serialization.get(system);
      this.daemon = new RemoteDaemon(this, settings, deployment, logger, () -> serialization);
    } catch (RuntimeException | Error e) {
      transport.shutdown();
      throw e;
    }
  }

  RuntimeSystem system() {
    return runtime;
  }

  Drops drops() {
    return drops;
  }

  RemoteSettings settings() {
    return settings;
  }

  long uid() {
    return uid;
  }

  /** @return the port this node listens on (its address's port unless canonical and bind differ) */
  int boundPort() {
    return transport.boundPort();
  }

  NettyTransport transport() {
    return transport;
  }

  WatchedNodes watchedNodes() {
    return watchedNodes;
  }

  /** @return {@code /remote}, the daemon of remote deployment */
  RemoteDaemon daemon() {
    return daemon;
  }

  /** @return the deploying side of remote deployment */
  OutgoingDeployments outgoing() {
    return daemon.outgoing();
  }

  @Override
  public Address address() {
    return address;
  }

  @Override
  public LocalActorRefProvider local() {
    return local;
  }

  @Override
  public void init() {
    local.init();
    runtime.subscribeAddressTerminated(daemon); // hosted children stop when their parents' node goes
    transport.startAccepting();
    long idle = settings.associationIdleTimeout().toNanos();
    long every = Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(idle / 4, TimeUnit.SECONDS.toNanos(1)));
    transport.nextLoop().scheduleAtFixedRate(() -> sweep(idle), every, every, TimeUnit.NANOSECONDS);
    logger.info("remoting of {} listens at {} (uid {})", system.name(), address, uid);
  }

  @Override
  public InternalActorRef resolveActorRef(ActorPath path) {
    Address a = path.address();
    if (a.equals(address)) {
      return RemoteDaemon.isDaemonPath(path) ? daemon : local.resolveLocal(path);
    }
    if (a.hasLocalScope()) {
      return a.system().equals(system.name())
          ? resolveActorRef(path.withAddress(address))
          : local.resolveActorRef(path); // another system without an address: unreachable
    }
    return new RemoteActorRef(this, path);
  }

  @Override
  public InternalActorRef rootGuardianAt(Address a) {
    if (a.equals(address) || (a.hasLocalScope() && a.system().equals(system.name()))) {
      return local.rootGuardian();
    }
    return a.hasGlobalScope() ? new RemoteActorRef(this, ActorPath.root(a)) : local.rootGuardianAt(a);
  }

  @Override
  public InternalActorRef actorOf(InternalActorRef parent, Props props, ActorPath path, Address target) {
    return daemon.outgoing().deploy(parent, props, path, target, serialization);
  }

  @Override
  public void shutdown() {
    watchedNodes.stop();
    sayLeaving();
    for (Association a : associations.values()) {
      a.stopTimers();
      for (Lane lane : Lane.values()) {
        OutboundLane l = a.lane(lane);
        try {
          l.loop().execute(l::close);
        } catch (RejectedExecutionException alreadyStopped) {
          // nothing left to flush there
        }
      }
    }
    transport.shutdown();
  }

  /**
   * Tells every node this one is associated with that it leaves, so that their watchers hear at
   * once rather than after the failure detector's pause; waits at most {@value
   * #LEAVING_WAIT_MILLIS} ms for the notices (and the death notices queued before them) to be
   * written.
   */
  void sayLeaving() {
    List<CompletableFuture<Void>> notices = new ArrayList<>();
    for (Association a : associations.values()) {
      if (a.associated()) {
        ControlFrame leaving = ControlFrame.leaving();
        a.lane(Lane.CONTROL).send(leaving);
        notices.add(leaving.done());
      }
    }
    if (notices.isEmpty() || transport.inEventLoop()) {
      return;
    }
    try {
      CompletableFuture.allOf(notices.toArray(CompletableFuture[]::new)).get(LEAVING_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      logger.debug("not every leaving notice was written in time; those peers will notice by their failure detectors");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The association with {@code remote}, created on first use (it connects only when sent to),
   * from what a retired one left if there is such a record.
   *
   * @return null when {@code maximum-associations} exist (idle ones are being retired meanwhile)
   */
  Association association(Address remote) {
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
          Association n = new Association(r, transport, system.eventStream(), this, clock);
          Association.Remembered left = retired.take(r);
          if (left != null) {
            n.restore(left);
          }
          return n;
        });
  }

  /** @return the associations that exist now, for tests */
  int associationCount() {
    return associations.size();
  }

  /** @return the retired associations whose records are kept, for tests */
  int retiredRecordCount() {
    return retired.size();
  }

  /** Retires the associations idle for {@code idleNanos} or longer; each on its own loop. */
  private void sweep(long idleNanos) {
    long now = clock.getAsLong();
    for (Association a : associations.values()) {
      if (now - a.activeAt() >= idleNanos && !a.retired() && !watchedNodes.watches(a.remote)) {
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
    if (watchedNodes.watches(a.remote)) {
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

  // ------------------------------------------------------------------ Association.Hooks

  @Override
  public Association successor(Address remote) {
    return association(remote);
  }

  // ------------------------------------------------------------------ out

  /** Serializes on the caller's thread and queues on {@code lane}; never blocks, never throws. */
  void send(RemoteActorRef recipient, Object message, ActorRef sender, Lane lane) {
    Serialized payload;
    try {
      payload = serialization.serialize(message);
    } catch (RuntimeException e) {
      drops.dropped(message, "cannot serialize it: " + e.getMessage(), sender, recipient);
      return;
    }
    if (payload.bytes().length > settings.maximumFrameSize()) {
      drops.dropped(
          message,
          "serialized to " + payload.bytes().length + " bytes, above troupe.remote.maximum-frame-size ("
              + settings.maximumFrameSize() + " bytes)",
          sender,
          recipient);
      return;
    }
    OutboundEnvelope e = new OutboundEnvelope(recipient, sender, message, payload);
    Association association = recipient.association();
    if (association == null) {
      drops.dropped(e, "no association with " + recipient.path().address() + " can be made now: "
          + settings.maximumAssociations() + " exist (troupe.remote.advanced.maximum-associations)");
      return;
    }
    if (lane == Lane.CONTROL) {
      // a sequenced message must never be dropped by the encoder (its number would leave a gap):
      // the frame's bound is checked here with the paths in full, as on a new connection
      long frame = SYSTEM_FRAME_OVERHEAD + payload.bytes().length + payload.manifest().length() * 3L
          + recipient.serializedPath().length() * 3L + (sender == null ? 0 : sender.path().toSerializationFormat().length() * 3L);
      if (frame > settings.maximumFrameSize()) {
        drops.dropped(e, "the system message's frame could exceed troupe.remote.maximum-frame-size");
        return;
      }
      association.sendSystem(e);
    } else {
      association.lane(lane).send(e);
    }
  }

  // ------------------------------------------------------------------ in (on an event loop)

  /**
   * A queue for the selections that arrive on {@code channel}, resolved on the default
   * dispatcher.
   */
  InboundSelections inboundSelections(Channel channel) {
    return new InboundSelections(
        channel, system.dispatcher(), settings.inboundSelectionQueueSize(), settings.maximumFrameSize(), selectionTarget);
  }

  /**
   * Deserializes a message that arrived from {@code origin} and delivers it; a selection is only
   * queued on {@code selections}, its connection's, to be resolved on the dispatcher. The cheap
   * checks come first: that the recipient is on this node, then, in untrusted mode, what the
   * serializer and manifest alone refuse; only then are the bytes read (a selection is, to check
   * its path).
   */
  void receive(
      InternalActorRef recipient,
      InternalActorRef sender,
      int serializerId,
      String manifest,
      byte[] bytes,
      Address origin,
      InboundSelections selections) {
    if (!recipient.path().address().equals(address)) {
      drops.dropped(
          new Serialized(serializerId, manifest, bytes),
          "the recipient " + recipient.path() + " (from " + origin + ") is not on this node",
          sender,
          local.deadLetters());
      return;
    }
    if (settings.untrustedMode()) {
      String refused = untrustedRefusal(serializerId, manifest);
      if (refused != null) {
        drops.dropped(
            new Serialized(serializerId, manifest, bytes),
            "troupe.remote.untrusted-mode = on refuses it from " + origin + ": " + refused,
            sender,
            recipient);
        return;
      }
    }
    Object message;
    try {
      message = serialization.deserialize(serializerId, manifest, bytes);
    } catch (RuntimeException e) {
      drops.dropped(
          new Serialized(serializerId, manifest, bytes),
          "cannot deserialize it (from " + origin + "): " + e.getMessage(),
          sender,
          recipient);
      return;
    }
    if (settings.untrustedMode()) {
      String refused = untrustedRefusal(message, origin);
      if (refused != null) {
        drops.dropped(message, "troupe.remote.untrusted-mode = on refuses it from " + origin + ": " + refused, sender, recipient);
        return;
      }
    }
    try {
      if (message instanceof ActorSelectionMessage selection) {
        selections.submit(selection, sender, bytes.length); // never walked on the event loop
      } else if (message instanceof SystemMessage systemMessage) {
        if (message instanceof DeathWatchNotification d && !d.actor().path().address().equals(address)) {
          watchedNodes.unwatched(d.actor(), recipient); // that watch is over
        }
        recipient.sendSystemMessage(systemMessage);
      } else {
        Status.Failure answer = absentRecipients.answerFor(recipient, sender, message, origin);
        recipient.tell(AbsentRecipients.restored(recipient, message), sender); // an absent one: dead letters, as ever
        if (answer != null) { // and the ask that sent it fails now, not at its timeout
          send((RemoteActorRef) sender, answer, null, Lane.ORDINARY);
        }
      }
    } catch (RuntimeException e) {
      drops.dropped(message, "delivery failed: " + e, sender, recipient);
    }
  }

  /** Resolves the selections of {@link InboundSelections} from the root, on the dispatcher. */
  private final class SelectionTarget implements InboundSelections.Target {
    @Override
    public void deliver(ActorSelectionMessage selection, ActorRef sender) {
      try {
        local.deliverSelection(selection, sender);
      } catch (RuntimeException e) {
        drops.dropped(selection.message(), "delivery failed: " + e, sender, local.rootGuardian());
      }
    }

    @Override
    public void dropped(ActorSelectionMessage selection, ActorRef sender, String why) {
      drops.dropped(
          selection.message(),
          "a selection of " + selection.elements().size() + " path elements was not resolved: " + why,
          sender,
          local.rootGuardian());
    }
  }

  /**
   * Incarnation {@code peerUid} of the node of {@code a} said it leaves, on the connection that owns
   * its control stream ({@link InboundConnectionHandler} checked that): its actors count as
   * terminated. Ignored when that incarnation is not the node's current one.
   */
  void leaving(Association a, long peerUid) {
    if (!a.left(peerUid)) { // its unacknowledged system messages are given up once it can no longer be reached
      return;
    }
    watchedNodes.forget(a.remote);
    if (a.declareGone()) {
      logger.info("{} leaves (its system terminates): its actors count as terminated for their watchers", a.remote);
      runtime.addressTerminated(a.remote);
    }
  }

  /**
   * The failure detector gave up on {@code node}, a watched node that vanished: its actors count
   * as terminated, and its incarnation is quarantined (system messages to it can no longer be
   * delivered exactly once).
   */
  private void unreachable(Address node, double phi, long silentMillis) {
    Association a = association(node);
    String why =
        "no heartbeat response for " + silentMillis + " ms (phi " + String.format(java.util.Locale.ROOT, "%.1f", phi)
            + " above troupe.remote.watch-failure-detector.threshold = " + settings.failureThreshold() + ")";
    if (a == null || a.declareGone()) {
      logger.warn("{} is unreachable: {}; its actors count as terminated for their watchers", node, why);
    }
    runtime.addressTerminated(node); // even when told before: the watches made since then hear it too
    if (a != null) {
      a.quarantine("it is unreachable: " + why);
    }
  }

  @Override
  public void incarnationGone(Association a, long oldUid, String why) {
    watchedNodes.forget(a.remote);
    if (oldUid != 0) {
      logger.info("{} (uid {}) is gone: {}; its actors count as terminated for their watchers", a.remote, oldUid, why);
    }
    runtime.addressTerminated(a.remote);
  }

  @Override
  public void quarantined(Association a, long peerUid, String why, List<OutboundEnvelope> lost) {
    logger.warn(
        "quarantined {} (uid {}): {}; nothing more is exchanged with that incarnation, a restarted node is"
            + " reached again",
        a.remote,
        peerUid,
        why);
    system.eventStream().publish(new QuarantinedEvent(a.remote, peerUid));
    for (OutboundEnvelope e : lost) {
      drops.dropped(e, a.remote + " (uid " + peerUid + ") is quarantined: " + why);
    }
    watchedNodes.forget(a.remote);
    runtime.addressTerminated(a.remote);
  }

  @Override
  public void dropped(OutboundEnvelope e, String reason) {
    drops.dropped(e, reason);
  }

  /**
   * What {@link #untrustedRefusal(Object, Address)} refuses for the class that a manifest of one of
   * Troupe's serializers names alone, decided before the bytes are read: system messages but death
   * notices, selections and deployment requests (which depend on what they carry), PoisonPill and
   * Kill.
   *
   * @return why a message with this serializer and manifest is refused, or null if its bytes decide
   */
  private String untrustedRefusal(int serializerId, String manifest) {
    Serializer s;
    try {
      s = serialization.serializerById(serializerId);
    } catch (SerializationException unknown) {
      return null; // refused as unreadable
    }
    Class<?> c =
        s instanceof MessageSerializer
            ? MessageSerializer.classOf(manifest)
            : s instanceof SystemMessageSerializer
                ? SystemMessageSerializer.classOf(manifest)
                : s instanceof DeploymentSerializer ? DeploymentSerializer.classOf(manifest) : null;
    if (c == null || c == DeathWatchNotification.class || c == ActorSelectionMessage.class || c == DeploymentMessages.DeployRequest.class) {
      return null;
    }
    if (SystemMessage.class.isAssignableFrom(c)) {
      return "a system message (" + c.getSimpleName() + ")";
    }
    return c == PoisonPill.class || c == Kill.class ? c.getSimpleName() : null;
  }

  /**
   * What untrusted mode refuses: system messages (but a peer's report of the death of one of its
   * own actors, which answers a watch made here), PoisonPill and Kill, also inside a selection,
   * and a selection of a path not in {@code trusted-selection-paths}. A deployment request is let
   * through to {@code /remote}, which refuses it with an answer, so that the deploying node's ref
   * terminates at once.
   *
   * @return why {@code message} is refused, or null
   */
  private String untrustedRefusal(Object message, Address origin) {
    if (message instanceof DeploymentMessages.DeployRequest) {
      return null;
    }
    Object m = message;
    if (message instanceof ActorSelectionMessage s) {
      String path = "/" + String.join("/", s.elements());
      if (!settings.trustedSelectionPaths().contains(path)) {
        return "a selection of " + path + ", which is not in troupe.remote.trusted-selection-paths";
      }
      m = s.message();
    }
    if (m instanceof DeathWatchNotification d && d.actor().path().address().equals(origin)) {
      return null;
    }
    if (m instanceof SystemMessage) {
      return "a system message (" + m.getClass().getSimpleName() + ")";
    }
    return m instanceof PoisonPill || m instanceof Kill ? m.getClass().getSimpleName() : null;
  }
}
