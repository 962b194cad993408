package dev.troupe.remote.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The other nodes where some local actor watches an actor, and the failure detection of each.
 *
 * <p>The provider reports every {@code Watch} that a local actor sends to a remote one, and every
 * {@code Unwatch} and death notice that ends such a watch. While a node has at least one such
 * watch, a timer on the event loop of its control lane sends it a heartbeat every {@code
 * heartbeat-interval} and asks its {@link PhiAccrualFailureDetector}, fed by the heartbeat
 * responses, whether the node is still there; when phi exceeds the threshold the node is declared
 * gone (the provider tells death watch) and forgotten, so a later watch of it starts over. A node
 * without watches has no timer and gets no heartbeats.
 */
final class WatchedNodes {
  /** Called (outside any lock) when the detector gives up on a node. */
  interface Verdict {
    void unreachable(Address node, double phi, long silentMillis);
  }

  /** One watch: {@code watcher}, local, watches {@code watchee} on the node. */
  private record Watch(ActorRef watchee, ActorRef watcher) {}

  private final class Node {
    final Association association;
    final Set<Watch> watches = new HashSet<>();
    final PhiAccrualFailureDetector detector;
    long lastHeartbeatNanos;
    ScheduledFuture<?> timer;

    Node(Association association) {
      this.association = association;
      this.detector =
          new PhiAccrualFailureDetector(
              settings.failureThreshold(), settings.acceptableHeartbeatPause(), settings.heartbeatInterval(), clock);
      this.lastHeartbeatNanos = clock.getAsLong();
    }
  }

  private final RemoteSettings settings;
  private final LongSupplier clock;
  private final Verdict verdict;
  private final Map<Address, Node> nodes = new HashMap<>(); // guarded by this
  private boolean stopped; // guarded by this
  // heartbeats sent per node, ever (kept after a node is forgotten): for tests and diagnostics
  private final Map<Address, AtomicLong> heartbeatsSent = new ConcurrentHashMap<>();

  WatchedNodes(RemoteSettings settings, LongSupplier clock, Verdict verdict) {
    this.settings = settings;
    this.clock = clock;
    this.verdict = verdict;
  }

  /** A local {@code watcher} sent a {@code Watch} to {@code watchee}; any thread. */
  void watched(RemoteActorRef watchee, ActorRef watcher) {
    Association association = watchee.association();
    synchronized (this) {
      if (stopped) {
        return;
      }
      Node n = nodes.get(association.remote);
      if (n == null) {
        n = new Node(association);
        nodes.put(association.remote, n);
        start(n);
      }
      n.watches.add(new Watch(watchee, watcher));
    }
  }

  /** The watch of {@code watchee} by the local {@code watcher} ended (unwatched, or it died). */
  void unwatched(ActorRef watchee, ActorRef watcher) {
    Address node = watchee.path().address();
    synchronized (this) {
      Node n = nodes.get(node);
      if (n != null && n.watches.remove(new Watch(watchee, watcher)) && n.watches.isEmpty()) {
        forget(node);
      }
    }
  }

  /** A heartbeat response came from {@code node}; on an event loop. */
  synchronized void heartbeatResponse(Address node) {
    Node n = nodes.get(node);
    if (n != null) {
      n.detector.heartbeat();
      n.lastHeartbeatNanos = clock.getAsLong();
    }
  }

  /** Stops watching {@code node}: no more heartbeats; a later watch starts over. */
  synchronized void forget(Address node) {
    Node n = nodes.remove(node);
    if (n != null && n.timer != null) {
      n.timer.cancel(false);
    }
  }

  /** The system terminates: every timer stops, and no new one starts. */
  synchronized void stop() {
    stopped = true;
    for (Address node : new ArrayList<>(nodes.keySet())) {
      forget(node);
    }
  }

  /** @return heartbeats sent so far, for tests */
  long heartbeatsSent(Address node) {
    AtomicLong sent = heartbeatsSent.get(node);
    return sent == null ? 0 : sent.get();
  }

  /** @return the nodes watched now, for tests */
  synchronized List<Address> nodes() {
    return new ArrayList<>(nodes.keySet());
  }

  private void start(Node n) {
    OutboundLane control = n.association.lane(Lane.CONTROL);
    long every = settings.heartbeatInterval().toNanos();
    try {
      n.timer = control.loop().scheduleAtFixedRate(() -> tick(n), every, every, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException terminated) {
      nodes.remove(n.association.remote); // the network threads are gone: nothing to watch with
    }
  }

  /** On the node's control lane's event loop, every heartbeat interval. */
  private void tick(Node n) {
    double phi;
    long silentMillis;
    synchronized (this) {
      if (nodes.get(n.association.remote) != n) {
        return; // forgotten in the meantime
      }
      phi = n.detector.phi();
      if (phi <= settings.failureThreshold()) {
        heartbeatsSent.computeIfAbsent(n.association.remote, x -> new AtomicLong()).incrementAndGet();
        n.association.lane(Lane.CONTROL).send(ControlFrame.HEARTBEAT);
        return;
      }
      silentMillis = TimeUnit.NANOSECONDS.toMillis(clock.getAsLong() - n.lastHeartbeatNanos);
      forget(n.association.remote);
    }
    verdict.unreachable(n.association.remote, phi, silentMillis);
  }
}
