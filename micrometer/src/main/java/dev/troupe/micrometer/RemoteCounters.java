package dev.troupe.micrometer;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.EventStream;
import dev.troupe.remote.AssociatedEvent;
import dev.troupe.remote.DisassociatedEvent;
import dev.troupe.remote.Dropped;
import dev.troupe.remote.QuarantinedEvent;
import dev.troupe.remote.RemotingLifecycleEvent;
import dev.troupe.remote.spi.RemoteMetricsView;
import dev.troupe.remote.spi.RemoteMetricsView.PeerTraffic;
import dev.troupe.remote.spi.RemoteMetricsView.SerializationTime;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;

/**
 * Remoting's meters: from the events remoting publishes, {@link Dropped} by reason, and per peer
 * the associations, disassociations and quarantines; from remoting's {@link RemoteMetricsView},
 * per peer the messages and bytes each way and, per watched node, the failure detector's phi.
 * Loaded only when {@code troupe-remoting} is present (this class names its types).
 *
 * <p>The view is read at each {@link #refresh()} (the binder's interval): the traffic meters are
 * functions over the latest reading, as the telemetry meters are, and a peer or watched node seen
 * for the first time gets its meters then.
 *
 * <p>A {@code Dropped} event's reason is a sentence for people (it names addresses, sizes and
 * exception messages); the {@code reason} tag is a fixed category read from it, so that the tag
 * keeps a handful of values. Peers are tagged by address, at most {@value #MAX_PEERS} of them
 * (remote nodes can come and go without end; later ones count under {@code peer = "other"}).
 */
final class RemoteCounters {
  /** The {@code reason} tag's values, every one registered from the start. */
  static final List<String> DROP_REASONS =
      List.of(
          "too-large",
          "serialization",
          "deserialization",
          "quarantined",
          "untrusted",
          "not-on-this-node",
          "delivery-failed",
          "other");

  static final int MAX_PEERS = 256;

  private final TroupeMetrics binder;
  private final Tags tags;
  private final Map<String, LongAdder> dropped = new ConcurrentHashMap<>();
  private final Map<String, Peer> peers = new ConcurrentHashMap<>();
  private final Set<String> associated = ConcurrentHashMap.newKeySet();
  private final RemoteMetricsView view; // null: the provider registered none (e.g. terminated)
  // peers (tag values) whose traffic meters exist; "other" sums the peers beyond MAX_PEERS
  private final Set<String> trafficPeers = ConcurrentHashMap.newKeySet();
  private final Set<String> phiPeers = ConcurrentHashMap.newKeySet();
  // written by refresh(), read by the meters' functions on any thread
  private volatile Map<String, PeerTraffic> traffic = Map.of();
  private volatile Map<String, Double> phi = Map.of();

  RemoteCounters(TroupeMetrics binder, ActorSystem system, Tags tags) {
    this.binder = binder;
    this.tags = tags;
    this.view = RemoteMetricsView.of(system).orElse(null);
    for (String r : DROP_REASONS) {
      dropped.put(r, new LongAdder());
    }
  }

  /** @return whether there is a view to read at each refresh */
  boolean refreshes() {
    return view != null;
  }

  /**
   * Reads the view: the traffic and phi of each peer, and meters for peers seen for the first
   * time. On the binder's refresh (one thread at a time).
   */
  void refresh() {
    if (view == null) {
      return;
    }
    Map<String, PeerTraffic> t = new HashMap<>();
    for (PeerTraffic p : view.peers()) {
      String key = p.address().toString();
      if (!trafficPeers.contains(key) && trafficPeers.size() >= MAX_PEERS - 1) {
        key = "other"; // the cap: MAX_PEERS - 1 named peers, and the rest together
      }
      t.merge(key, p, RemoteCounters::sum);
    }
    Map<String, Double> f = new HashMap<>();
    for (Map.Entry<Address, Double> e : view.phi().entrySet()) {
      String key = e.getKey().toString();
      if (phiPeers.contains(key) || phiPeers.size() < MAX_PEERS) {
        f.put(key, e.getValue());
      }
    }
    traffic = t;
    phi = f;
    for (String peer : t.keySet()) {
      if (trafficPeers.add(peer)) {
        binder.registerNew(r -> registerTraffic(r, peer));
      }
    }
    for (String peer : f.keySet()) {
      if (phiPeers.add(peer)) {
        binder.registerNew(r -> registerPhi(r, peer));
      }
    }
  }

  private void timer(MeterRegistry r, String name, String description,
      ToLongFunction<SerializationTime> count, ToLongFunction<SerializationTime> nanos) {
    binder.register(
        r,
        FunctionTimer.builder(
                name,
                view,
                v -> v.serializationTime().map(count::applyAsLong).orElse(0L),
                v -> v.serializationTime().map(nanos::applyAsLong).orElse(0L),
                TimeUnit.NANOSECONDS)
            .description(description)
            .tags(tags)
            ::register);
  }

  private static PeerTraffic sum(PeerTraffic a, PeerTraffic b) {
    return new PeerTraffic(
        a.address(),
        a.messagesSent() + b.messagesSent(),
        a.bytesSent() + b.bytesSent(),
        a.messagesReceived() + b.messagesReceived(),
        a.bytesReceived() + b.bytesReceived());
  }

  private void registerTraffic(MeterRegistry r, String peer) {
    Tags t = tags.and("peer", peer);
    traffic(r, "troupe.remote.messages.sent", "messages written to the node's connections", t, peer,
        PeerTraffic::messagesSent);
    traffic(r, "troupe.remote.bytes.sent", "bytes written to the node's connections (frames, before TLS)",
        t, peer, PeerTraffic::bytesSent);
    traffic(r, "troupe.remote.messages.received", "messages read from the node's connections", t, peer,
        PeerTraffic::messagesReceived);
    traffic(r, "troupe.remote.bytes.received", "bytes read from the node's connections (after TLS)",
        t, peer, PeerTraffic::bytesReceived);
  }

  private void traffic(MeterRegistry r, String name, String description, Tags t, String peer,
      ToLongFunction<PeerTraffic> value) {
    binder.register(
        r,
        FunctionCounter.builder(name, this, m -> {
              PeerTraffic p = m.traffic.get(peer);
              return p == null ? 0 : value.applyAsLong(p);
            })
            .description(description)
            .tags(t)
            ::register);
  }

  private void registerPhi(MeterRegistry r, String peer) {
    binder.register(
        r,
        Gauge.builder("troupe.remote.phi", this, m -> m.phi.getOrDefault(peer, Double.NaN))
                .description("the failure detector's phi for the watched node (NaN once it is not watched)")
                .tags(tags.and("peer", peer))
            ::register);
  }

  /**
   * The category of a drop's reason, from the sentences remoting writes (see its {@code Drops}
   * callers); a sentence not recognized is {@code other}.
   *
   * @param reason the {@link Dropped#reason()}
   * @return one of {@link #DROP_REASONS}
   */
  static String category(String reason) {
    if (reason == null) {
      return "other";
    }
    if (reason.contains("is quarantined")) {
      return "quarantined";
    }
    if (reason.contains("maximum-frame-size")) {
      return "too-large";
    }
    if (reason.startsWith("cannot serialize")) {
      return "serialization";
    }
    if (reason.startsWith("cannot deserialize")) {
      return "deserialization";
    }
    if (reason.contains("untrusted-mode")) {
      return "untrusted";
    }
    if (reason.contains("is not on this node")) {
      return "not-on-this-node";
    }
    if (reason.startsWith("delivery failed")) {
      return "delivery-failed";
    }
    return "other";
  }

  void registerIn(MeterRegistry r) {
    for (Map.Entry<String, LongAdder> e : dropped.entrySet()) {
      binder.register(
          r,
          FunctionCounter.builder("troupe.remote.dropped", e.getValue(), LongAdder::sum)
                  .description("messages remoting dropped (each also a Dropped event)")
                  .tags(tags.and("reason", e.getKey()))
              ::register);
    }
    binder.register(
        r,
        Gauge.builder("troupe.remote.associated", associated, Set::size)
                .description("remote nodes with a live association")
                .tags(tags)
            ::register);
    for (Map.Entry<String, Peer> e : peers.entrySet()) {
      e.getValue().registerIn(r, e.getKey());
    }
    if (view != null && view.serializationTime().isPresent()) { // measure-serialization = on
      timer(r, "troupe.remote.serialization.time", "time spent serializing outgoing messages",
          SerializationTime::serializations, SerializationTime::serializeNanos);
      timer(r, "troupe.remote.deserialization.time", "time spent deserializing arriving messages",
          SerializationTime::deserializations, SerializationTime::deserializeNanos);
    }
    for (String peer : trafficPeers) {
      registerTraffic(r, peer);
    }
    for (String peer : phiPeers) {
      registerPhi(r, peer);
    }
  }

  void subscribe(EventStream events, ActorRef subscriber) {
    events.subscribe(subscriber, Dropped.class);
    events.subscribe(subscriber, RemotingLifecycleEvent.class);
  }

  /** An event from the stream (publisher's thread). */
  void count(Object event) {
    if (event instanceof Dropped d) {
      dropped.get(category(d.reason())).increment();
    } else if (event instanceof AssociatedEvent a) {
      String p = a.remote().toString();
      associated.add(p);
      peer(p).associations.increment();
    } else if (event instanceof DisassociatedEvent a) {
      String p = a.remote().toString();
      associated.remove(p);
      peer(p).disassociations.increment();
    } else if (event instanceof QuarantinedEvent q) {
      peer(q.remote().toString()).quarantines.increment();
    }
  }

  private Peer peer(String address) {
    Peer p = peers.get(address);
    if (p != null) {
      return p;
    }
    String key = peers.size() >= MAX_PEERS ? "other" : address;
    Peer fresh = new Peer();
    p = peers.putIfAbsent(key, fresh);
    if (p == null) {
      binder.registerNew(r -> fresh.registerIn(r, key));
      p = fresh;
    }
    return p;
  }

  /** One remote node's counters. */
  private final class Peer {
    final LongAdder associations = new LongAdder();
    final LongAdder disassociations = new LongAdder();
    final LongAdder quarantines = new LongAdder();

    void registerIn(MeterRegistry r, String peer) {
      Tags t = tags.and("peer", peer);
      counter(r, "troupe.remote.associations", "associations established with the node", t,
          associations);
      counter(r, "troupe.remote.disassociations", "associations with the node that ended", t,
          disassociations);
      counter(r, "troupe.remote.quarantines", "times the node was quarantined", t, quarantines);
    }

    private void counter(MeterRegistry r, String name, String description, Tags t, LongAdder a) {
      binder.register(
          r,
          FunctionCounter.builder(name, a, LongAdder::sum).description(description).tags(t)
              ::register);
    }
  }
}
