package dev.troupe.cluster.zookeeper;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.spi.MembershipContext;
import java.time.Duration;

/**
 * {@code troupe.cluster.zookeeper.*}, read and checked once when the engine is made; every problem is
 * a {@link ConfigurationException} naming the full key.
 *
 * @param connect the ensemble's connect string
 * @param root the path under which clusters keep their members
 * @param sessionTimeout the session's timeout (the ensemble may bound it)
 * @param connectionTimeout how long a join waits for a connection
 * @param authDigest {@code user:password} for ZooKeeper's digest scheme, "" = none; never shown by
 *     {@link #toString()}
 */
record ZooKeeperSettings(String connect, String root, Duration sessionTimeout, Duration connectionTimeout,
    String authDigest) {
  static final String ROOT = "troupe.cluster.zookeeper";
  private static final Duration MAX = Duration.ofMinutes(5);

  static ZooKeeperSettings from(MembershipContext context) {
    Config c;
    try {
      c = context.config().getConfig("zookeeper");
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + ROOT + "': " + e.getMessage(), e);
    }
    String connect = string(c, "connect").trim();
    if (connect.isEmpty()) {
      throw bad("connect", "must name the ensemble (host:port[,host:port...]), was empty", null);
    }
    for (String hostPort : connect.split(",")) {
      String hp = hostPort.trim();
      int colon = hp.lastIndexOf(':');
      if (colon <= 0 || colon == hp.length() - 1 || !hp.substring(colon + 1).chars().allMatch(Character::isDigit)
          || Integer.parseInt(hp.substring(colon + 1)) > 65535) {
        throw bad("connect", "each server is host:port with a port 1..65535, was '" + hp + "' in '" + connect + "'", null);
      }
    }
    String root = string(c, "root").trim();
    if (!root.startsWith("/") || root.endsWith("/") && root.length() > 1 || root.contains("//")) {
      throw bad("root", "must be an absolute ZooKeeper path such as /troupe (no trailing or double '/'), was '"
          + root + "'", null);
    }
    String digest = string(c, "auth-digest");
    if (!digest.isEmpty()) {
      int colon = digest.indexOf(':');
      if (colon <= 0 || colon == digest.length() - 1) {
        // the value itself is never put in the message
        throw bad("auth-digest", "must be empty (off) or user:password, with neither part empty", null);
      }
    }
    return new ZooKeeperSettings(connect, root.equals("/") ? "" : root, duration(c, "session-timeout"),
        duration(c, "connection-timeout"), digest);
  }

  @Override
  public String toString() {
    return "ZooKeeperSettings[connect=" + connect + ", root=" + root + ", sessionTimeout=" + sessionTimeout
        + ", connectionTimeout=" + connectionTimeout + ", authDigest=" + (authDigest.isEmpty() ? "off" : "set") + "]";
  }

  /** @return the path of a cluster's members */
  String membersPath(String clusterName) {
    return root + "/" + clusterName + "/members";
  }

  private static String string(Config c, String key) {
    try {
      return c.getString(key);
    } catch (ConfigException e) {
      throw bad(key, e.getMessage(), e);
    }
  }

  private static Duration duration(Config c, String key) {
    Duration d;
    try {
      d = c.getDuration(key);
    } catch (ConfigException e) {
      throw bad(key, e.getMessage(), e);
    }
    if (d.toMillis() < 1 || d.compareTo(MAX) > 0) {
      throw bad(key, "must be between 1ms and " + MAX.toMinutes() + " minutes, was " + d, null);
    }
    return d;
  }

  private static ConfigurationException bad(String key, String why, Throwable cause) {
    return new ConfigurationException("invalid configuration value at '" + ROOT + "." + key + "': " + why, cause);
  }
}
