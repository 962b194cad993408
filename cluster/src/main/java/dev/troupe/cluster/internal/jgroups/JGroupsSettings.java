package dev.troupe.cluster.internal.jgroups;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.runtime.spi.ConfigReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * {@code troupe.cluster.jgroups.*} and the failure detector's timings, read and checked once when
 * the engine is created; every problem is a {@link ConfigurationException} naming the full key.
 *
 * <p>How {@code troupe.cluster.failure-detector} maps onto the stack (see {@link JGroupsStack}):
 * FD_ALL3 sends a heartbeat every {@code heartbeat-interval} and suspects a member silent for
 * {@link #silenceTimeout()}; VERIFY_SUSPECT then asks the member once more and waits {@link
 * #verifyTimeout()} before the suspicion stands. The two add up to about {@code
 * acceptable-heartbeat-pause} (plus up to one interval, the granularity of FD_ALL3's check).
 *
 * @param bindAddress where the engine's TCP transport listens, and the host of its endpoint
 * @param bindPort the transport's port; 0 = an ephemeral one
 * @param joinTimeout how long a join waits for discovery responses and then for the coordinator
 * @param leaveTimeout how long a graceful leave waits for the group to acknowledge it
 * @param heartbeatInterval FD_ALL3's heartbeat interval
 * @param silenceTimeout FD_ALL3's timeout: silence after which a member is suspected
 * @param verifyTimeout VERIFY_SUSPECT's timeout: how long a suspected member has to answer
 * @param authSecret {@code auth-secret}: the cluster's shared secret, "" = none (see {@link
 *     SecretGate}); never shown by {@link #toString()}
 * @param tls the TLS context of remoting ({@code troupe.remote.tls.enabled = on}), with which the
 *     engine's TCP connections run TLS and require the peer's certificate; null when remoting runs
 *     without TLS
 */
record JGroupsSettings(
    InetAddress bindAddress,
    int bindPort,
    Duration joinTimeout,
    Duration leaveTimeout,
    Duration heartbeatInterval,
    Duration silenceTimeout,
    Duration verifyTimeout,
    String authSecret,
    SSLContext tls) {

  static final String ROOT = "troupe.cluster.jgroups";
  private static final String FD = "troupe.cluster.failure-detector";
  /** The longest join or leave timeout accepted: longer ones are typing mistakes. */
  private static final Duration MAX_TIMEOUT = Duration.ofMinutes(5);
  /** The shortest shared secret accepted: a shorter one is guessed too easily. */
  static final int MIN_SECRET_CHARS = 16;

  static JGroupsSettings from(MembershipContext context) {
    Config c;
    try {
      c = context.config().getConfig("jgroups");
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + ROOT + "': " + e.getMessage(), e);
    }
    InetAddress bindAddress = bindAddress(c, context);
    int port = ConfigReader.intAtLeast(c, ROOT, "bind-port", 0);
    if (port > 65535) {
      throw bad("bind-port", "must be 0..65535 (0 = an ephemeral port), was " + port, null);
    }
    Duration join = timeout(c, "join-timeout");
    Duration leave = timeout(c, "leave-timeout");

    Duration interval = context.heartbeatInterval();
    if (interval.toMillis() < 1) {
      throw new ConfigurationException(
          "invalid configuration value at '" + FD + ".heartbeat-interval': must be at least 1ms, was " + interval);
    }
    Duration pause = context.acceptableHeartbeatPause();
    if (pause.compareTo(interval) <= 0) {
      throw new ConfigurationException(
          "invalid configuration value at '" + FD + ".acceptable-heartbeat-pause': must be longer than "
              + FD + ".heartbeat-interval (" + interval + "), was " + pause);
    }
    // A third of the pause at most for the second look, the rest for silence: FD_ALL3 needs a
    // timeout of at least two intervals to tell a late heartbeat from a missing one. One interval
    // of second look is enough for a live member: its next heartbeat ends the look as well as its
    // answer does (HeardVerifySuspect); and it is all a crashed member's sure death waits for.
    Duration verify = min(interval, pause.dividedBy(3));
    Duration silence = max(pause.minus(verify), interval.multipliedBy(2));
    String secret = ConfigReader.string(c, ROOT, "auth-secret");
    if (!secret.isEmpty() && secret.length() < MIN_SECRET_CHARS) {
      // the value itself is never put in the message
      throw bad("auth-secret", "must be empty (off) or at least " + MIN_SECRET_CHARS + " characters long, was "
          + secret.length(), null);
    }
    return new JGroupsSettings(
        bindAddress, port, join, leave, interval, silence, verify, secret, context.tls().orElse(null));
  }

  /** Whether a stranger who reaches the engine's port is kept out: by TLS or by the shared secret. */
  boolean authenticated() {
    return tls != null || !authSecret.isEmpty();
  }

  @Override
  public String toString() {
    return "JGroupsSettings[bindAddress=" + bindAddress + ", bindPort=" + bindPort + ", joinTimeout=" + joinTimeout
        + ", leaveTimeout=" + leaveTimeout + ", heartbeatInterval=" + heartbeatInterval + ", silenceTimeout="
        + silenceTimeout + ", verifyTimeout=" + verifyTimeout + ", authSecret=" + (authSecret.isEmpty() ? "off" : "set")
        + ", tls=" + (tls != null ? "on" : "off") + "]";
  }

  /** {@code bind-hostname}, or the node's remoting host when empty; never the wildcard address. */
  private static InetAddress bindAddress(Config c, MembershipContext context) {
    String host = ConfigReader.string(c, ROOT, "bind-hostname").trim();
    String origin = "";
    if (host.isEmpty()) {
      host = context.self().address().host().orElse("127.0.0.1");
      origin = " (empty, so the node's remoting host)";
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException | SecurityException e) {
      throw bad("bind-hostname", "cannot resolve '" + host + "'" + origin + ": " + e.getMessage(), e);
    }
    if (address.isAnyLocalAddress()) {
      throw bad(
          "bind-hostname",
          "must be an address other nodes can reach (it is advertised to them), not the wildcard '" + host + "'"
              + origin,
          null);
    }
    return address;
  }

  private static Duration timeout(Config c, String key) {
    Duration d = ConfigReader.durationAtLeastZero(c, ROOT, key);
    if (d.toMillis() < 1 || d.compareTo(MAX_TIMEOUT) > 0) {
      throw bad(key, "must be between 1ms and " + MAX_TIMEOUT.toMinutes() + " minutes, was " + d, null);
    }
    return d;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static ConfigurationException bad(String key, String why, Throwable cause) {
    return new ConfigurationException("invalid configuration value at '" + ROOT + "." + key + "': " + why, cause);
  }
}
