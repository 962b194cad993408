package dev.troupe.cluster.spi;

import com.typesafe.config.Config;
import dev.troupe.cluster.UniqueAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLContext;

/**
 * What an engine is told about the node it runs for.
 *
 * @param self this incarnation
 * @param roles this node's roles ({@code troupe.cluster.roles}), which other nodes see in its views
 * @param clusterName the name of the group to join: the actor system's name (nodes of systems with
 *     other names never meet)
 * @param heartbeatInterval {@code troupe.cluster.failure-detector.heartbeat-interval}
 * @param acceptableHeartbeatPause {@code troupe.cluster.failure-detector.acceptable-heartbeat-pause}:
 *     how long a member may be silent before the engine suspects it
 * @param config the whole {@code troupe.cluster} section; an engine reads its own sub-section
 *     (e.g. {@code troupe.cluster.jgroups})
 * @param tls when remoting runs TLS ({@code troupe.remote.tls.enabled = on}): a TLS context with
 *     this node's key and the trust store of {@code troupe.remote.tls}, for an engine to put its own
 *     connections under the same mutual authentication; empty otherwise
 */
public record MembershipContext(
    UniqueAddress self,
    Set<String> roles,
    String clusterName,
    Duration heartbeatInterval,
    Duration acceptableHeartbeatPause,
    Config config,
    Optional<SSLContext> tls) {
  public MembershipContext {
    Objects.requireNonNull(self, "self");
    roles = Set.copyOf(roles);
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    Objects.requireNonNull(acceptableHeartbeatPause, "acceptableHeartbeatPause");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(tls, "tls");
  }

  /** A context for a node whose remoting runs without TLS. */
  public MembershipContext(
      UniqueAddress self,
      Set<String> roles,
      String clusterName,
      Duration heartbeatInterval,
      Duration acceptableHeartbeatPause,
      Config config) {
    this(self, roles, clusterName, heartbeatInterval, acceptableHeartbeatPause, config, Optional.empty());
  }
}
