package dev.troupe.remote.internal.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValueType;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ConfigReader;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code troupe.remote.*}, read and checked once when the provider is created; every problem is a
 * {@link ConfigurationException} naming the full key.
 *
 * @param canonicalHost the host other nodes use to reach this one (in this node's address)
 * @param canonicalPort the port in this node's address; 0 = the bound one
 * @param bindHost the host to listen on
 * @param bindPort the port to listen on; 0 = an ephemeral one
 * @param maximumFrameSize the largest frame body (envelope and payload), in bytes
 * @param untrustedMode whether system messages, PoisonPill and Kill from peers are refused
 * @param eventLoopThreads threads of the system's network event loop
 * @param messageQueueSize bound of a peer's ordinary-lane queue
 * @param controlQueueSize bound of a peer's control-lane queue
 * @param connectionTimeout how long a TCP connect may take
 * @param handshakeTimeout how long a new connection has, from accept or connect, to complete its handshake
 * @param inboundIdleTimeout how long an accepted, handshaken connection may read nothing before it is closed
 * @param maximumInboundConnections accepted connections open at once at most
 * @param maximumInboundConnectionsPerHost accepted connections from one IP address at most
 * @param associationIdleTimeout how long an association stays idle (no connection, nothing queued or
 *     unacknowledged, no watch) before it is removed
 * @param maximumAssociations associations (peers this node knows) at once at most
 * @param maximumRetiredAssociations removed associations whose peer's incarnation, quarantines and
 *     system-message numbering are remembered, at most (of each kind, see the association layer's {@code RetiredAssociations})
 * @param minBackoff the first delay before reconnecting
 * @param maxBackoff the longest delay between reconnects
 * @param reconnectAttempts failed connects in a row before a peer's queued messages are dropped
 * @param shutdownTimeout how long shutdown waits for the network threads
 * @param heartbeatInterval how often heartbeats go to each node with watched actors
 * @param failureThreshold phi above which a silent watched node is declared gone
 * @param acceptableHeartbeatPause silence tolerated beyond the usual heartbeat gaps
 * @param systemMessageBufferSize system messages per peer waiting for acknowledgement at most
 * @param systemMessageResendInterval how long an unacknowledged system message waits before it is sent again
 * @param giveUpSystemMessageAfter how long system messages may go unacknowledged before the peer is quarantined
 * @param trustedSelectionPaths in untrusted mode, the only paths (like {@code /user/echo}) peers may select
 * @param tls {@code troupe.remote.tls}: whether connections run TLS, and with which stores
 * @param inboundSelectionQueueSize selections from one connection waiting for the dispatcher before the connection stops reading
 * @param failureInjector {@code advanced.failure-injector}: whether tests may cut this node off from
 *     chosen nodes (see the association layer's {@code FailureInjector}); off in production
 * @param largeMessageDestinations the recipients whose messages take the large-message lane (none: no such lane)
 * @param maximumLargeFrameSize the largest frame body on the large-message lane, in bytes
 * @param largeMessageQueueSize bound of a peer's large-message-lane queue
 * @param inboundLanes lanes on which user messages that arrived are deserialized and delivered, off
 *     the network threads; 1 = on the network thread that read them, with no hand-off
 * @param inboundLaneQueueSize messages waiting on one inbound lane before the connections that feed
 *     it stop reading
 * @param inboundLaneQueueBytes serialized bytes waiting on one inbound lane before the connections
 *     that feed it stop reading
 * @param measureSerialization {@code advanced.measure-serialization}: whether the time of each
 *     serialization and deserialization is summed for the meters (two clock reads per message)
 * @param transport {@code advanced.transport}: Netty's NIO or native epoll transport, or {@code
 *     auto} (epoll where it can be used); resolved when the network threads start
 */
public record RemoteSettings(
    String canonicalHost,
    int canonicalPort,
    String bindHost,
    int bindPort,
    int maximumFrameSize,
    boolean untrustedMode,
    int eventLoopThreads,
    int messageQueueSize,
    int controlQueueSize,
    Duration connectionTimeout,
    Duration handshakeTimeout,
    Duration inboundIdleTimeout,
    int maximumInboundConnections,
    int maximumInboundConnectionsPerHost,
    Duration associationIdleTimeout,
    int maximumAssociations,
    int maximumRetiredAssociations,
    Duration minBackoff,
    Duration maxBackoff,
    int reconnectAttempts,
    Duration shutdownTimeout,
    Duration heartbeatInterval,
    double failureThreshold,
    Duration acceptableHeartbeatPause,
    int systemMessageBufferSize,
    Duration systemMessageResendInterval,
    Duration giveUpSystemMessageAfter,
    Set<String> trustedSelectionPaths,
    TlsSettings tls,
    int inboundSelectionQueueSize,
    boolean failureInjector,
    DestinationPatterns largeMessageDestinations,
    int maximumLargeFrameSize,
    int largeMessageQueueSize,
    int inboundLanes,
    int inboundLaneQueueSize,
    long inboundLaneQueueBytes,
    boolean measureSerialization,
    Transport transport) {

  public static final String ROOT = "troupe.remote";
  /** Frames smaller than this could not carry a handshake with long host names. */
  static final int MIN_FRAME_SIZE = 4096;
  /** The most inbound lanes: more would only add hand-offs, as lanes are drained on the dispatcher's threads. */
  static final int MAX_INBOUND_LANES = 64;
  /** Processors from which {@code inbound-lanes = auto} hands messages off the network thread. */
  static final int AUTO_INBOUND_LANES_PROCESSORS = 8;
  /** The lanes of {@code inbound-lanes = auto} on a machine with that many processors. */
  static final int AUTO_INBOUND_LANES = 4;

  public static RemoteSettings from(Config config) {
    Config r = section(config, ROOT);
    String canonicalHost = host(r, "canonical.hostname", null);
    int canonicalPort = port(r, "canonical.port", -1);
    String bindHost = host(r, "bind.hostname", canonicalHost);
    int bindPort = port(r, "bind.port", canonicalPort);
    int frame = frameSize(r, "maximum-frame-size");
    int largeFrame = frameSize(r, "maximum-large-frame-size");
    DestinationPatterns large;
    try {
      large = DestinationPatterns.parse(r.getStringList("large-message-destinations"));
    } catch (ConfigException e) {
      throw bad("large-message-destinations", e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw bad("large-message-destinations", e.getMessage(), e);
    }
    TlsSettings tls = TlsSettings.from(r);
    boolean untrusted = ConfigReader.bool(r, ROOT, "untrusted-mode");
    String w = ROOT + ".watch-failure-detector";
    Config watch = section(config, w);
    double threshold = ConfigReader.doubleAtLeast(watch, w, "threshold", 0.0);
    if (threshold == 0.0) {
      throw new ConfigurationException("invalid configuration value at '" + w + ".threshold': must be positive");
    }
    String a = ROOT + ".advanced";
    Config adv = section(config, a);
    int threads = ConfigReader.intAtLeast(adv, a, "event-loop-threads", 0);
    if (threads > 64) {
      throw new ConfigurationException(
          "invalid configuration value at '" + a + ".event-loop-threads': must be 0..64, was " + threads);
    }
    if (threads == 0) {
      threads = Runtime.getRuntime().availableProcessors() <= 2 ? 1 : 2;
    }
    Duration minBackoff = positive(adv, a, "reconnect-min-backoff");
    Duration maxBackoff = positive(adv, a, "reconnect-max-backoff");
    if (maxBackoff.compareTo(minBackoff) < 0) {
      throw new ConfigurationException(
          "invalid configuration value at '" + a + ".reconnect-max-backoff': must be >= reconnect-min-backoff ("
              + minBackoff + "), was " + maxBackoff);
    }
    Duration heartbeatInterval = positive(watch, w, "heartbeat-interval");
    Duration inboundIdle = positive(adv, a, "inbound-idle-timeout");
    if (inboundIdle.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
      throw new ConfigurationException(
          "invalid configuration value at '" + a + ".inbound-idle-timeout': must be at least twice " + w
              + ".heartbeat-interval (" + heartbeatInterval + "), or a watched peer's heartbeats would not keep its"
              + " connection open; was " + inboundIdle);
    }
    return new RemoteSettings(
        canonicalHost,
        canonicalPort,
        bindHost,
        bindPort,
        frame,
        untrusted,
        threads,
        ConfigReader.intAtLeast(adv, a, "outbound-message-queue-size", 1),
        ConfigReader.intAtLeast(adv, a, "outbound-control-queue-size", 1),
        positive(adv, a, "connection-timeout"),
        positive(adv, a, "handshake-timeout"),
        inboundIdle,
        ConfigReader.intAtLeast(adv, a, "maximum-inbound-connections", 1),
        ConfigReader.intAtLeast(adv, a, "maximum-inbound-connections-per-host", 1),
        positive(adv, a, "association-idle-timeout"),
        ConfigReader.intAtLeast(adv, a, "maximum-associations", 1),
        ConfigReader.intAtLeast(adv, a, "maximum-retired-associations", 0),
        minBackoff,
        maxBackoff,
        ConfigReader.intAtLeast(adv, a, "reconnect-attempts", 1),
        positive(adv, a, "shutdown-timeout"),
        heartbeatInterval,
        threshold,
        ConfigReader.durationAtLeastZero(watch, w, "acceptable-heartbeat-pause"),
        ConfigReader.intAtLeast(adv, a, "system-message-buffer-size", 1),
        positive(adv, a, "system-message-resend-interval"),
        positive(adv, a, "give-up-system-message-after"),
        trustedPaths(r),
        tls,
        ConfigReader.intAtLeast(adv, a, "inbound-selection-queue-size", 1),
        ConfigReader.bool(adv, a, "failure-injector"),
        large,
        largeFrame,
        ConfigReader.intAtLeast(adv, a, "outbound-large-message-queue-size", 1),
        inboundLanes(adv, a, Runtime.getRuntime().availableProcessors()),
        ConfigReader.intAtLeast(adv, a, "inbound-lane-queue-size", 1),
        bytesAtLeastOne(adv, a, "inbound-lane-queue-bytes"),
        ConfigReader.bool(adv, a, "measure-serialization"),
        transport(adv, a));
  }

  /**
   * The network transport: Netty's NIO, or its native epoll one (Linux, with Netty's native
   * library of the same version on the class path), or {@code AUTO}, epoll where it can be used
   * and NIO elsewhere.
   */
  public enum Transport {
    AUTO,
    NIO,
    EPOLL
  }

  /** {@code advanced.transport}: {@code auto}, {@code nio} or {@code epoll}. */
  static Transport transport(Config adv, String a) {
    String key = a + ".transport";
    String v;
    try {
      v = adv.getString("transport");
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + key + "': " + e.getMessage(), e);
    }
    return switch (v.trim()) {
      case "auto" -> Transport.AUTO;
      case "nio" -> Transport.NIO;
      case "epoll" -> Transport.EPOLL;
      default -> throw new ConfigurationException(
          "invalid configuration value at '" + key + "': expected auto, nio or epoll, was '" + v + "'");
    };
  }

  /**
   * {@code advanced.inbound-lanes}: {@code auto} or 1..{@value #MAX_INBOUND_LANES}; {@code auto} is 1
   * below {@value #AUTO_INBOUND_LANES_PROCESSORS} processors (the hand-off costs more than it frees
   * there), else {@value #AUTO_INBOUND_LANES}.
   */
  static int inboundLanes(Config adv, String a, int processors) {
    String key = a + ".inbound-lanes";
    Object v;
    try {
      v = adv.getValue("inbound-lanes").unwrapped();
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + key + "': " + e.getMessage(), e);
    }
    String text = String.valueOf(v).trim();
    if (text.equals("auto")) {
      return processors < AUTO_INBOUND_LANES_PROCESSORS ? 1 : AUTO_INBOUND_LANES;
    }
    int n;
    try {
      n = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n < 1 || n > MAX_INBOUND_LANES) {
      throw new ConfigurationException(
          "invalid configuration value at '" + key + "': expected auto or a number 1.." + MAX_INBOUND_LANES + ", was '" + v + "'");
    }
    return n;
  }

  private static long bytesAtLeastOne(Config c, String path, String key) {
    long n;
    try {
      n = c.getBytes(key);
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + path + "." + key + "': " + e.getMessage(), e);
    }
    if (n < 1) {
      throw new ConfigurationException("invalid configuration value at '" + path + "." + key + "': must be positive, was " + n);
    }
    return n;
  }

  /** A frame size in bytes ({@code 256KiB}), {@value #MIN_FRAME_SIZE} bytes up to 2GiB. */
  private static int frameSize(Config r, String key) {
    long frame;
    try {
      frame = r.getBytes(key);
    } catch (ConfigException e) {
      throw bad(key, e.getMessage(), e);
    }
    if (frame < MIN_FRAME_SIZE || frame > Integer.MAX_VALUE - 8) {
      throw bad(key, "must be between " + MIN_FRAME_SIZE + " bytes and 2GiB, was " + frame, null);
    }
    return (int) frame;
  }

  /** {@code trusted-selection-paths}: absolute paths without address, such as {@code /user/echo}. */
  private static Set<String> trustedPaths(Config r) {
    List<String> paths;
    try {
      paths = r.getStringList("trusted-selection-paths");
    } catch (ConfigException e) {
      throw bad("trusted-selection-paths", e.getMessage(), e);
    }
    for (String p : paths) {
      if (!p.startsWith("/") || p.length() < 2 || p.endsWith("/") || p.contains("//") || p.contains("#")) {
        throw bad("trusted-selection-paths", "expected paths such as \"/user/echo\", was '" + p + "'", null);
      }
    }
    return Set.copyOf(paths);
  }

  private static Config section(Config config, String path) {
    try {
      return config.getConfig(path);
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + path + "': " + e.getMessage(), e);
    }
  }

  private static ConfigurationException bad(String key, String why, Throwable cause) {
    return new ConfigurationException("invalid configuration value at '" + ROOT + "." + key + "': " + why, cause);
  }

  /** A host name; {@code ""} means {@code fallback}, or is an error when there is none. */
  private static String host(Config r, String key, String fallback) {
    String h = ConfigReader.string(r, ROOT, key).trim();
    if (h.isEmpty()) {
      if (fallback == null) {
        throw bad(key, "must not be empty (e.g. \"127.0.0.1\")", null);
      }
      return fallback;
    }
    if (h.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/' || c == '@')) {
      throw bad(key, "not a host name or IP address: '" + h + "'", null);
    }
    return h;
  }

  /** A port 0..65535; {@code ""} means {@code fallback}, or is an error when it is negative. */
  private static int port(Config r, String key, int fallback) {
    Object v;
    try {
      v = r.getValue(key).unwrapped();
    } catch (ConfigException e) {
      throw bad(key, e.getMessage(), e);
    }
    if (r.getValue(key).valueType() == ConfigValueType.STRING && ((String) v).trim().isEmpty() && fallback >= 0) {
      return fallback;
    }
    int p;
    try {
      p = Integer.parseInt(String.valueOf(v).trim());
    } catch (NumberFormatException e) {
      throw bad(key, "expected a port number 0..65535" + (fallback >= 0 ? " or \"\"" : "") + ", was '" + v + "'", e);
    }
    if (p < 0 || p > 65535) {
      throw bad(key, "expected a port number 0..65535, was " + p, null);
    }
    return p;
  }

  private static Duration positive(Config c, String path, String key) {
    Duration d = ConfigReader.durationAtLeastZero(c, path, key);
    if (d.isZero()) {
      throw new ConfigurationException("invalid configuration value at '" + path + "." + key + "': must be positive");
    }
    return d;
  }
}
