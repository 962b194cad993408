package dev.troupe.remote.internal.transport;

import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * The caps on accepted connections: at most {@code maximum-inbound-connections} open at once, and
 * at most {@code maximum-inbound-connections-per-host} from one IP address, counted from accept
 * (a connection still in its handshake counts) to close. A connection beyond either cap is closed
 * at once, with a rate-limited warning; the ones already open, a legitimate peer's among them, are
 * not touched. One lock, taken once when a connection opens and once when it closes.
 */
final class InboundConnections {
  private final int total;
  private final int perHost;
  private final RateLimitedLog log;
  private int open; // guarded by this
  private final Map<InetAddress, Integer> byHost = new HashMap<>(); // guarded by this

  InboundConnections(int total, int perHost, RateLimitedLog log) {
    this.total = total;
    this.perHost = perHost;
    this.log = log;
  }

  /**
   * Counts a newly accepted connection, or closes it when a cap is reached.
   *
   * @return whether {@code ch} may stay open
   */
  boolean admit(Channel ch) {
    SocketAddress remote = ch.remoteAddress();
    InetAddress host = remote instanceof InetSocketAddress i ? i.getAddress() : null;
    String refused = null;
    synchronized (this) {
      int fromHost = host == null ? 0 : byHost.getOrDefault(host, 0);
      if (open >= total) {
        refused = total + " accepted connections are open (troupe.remote.advanced.maximum-inbound-connections)";
      } else if (fromHost >= perHost) {
        refused = perHost + " connections from " + host.getHostAddress()
            + " are open (troupe.remote.advanced.maximum-inbound-connections-per-host)";
      } else {
        open++;
        if (host != null) {
          byHost.put(host, fromHost + 1);
        }
      }
    }
    if (refused != null) {
      log.warn("closing the connection from {} at once: {}", remote, refused);
      ch.close();
      return false;
    }
    ch.closeFuture().addListener(f -> closed(host));
    return true;
  }

  private synchronized void closed(InetAddress host) {
    open--;
    if (host != null) {
      byHost.computeIfPresent(host, (h, n) -> n == 1 ? null : n - 1);
    }
  }

  /** @return accepted connections open now, for tests */
  synchronized int open() {
    return open;
  }
}
