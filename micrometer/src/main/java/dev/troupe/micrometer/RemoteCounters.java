package dev.troupe.micrometer;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.EventStream;
import dev.troupe.remote.AssociatedEvent;
import dev.troupe.remote.DisassociatedEvent;
import dev.troupe.remote.Dropped;
import dev.troupe.remote.QuarantinedEvent;
import dev.troupe.remote.RemotingLifecycleEvent;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Remoting's meters, from the events remoting publishes: {@link Dropped} by reason, and per peer
 * the associations, disassociations and quarantines. Loaded only when {@code troupe-remoting} is
 * present (this class names its types).
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

  RemoteCounters(TroupeMetrics binder, Tags tags) {
    this.binder = binder;
    this.tags = tags;
    for (String r : DROP_REASONS) {
      dropped.put(r, new LongAdder());
    }
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
