package dev.troupe.remote.internal.provider;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Kill;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.actor.WrappedMessage;
import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.runtime.spi.TraceCarrier;
import dev.troupe.remote.QuarantinedEvent;
import dev.troupe.remote.internal.association.Association;
import dev.troupe.remote.internal.association.Associations;
import dev.troupe.remote.internal.association.OutboundLane;
import dev.troupe.remote.internal.association.RemoteActorRef;
import dev.troupe.remote.internal.association.SerializationTimes;
import dev.troupe.remote.internal.config.RemoteSettings;
import dev.troupe.remote.internal.deploy.DeploymentHost;
import dev.troupe.remote.internal.deploy.DeploymentMessages;
import dev.troupe.remote.internal.deploy.DeploymentSerializer;
import dev.troupe.remote.internal.deploy.DeploymentSettings;
import dev.troupe.remote.internal.deploy.OutgoingDeployments;
import dev.troupe.remote.internal.deploy.RemoteDaemon;
import dev.troupe.remote.internal.transport.ControlFrame;
import dev.troupe.remote.internal.transport.Drops;
import dev.troupe.remote.internal.transport.InboundEnvelope;
import dev.troupe.remote.internal.transport.InboundHost;
import dev.troupe.remote.internal.transport.InboundPeer;
import dev.troupe.remote.internal.transport.Lane;
import dev.troupe.remote.internal.transport.NettyTransport;
import dev.troupe.remote.internal.transport.OutboundEnvelope;
import dev.troupe.remote.internal.transport.RateLimitedLog;
import dev.troupe.remote.internal.transport.Traffic;
import dev.troupe.remote.internal.transport.Wire;
import dev.troupe.remote.internal.watch.WatchedNodes;
import dev.troupe.remote.spi.PeerEvent;
import dev.troupe.remote.spi.PeerListener;
import dev.troupe.remote.spi.RemoteMetricsView;
import dev.troupe.remote.spi.RemoteProvider;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;
import dev.troupe.serialization.internal.MessageSerializer;
import dev.troupe.serialization.internal.SystemMessageSerializer;
import io.netty.channel.Channel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code troupe.actor.provider = remote}: the local provider (built with the bound address) for
 * this node's actors, {@link RemoteActorRef}s for every other address, and the {@link
 * NettyTransport} between them. What arrives is delivered as the runtime's seam expects: user
 * messages with {@code tell}, selections through {@link LocalActorRefProvider#deliverSelection}
 * on the default dispatcher (queued per connection by {@link InboundSelections}, never walked on a
 * network thread), watch, unwatch, death notices and stop with {@code sendSystemMessage}. With
 * {@code inbound-lanes} above 1, user messages are deserialized and delivered on the default
 * dispatcher too, through the {@link InboundLanes} (hashed by recipient, so that each pair keeps
 * its order); system messages stay on the event loop that read them.
 *
 * <p>A whole node going is reported to death watch ({@link RuntimeSystem#addressTerminated})
 * when it says it leaves (a leaving notice at its termination) or when {@link WatchedNodes}' failure
 * detector gives up on it, which also quarantines that incarnation; system messages to a node go
 * through its {@link Association}'s exactly-once sequence.
 *
 * <p>It sits on top of remoting's layers: the transport ({@link NettyTransport}, which knows this
 * provider only as its {@link InboundHost}), the {@link Associations} with their lanes (a remote
 * {@code tell} goes from the ref to its association, not through here), death watch across nodes
 * ({@link WatchedNodes}) and remote deployment ({@link RemoteDaemon}, which knows it only as its
 * {@link DeploymentHost}).
 *
 * <p>One file past 700 lines: it is the one place where the runtime's provider seam, the
 * transport's {@link InboundHost}, the associations' hooks and the deployment host meet, and most
 * of its length is the inbound checks (origin, trust, quarantine, drops) that each of those entry
 * points shares; the layers it delegates to are already classes of their own.
 */
final class RemoteActorRefProvider implements RemoteProvider, Association.Hooks, InboundHost, DeploymentHost {

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
  private final Associations associations;
  private final CopyOnWriteArrayList<PeerListener> peerListeners = new CopyOnWriteArrayList<>();
  private final LongSupplier clock = System::nanoTime;
  private final WatchedNodes watchedNodes;
  private final RemoteDaemon daemon; // remote deployment: /remote
  private final AbsentRecipients absentRecipients; // answers asks of stopped actors here
  private final InboundSelections.Target selectionTarget = new SelectionTarget();
  private final InboundLanes<LaneMessage> lanes; // null with inbound-lanes = 1: delivered on the event loop
  private final RemoteMetricsView metricsView = new MetricsView();

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
    this.transport = new NettyTransport(this, system.name(), settings, log, drops);
    this.watchedNodes = new WatchedNodes(settings, clock, this::unreachable, this::heartbeatAssociation, transport::nextLoop);
    int port = transport.bind();
    try {
      this.address =
          Address.remote(system.name(), settings.canonicalHost(), settings.canonicalPort() == 0 ? port : settings.canonicalPort());
      this.local = runtime.newLocalProvider(address);
      this.absentRecipients =
          new AbsentRecipients(address, node -> {
            Association a = associations().existing(node);
            return a != null && !a.retired() && a.confirmed();
          });
      // Checks troupe.serialization now, not at the first message; last, as the registry is kept
      // until the system terminates, which a failed create never does.
      this.serialization = Serialization.get(system);
      this.associations = new Associations(runtime, settings, transport, drops, this, watchedNodes, serialization, clock, logger);
      this.daemon = new RemoteDaemon(this, settings, deployment, logger, () -> serialization);
      this.lanes =
          settings.inboundLanes() == 1
              ? null
              : new InboundLanes<>(
                  settings.inboundLanes(),
                  system.dispatcher(),
                  settings.inboundLaneQueueSize(),
                  settings.inboundLaneQueueBytes(),
                  new LaneTarget());
    } catch (RuntimeException | Error e) {
      transport.shutdown();
      throw e;
    }
  }

  @Override
  public RuntimeSystem system() {
    return runtime;
  }

  @Override
  public Drops drops() {
    return drops;
  }

  public RemoteSettings settings() {
    return settings;
  }

  @Override
  public long uid() {
    return uid;
  }

  /** @return the port this node listens on (its address's port unless canonical and bind differ) */
  int boundPort() {
    return transport.boundPort();
  }

  public NettyTransport transport() {
    return transport;
  }

  @Override
  public WatchedNodes watchedNodes() {
    return watchedNodes;
  }

  @Override
  public Associations associations() {
    return associations;
  }

  /**
   * @return where death watch's heartbeats to {@code node} go: its association, or null (no
   *     heartbeat, the silence counts) while a test's failure injector cuts the node off
   */
  private Association heartbeatAssociation(Address node) {
    return associations.cutOff(node) ? null : association(node);
  }

  /** @return the association with {@code remote}, created on first use; null at {@code maximum-associations} */
  public Association association(Address remote) {
    return associations.association(remote);
  }

  /** @return {@code /remote}, the daemon of remote deployment */
  RemoteDaemon daemon() {
    return daemon;
  }

  /** @return the deploying side of remote deployment */
  public OutgoingDeployments outgoing() {
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
    associations.startSweeping();
    RemoteMetricsView.register(system, metricsView);
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
    return new RemoteActorRef(associations, path);
  }

  @Override
  public InternalActorRef rootGuardianAt(Address a) {
    if (a.equals(address) || (a.hasLocalScope() && a.system().equals(system.name()))) {
      return local.rootGuardian();
    }
    return a.hasGlobalScope() ? new RemoteActorRef(associations, ActorPath.root(a)) : local.rootGuardianAt(a);
  }

  @Override
  public InternalActorRef actorOf(InternalActorRef parent, Props props, ActorPath path, Address target) {
    return daemon.outgoing().deploy(parent, props, path, target, serialization);
  }

  @Override
  public void shutdown() {
    RemoteMetricsView.unregister(system, metricsView);
    watchedNodes.stop();
    sayLeaving();
    for (Association a : associations.all()) {
      a.stopTimers();
      for (OutboundLane l : a.lanes()) {
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
    for (Association a : associations.all()) {
      if (a.associated() && !associations.cutOff(a.remote)) {
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

  // ------------------------------------------------------------------ the remoting SPI

  @Override
  public OptionalLong incarnation(Address node) {
    Association a = associations.existing(node);
    long u = a == null ? 0 : a.uid();
    return u == 0 ? OptionalLong.empty() : OptionalLong.of(u);
  }

  @Override
  public Runnable subscribe(PeerListener listener) {
    peerListeners.add(listener);
    return () -> peerListeners.remove(listener);
  }

  private void tell(PeerEvent e) {
    for (PeerListener l : peerListeners) {
      try {
        l.onPeerEvent(e);
      } catch (RuntimeException failed) {
        log.warn("a listener of peer events failed on {}: {}", e, failed.toString());
      }
    }
  }

  @Override
  public void quarantine(Address node, long peerUid, String reason) {
    Association a = associations.association(node);
    if (a == null) {
      logger.warn("cannot quarantine {} (uid {}) now: {} associations exist (troupe.remote.advanced.maximum-associations)",
          node, peerUid, settings.maximumAssociations());
      return;
    }
    if (!a.quarantine(peerUid, reason)) {
      logger.info("{} (uid {}) is not the node's current incarnation: it is refused from now on ({})", node, peerUid, reason);
    }
  }

  @Override
  public void addressTerminated(Address node, String reason) {
    gone(node, "is declared terminated: " + reason, "it was declared terminated: " + reason);
  }

  /**
   * {@code node} is gone without leaving: its actors count as terminated for their watchers (said
   * once, when its association first learns it), and its incarnation is quarantined.
   *
   * @param node the node
   * @param what what became of it, for the log ("is unreachable: ...")
   * @param quarantine the quarantine's reason
   */
  private void gone(Address node, String what, String quarantine) {
    Association a = associations.association(node);
    if (a == null || a.declareGone()) {
      logger.warn("{} {}; its actors count as terminated for their watchers", node, what);
    }
    runtime.addressTerminated(node); // even when told before: the watches made since then hear it too
    if (a != null) {
      a.quarantine(quarantine);
    }
  }

  // ------------------------------------------------------------------ Association.Hooks

  @Override
  public void lifecycle(Association a, boolean up, long peerUid) {
    if (!peerListeners.isEmpty()) {
      tell(up ? new PeerEvent.Associated(a.remote, peerUid) : new PeerEvent.Disassociated(a.remote, peerUid));
    }
  }

  @Override
  public Association successor(Address remote) {
    return associations.association(remote);
  }

  @Override
  public void heartbeatResponse(Association a) {
    watchedNodes.heartbeatResponse(a.remote);
  }

  // ------------------------------------------------------------------ in (on an event loop)

  @Override
  public InternalActorRef resolve(ActorPath path) {
    return resolveActorRef(path);
  }

  /**
   * The origin's association judges the handshake of an accepted connection ({@link
   * Association#inboundUp}); one retired just now hands it to the association that replaces it.
   */
  @Override
  public InboundPeer accept(Channel channel, Wire.Handshake h) {
    Association a = associations.association(h.origin());
    String refused = a == null ? null : a.inboundUp(channel, h.lane(), h.originUid());
    if (refused == Association.RETIRED) { // retired just now: the association that replaces it takes the connection
      a = associations.association(h.origin());
      refused = a == null ? null : a.inboundUp(channel, h.lane(), h.originUid());
    }
    if (a == null) {
      throw new Wire.ProtocolException("this node keeps " + settings.maximumAssociations()
          + " associations already, none idle (troupe.remote.advanced.maximum-associations)");
    }
    if (refused != null) {
      throw new Wire.ProtocolException(refused);
    }
    ReadGate gate = new ReadGate(channel);
    return new Peer(a, h, inboundSelections(gate), gate);
  }

  /** One accepted connection whose handshake passed: what it delivers, from whom. */
  private final class Peer implements InboundPeer {
    private final Association association;
    private final Wire.Handshake handshake;
    private final InboundSelections selections;
    private final ReadGate gate;

    Peer(Association association, Wire.Handshake handshake, InboundSelections selections, ReadGate gate) {
      this.association = association;
      this.handshake = handshake;
      this.selections = selections;
      this.gate = gate;
    }

    @Override
    public boolean ownsControl(Channel channel) {
      return association.ownsControl(channel);
    }

    @Override
    public void message(InboundEnvelope e) {
      if (e.malformed() != null) {
        dropMalformed(e);
      } else if (lanes == null) {
        receive(e.recipient(), e.sender(), e.serializerId(), e.manifest(), e.bytes(), handshake.origin(), selections, e.traceContext());
      } else {
        lanes.submit(e.recipientPathHash(), new LaneMessage(e.recipient(), e.sender(), e.serializerId(), e.manifest(), e.bytes(), e.traceContext(), this));
      }
    }

    @Override
    public long systemMessage(InboundEnvelope e) {
      if (e.malformed() != null) {
        return association.inbound().receive(handshake.originUid(), e.seq(), () -> dropMalformed(e));
      }
      InternalActorRef to = e.recipient();
      InternalActorRef from = e.sender();
      int serializerId = e.serializerId();
      String manifest = e.manifest();
      byte[] bytes = e.bytes();
      return association.inbound().receive(
          handshake.originUid(),
          e.seq(),
          () -> receive(to, from, serializerId, manifest, bytes, handshake.origin(), selections, null));
    }

    private void dropMalformed(InboundEnvelope e) {
      drops.dropped(e.payload(), "malformed path from " + handshake.origin() + ": " + e.malformed(), null, local.deadLetters());
    }

    @Override
    public void leaving() {
      RemoteActorRefProvider.this.leaving(association, handshake.originUid());
    }

    @Override
    public void closed(Channel channel) {
      association.inboundClosed(channel);
      association.connectionDown(handshake.originUid());
    }
  }

  /** A user message that arrived, on its way through an inbound lane: what its envelope said. */
  private record LaneMessage(
      InternalActorRef recipient,
      InternalActorRef sender,
      int serializerId,
      String manifest,
      byte[] bytes,
      String traceContext, // null when the message came untraced
      Peer peer)
      implements InboundLane.Item {
    @Override
    public int size() {
      return bytes.length;
    }

    @Override
    public ReadGate gate() {
      return peer.gate;
    }
  }

  /** Deserializes and delivers the messages of the inbound lanes, on the dispatcher. */
  private final class LaneTarget implements InboundLane.Target<LaneMessage> {
    @Override
    public void deliver(LaneMessage m) {
      receive(m.recipient(), m.sender(), m.serializerId(), m.manifest(), m.bytes(), m.peer().handshake.origin(), m.peer().selections, m.traceContext());
    }

    @Override
    public void dropped(LaneMessage m, String why) {
      drops.dropped(
          new Serialized(m.serializerId(), m.manifest(), m.bytes()),
          why + " (from " + m.peer().handshake.origin() + ")",
          m.sender(),
          m.recipient());
    }
  }

  /** @return the inbound lanes, null when messages are delivered on the event loop; for tests */
  InboundLanes<?> inboundLanes() {
    return lanes;
  }

  /**
   * A queue for the selections that arrive on the connection of {@code gate}, resolved on the
   * default dispatcher.
   */
  InboundSelections inboundSelections(ReadGate gate) {
    return new InboundSelections(
        gate, system.dispatcher(), settings.inboundSelectionQueueSize(), settings.maximumFrameSize(), selectionTarget);
  }

  /**
   * Deserializes a message that arrived from {@code origin} and delivers it; a selection is only
   * queued on {@code selections}, its connection's, to be resolved on the dispatcher. The cheap
   * checks come first: that the recipient is on this node, then, in untrusted mode, what the
   * serializer and manifest alone refuse; only then are the bytes read (a selection is, to check
   * its path). A user message that came with a trace context is told within it ({@link
   * #tellTraced}).
   *
   * @param traceContext the frame's trace context, or null (untraced, and every system message)
   */
  public void receive(
      InternalActorRef recipient,
      InternalActorRef sender,
      int serializerId,
      String manifest,
      byte[] bytes,
      Address origin,
      InboundSelections selections,
      String traceContext) {
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
    SerializationTimes times = associations.serializationTimes();
    long start = times == null ? 0 : System.nanoTime();
    try {
      message = serialization.deserialize(serializerId, manifest, bytes);
      if (times != null) {
        times.deserialized(System.nanoTime() - start);
      }
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
        Object restored = AbsentRecipients.restored(recipient, message); // an absent one: dead letters, as ever
        if (traceContext == null) {
          recipient.tell(restored, sender);
        } else {
          tellTraced(traceContext, recipient, restored, sender, origin);
        }
        if (answer != null) { // and the ask that sent it fails now, not at its timeout
          associations.send((RemoteActorRef) sender, answer, null, Lane.ORDINARY);
        }
      }
    } catch (RuntimeException e) {
      drops.dropped(message, "delivery failed: " + e, sender, recipient);
    }
  }

  /**
   * Tells a message that came with a trace context within that context, through the installed
   * tracing module; without one the context is ignored. A malformed context (the peer's fault) is
   * ignored too, with a rate-limited warning: the message is delivered untraced and the connection
   * stays.
   */
  private void tellTraced(String traceContext, InternalActorRef recipient, Object message, InternalActorRef sender, Address origin) {
    TraceCarrier tracing = runtime.traceCarrier();
    if (tracing == null) {
      recipient.tell(message, sender);
    } else if (!tracing.tellWithin(traceContext, recipient, message, sender)) {
      log.warn("ignoring a malformed trace context from {} (the message to {} is delivered untraced): '{}'",
          origin, recipient.path(), printable(traceContext));
    }
  }

  /** @return {@code s} cut to 120 characters, control characters and those beyond ASCII as '?', for a log line */
  private static String printable(String s) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), 123));
    for (int i = 0; i < s.length() && i < 120; i++) {
      char c = s.charAt(i);
      b.append(c < 0x20 || c > 0x7E ? '?' : c);
    }
    return s.length() > 120 ? b.append("...").toString() : b.toString();
  }

  /** Resolves the selections of {@link InboundSelections} from the root, on the dispatcher. */
  /** What the meters read: the transport's counts per peer and the watched nodes' phi. */
  private final class MetricsView implements RemoteMetricsView {
    @Override
    public List<PeerTraffic> peers() {
      List<Traffic.Peer> peers = transport.traffic().peers();
      List<PeerTraffic> out = new ArrayList<>(peers.size());
      for (Traffic.Peer p : peers) {
        Traffic.Totals t = p.totals();
        out.add(new PeerTraffic(p.address(), t.messagesSent(), t.bytesSent(), t.messagesReceived(), t.bytesReceived()));
      }
      return out;
    }

    @Override
    public Map<Address, Double> phi() {
      return watchedNodes.phis();
    }

    @Override
    public Optional<SerializationTime> serializationTime() {
      SerializationTimes t = associations.serializationTimes();
      return t == null
          ? Optional.empty()
          : Optional.of(new SerializationTime(t.serializations(), t.serializeNanos(), t.deserializations(), t.deserializeNanos()));
    }
  }

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
   * its control stream (the transport's dispatcher checked that): its actors count as
   * terminated. Ignored when that incarnation is not the node's current one.
   */
  public void leaving(Association a, long peerUid) {
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
    String why =
        "no heartbeat response for " + silentMillis + " ms (phi " + String.format(java.util.Locale.ROOT, "%.1f", phi)
            + " above troupe.remote.watch-failure-detector.threshold = " + settings.failureThreshold() + ")";
    gone(node, "is unreachable: " + why, "it is unreachable: " + why);
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
    tell(new PeerEvent.Quarantined(a.remote, peerUid, why));
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

  /** How deep untrusted mode looks into messages that wrap others. */
  static final int MAX_WRAPPING = 16;

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
   * own actors, which answers a watch made here), PoisonPill and Kill, also inside a selection or
   * a {@link WrappedMessage} (at most {@value #MAX_WRAPPING} deep: deeper is refused too), and a
   * selection of a path not in {@code trusted-selection-paths}. A deployment request is let
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
    for (int depth = 0; m instanceof WrappedMessage w; depth++) {
      if (depth == MAX_WRAPPING) {
        return "a message wrapped more than " + MAX_WRAPPING + " deep";
      }
      m = w.message();
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
