package dev.troupe.remote.internal.watch;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.remote.internal.association.Association;
import dev.troupe.remote.internal.association.Associations;
import dev.troupe.remote.internal.association.RemoteActorRef;
import dev.troupe.remote.internal.config.RemoteSettings;
import dev.troupe.remote.internal.transport.ControlFrame;
import dev.troupe.remote.internal.transport.Lane;
import io.netty.util.concurrent.EventExecutor;
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
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The other nodes where some local actor watches an actor, and the failure detection of each.
 *
 * <p>A remote ref reports every {@code Watch} that a local actor sends through it ({@link
 * Associations.WatchListener}), and the provider every {@code Unwatch} and death notice that ends
 * such a watch. While a node has at least one such
 * watch, a timer on the event loop of its control lane sends it a heartbeat every {@code
 * heartbeat-interval} and asks its {@link PhiAccrualFailureDetector}, fed by the heartbeat
 * responses, whether the node is still there; when phi exceeds the threshold the node is declared
 * gone (the provider tells death watch) and forgotten, so a later watch of it starts over. A node
 * without watches has no timer and gets no heartbeats.
 */
public final class WatchedNodes implements Associations.WatchListener {
  /** Called (outside any lock) when the detector gives up on a node. */
  public interface Verdict {
    void unreachable(Address node, double phi, long silentMillis);
  }

  /** One watch: {@code watcher}, local, watches {@code watchee} on the node. */
  private record Watch(ActorRef watchee, ActorRef watcher) {}

  private final class Node {
    final Address address;
    final Set<Watch> watches = new HashSet<>();
    final PhiAccrualFailureDetector detector;
    long lastHeartbeatNanos;
    ScheduledFuture<?> timer;

    Node(Address address) {
      this.address = address;
      this.detector =
          new PhiAccrualFailureDetector(
              settings.failureThreshold(), settings.acceptableHeartbeatPause(), settings.heartbeatInterval(), clock);
      this.lastHeartbeatNanos = clock.getAsLong();
    }
  }

  /** Heartbeat counts kept for nodes no longer watched, at most (they are for tests and diagnostics). */
  private static final int MAX_COUNTED = 1024;

  private final RemoteSettings settings;
  private final LongSupplier clock;
  private final Verdict verdict;
  private final Function<Address, Association> associations;
  private final Supplier<? extends EventExecutor> timers;
  private final Map<Address, Node> nodes = new HashMap<>(); // guarded by this
  private boolean stopped; // guarded by this
  // heartbeats sent per node, ever (kept after a node is forgotten): for tests and diagnostics
  private final Map<Address, AtomicLong> heartbeatsSent = new ConcurrentHashMap<>();

  /**
   * @param associations the association with a node (null when none can be made now), looked up
   *     at each heartbeat: a watched node's association is never retired, but a ref may have
   *     found a newer one
   * @param timers where a node's heartbeat timer runs (an event loop)
   */
  public WatchedNodes(
      RemoteSettings settings,
      LongSupplier clock,
      Verdict verdict,
      Function<Address, Association> associations,
      Supplier<? extends EventExecutor> timers) {
    this.settings = settings;
    this.clock = clock;
    this.verdict = verdict;
    this.associations = associations;
    this.timers = timers;
  }

  /** A local {@code watcher} sent a {@code Watch} to {@code watchee}; any thread. */
  @Override
  public void watched(RemoteActorRef watchee, ActorRef watcher) {
    Address node = watchee.path().address();
    synchronized (this) {
      if (stopped) {
        return;
      }
      Node n = nodes.get(node);
      if (n == null) {
        n = new Node(node);
        nodes.put(node, n);
        start(n);
      }
      n.watches.add(new Watch(watchee, watcher));
    }
  }

  /** The watch of {@code watchee} by the local {@code watcher} ended (unwatched, or it died). */
  @Override
  public void unwatched(ActorRef watchee, ActorRef watcher) {
    Address node = watchee.path().address();
    synchronized (this) {
      Node n = nodes.get(node);
      if (n != null && n.watches.remove(new Watch(watchee, watcher)) && n.watches.isEmpty()) {
        forget(node);
      }
    }
  }

  /** A heartbeat response came from {@code node}; on an event loop. */
  public synchronized void heartbeatResponse(Address node) {
    Node n = nodes.get(node);
    if (n != null) {
      n.detector.heartbeat();
      n.lastHeartbeatNanos = clock.getAsLong();
    }
  }

  /** Stops watching {@code node}: no more heartbeats; a later watch starts over. */
  public synchronized void forget(Address node) {
    Node n = nodes.remove(node);
    if (n != null && n.timer != null) {
      n.timer.cancel(false);
    }
  }

  /** The system terminates: every timer stops, and no new one starts. */
  public synchronized void stop() {
    stopped = true;
    for (Address node : new ArrayList<>(nodes.keySet())) {
      forget(node);
    }
  }

  /** @return whether some local actor watches an actor on {@code node} */
  @Override
  public synchronized boolean watches(Address node) {
    return nodes.containsKey(node);
  }

  /** @return heartbeats sent so far, for tests */
  public long heartbeatsSent(Address node) {
    AtomicLong sent = heartbeatsSent.get(node);
    return sent == null ? 0 : sent.get();
  }

  /** @return the failure detector's phi of each node watched now (for the meters) */
  public synchronized Map<Address, Double> phis() {
    Map<Address, Double> m = new HashMap<>();
    for (Node n : nodes.values()) {
      m.put(n.address, n.detector.phi());
    }
    return m;
  }

  /** @return the nodes watched now, for tests */
  public synchronized List<Address> nodes() {
    return new ArrayList<>(nodes.keySet());
  }

  private void start(Node n) {
    long every = settings.heartbeatInterval().toNanos();
    try {
      n.timer = timers.get().scheduleAtFixedRate(() -> tick(n), every, every, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException terminated) {
      nodes.remove(n.address); // the network threads are gone: nothing to watch with
    }
  }

  /** On an event loop, every heartbeat interval. */
  private void tick(Node n) {
    double phi;
    long silentMillis;
    synchronized (this) {
      if (nodes.get(n.address) != n) {
        return; // forgotten in the meantime
      }
      phi = n.detector.phi();
      if (phi <= settings.failureThreshold()) {
        if (heartbeatsSent.size() > MAX_COUNTED) {
          heartbeatsSent.keySet().retainAll(nodes.keySet());
        }
        heartbeatsSent.computeIfAbsent(n.address, x -> new AtomicLong()).incrementAndGet();
        Association a = associations.apply(n.address);
        if (a != null) { // none at the cap: the silence counts, as when the node cannot be reached
          a.lane(Lane.CONTROL).send(ControlFrame.HEARTBEAT);
        }
        return;
      }
      silentMillis = TimeUnit.NANOSECONDS.toMillis(clock.getAsLong() - n.lastHeartbeatNanos);
      forget(n.address);
    }
    verdict.unreachable(n.address, phi, silentMillis);
  }
}
