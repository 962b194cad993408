package dev.troupe.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.internal.config.ClusterConfig;
import dev.troupe.runtime.spi.ConfigReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code troupe.cluster.*}, read and checked once when the cluster starts; every malformed value is
 * a {@link ConfigurationException} naming the full key. The engine's own section ({@code
 * troupe.cluster.jgroups} and the like) is read by the engine.
 *
 * @param seedNodes {@code seed-nodes}: the nodes a new node joins through, remote Troupe addresses;
 *     empty = join by hand
 * @param roles {@code roles}: this node's roles
 * @param minNrOfMembers {@code min-nr-of-members}: members stay {@link MemberStatus#JOINING} until
 *     the cluster holds this many
 * @param membershipProvider {@code membership.provider}: the engine's name or the class name of its
 *     factory
 * @param heartbeatInterval {@code failure-detector.heartbeat-interval}
 * @param acceptableHeartbeatPause {@code failure-detector.acceptable-heartbeat-pause}: how long a
 *     member may be silent before the engine suspects it
 * @param downing {@code downing.*}
 * @param shutdownAfterUnsuccessfulJoinSeedNodes {@code shutdown-after-unsuccessful-join-seed-nodes}:
 *     how long joining through the seeds may fail before the node shuts down; empty = retry forever
 * @param seedNodeTimeout {@code seed-node-timeout}: how long a round of asking the seeds for their
 *     engine endpoints lasts; the first seed founds the cluster after one round without an answer
 * @param leaveAckTimeout {@code leave-ack-timeout}: how long a leaving node waits for the members'
 *     acknowledgements of its leave before its engine leaves anyway
 */
public record ClusterSettings(
    List<Address> seedNodes,
    Set<String> roles,
    int minNrOfMembers,
    String membershipProvider,
    Duration heartbeatInterval,
    Duration acceptableHeartbeatPause,
    Downing downing,
    Optional<Duration> shutdownAfterUnsuccessfulJoinSeedNodes,
    Duration seedNodeTimeout,
    Duration leaveAckTimeout) {

  /** The section these settings come from. */
  public static final String ROOT = "troupe.cluster";

  public ClusterSettings {
    seedNodes = List.copyOf(seedNodes);
    roles = Set.copyOf(roles);
    Objects.requireNonNull(membershipProvider, "membershipProvider");
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    Objects.requireNonNull(acceptableHeartbeatPause, "acceptableHeartbeatPause");
    Objects.requireNonNull(downing, "downing");
    Objects.requireNonNull(shutdownAfterUnsuccessfulJoinSeedNodes, "shutdownAfterUnsuccessfulJoinSeedNodes");
    Objects.requireNonNull(seedNodeTimeout, "seedNodeTimeout");
    Objects.requireNonNull(leaveAckTimeout, "leaveAckTimeout");
  }

  /** The downing strategies of {@code troupe.cluster.downing.strategy}. */
  public enum Strategy {
    /** The side with more than half of the members stays; on a tie, the side with the lowest address. */
    KEEP_MAJORITY("keep-majority"),
    /** A side stays when it has at least {@code quorum-size} members. */
    STATIC_QUORUM("static-quorum"),
    /** The side with the oldest member stays (unless it is alone and {@code down-if-alone} is on). */
    KEEP_OLDEST("keep-oldest"),
    /** Every side downs itself: nothing survives a partition or a crash. */
    DOWN_ALL("down-all"),
    /** No automatic downing: unreachable members stay until downed by hand. */
    OFF("off");

    private final String configName;

    Strategy(String configName) {
      this.configName = configName;
    }

    /** @return the name in configuration, e.g. {@code keep-majority} */
    public String configName() {
      return configName;
    }

    static Optional<Strategy> byConfigName(String name) {
      for (Strategy s : values()) {
        if (s.configName.equals(name)) {
          return Optional.of(s);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * {@code troupe.cluster.downing.*}.
   *
   * @param strategy {@code strategy}
   * @param stableAfter {@code stable-after}: how long the members and their reachability must stay
   *     unchanged before a decision
   * @param quorumSize {@code static-quorum.quorum-size}: the members a side needs to stay, for
   *     {@link Strategy#STATIC_QUORUM} (at least 1 then; 0 = unset)
   * @param downIfAlone {@code keep-oldest.down-if-alone}: for {@link Strategy#KEEP_OLDEST}, whether
   *     an oldest member cut off alone downs itself and lets the others stay
   */
  public record Downing(Strategy strategy, Duration stableAfter, int quorumSize, boolean downIfAlone) {
    public Downing {
      Objects.requireNonNull(strategy, "strategy");
      Objects.requireNonNull(stableAfter, "stableAfter");
    }
  }

  /**
   * Reads {@code troupe.cluster}.
   *
   * @param config the actor system's whole configuration
   * @param systemName the actor system's name, which every seed node's address must carry
   * @return the settings
   * @throws ConfigurationException naming the full key of the first malformed value
   */
  public static ClusterSettings from(Config config, String systemName) {
    Config c = ClusterConfig.section(config, ROOT);
    List<Address> seeds = seeds(c, systemName);
    Set<String> roles = roles(c);
    int minNr = ConfigReader.intAtLeast(c, ROOT, "min-nr-of-members", 1);
    String provider = ConfigReader.string(c, ROOT, "membership.provider").trim();
    if (provider.isEmpty()) {
      throw bad("membership.provider", "must name an engine (e.g. jgroups) or the class of a"
          + " dev.troupe.cluster.spi.MembershipProviderFactory", null);
    }
    Duration heartbeat = ClusterConfig.positiveDuration(c, ROOT, "failure-detector.heartbeat-interval");
    Duration pause = ClusterConfig.positiveDuration(c, ROOT, "failure-detector.acceptable-heartbeat-pause");
    if (pause.compareTo(heartbeat) < 0) {
      throw bad("failure-detector.acceptable-heartbeat-pause",
          "must be at least " + ROOT + ".failure-detector.heartbeat-interval (" + heartbeat + "), was " + pause, null);
    }
    Optional<Duration> giveUp =
        ClusterConfig.offOrPositiveDuration(c, ROOT, "shutdown-after-unsuccessful-join-seed-nodes", "30s");
    return new ClusterSettings(seeds, roles, minNr, provider, heartbeat, pause, downing(c), giveUp,
        ClusterConfig.positiveDuration(c, ROOT, "seed-node-timeout"), ClusterConfig.positiveDuration(c, ROOT, "leave-ack-timeout"));
  }

  private static Downing downing(Config c) {
    String name = ConfigReader.string(c, ROOT, "downing.strategy").trim().toLowerCase(Locale.ROOT);
    Strategy strategy = Strategy.byConfigName(name).orElseThrow(() -> bad("downing.strategy",
        "unknown strategy '" + name + "', expected one of keep-majority, static-quorum, keep-oldest, down-all, off",
        null));
    Duration stableAfter = ClusterConfig.positiveDuration(c, ROOT, "downing.stable-after");
    int quorum = ConfigReader.intAtLeast(c, ROOT, "downing.static-quorum.quorum-size", 0);
    if (strategy == Strategy.STATIC_QUORUM && quorum == 0) {
      throw bad("downing.static-quorum.quorum-size",
          "must be set (at least 1, more than half of the cluster's size) when " + ROOT
              + ".downing.strategy = static-quorum", null);
    }
    boolean downIfAlone = ConfigReader.bool(c, ROOT, "downing.keep-oldest.down-if-alone");
    return new Downing(strategy, stableAfter, quorum, downIfAlone);
  }

  private static List<Address> seeds(Config c, String systemName) {
    List<String> texts;
    try {
      texts = c.getStringList("seed-nodes");
    } catch (ConfigException e) {
      throw bad("seed-nodes", e.getMessage(), e);
    }
    Set<Address> seen = new LinkedHashSet<>();
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i).trim();
      Address a;
      try {
        a = Address.parse(text);
      } catch (IllegalArgumentException e) {
        throw bad("seed-nodes", "entry " + i + " is not a troupe://system@host:port address: " + e.getMessage(), e);
      }
      if (a.hasLocalScope()) {
        throw bad("seed-nodes", "entry " + i + " ('" + text + "') has no host and port; expected troupe://"
            + systemName + "@host:port", null);
      }
      if (a.port().orElse(0) == 0) {
        throw bad("seed-nodes", "entry " + i + " ('" + text + "') has port 0; a seed needs the port it listens on",
            null);
      }
      if (!a.system().equals(systemName)) {
        throw bad("seed-nodes", "entry " + i + " ('" + text + "') names actor system '" + a.system()
            + "', but this system is '" + systemName + "' (only systems of one name form a cluster)", null);
      }
      if (!seen.add(a)) {
        throw bad("seed-nodes", "entry " + i + " ('" + text + "') is listed twice", null);
      }
    }
    return new ArrayList<>(seen);
  }

  private static Set<String> roles(Config c) {
    List<String> roles;
    try {
      roles = c.getStringList("roles");
    } catch (ConfigException e) {
      throw bad("roles", e.getMessage(), e);
    }
    for (String r : roles) {
      if (r.isBlank() || !r.strip().equals(r)) {
        throw bad("roles", "a role is a non-empty name without surrounding spaces, was '" + r + "'", null);
      }
    }
    return Set.copyOf(roles);
  }

  private static ConfigurationException bad(String key, String why, Throwable cause) {
    return new ConfigurationException("invalid configuration value at '" + ROOT + "." + key + "': " + why, cause);
  }
}
