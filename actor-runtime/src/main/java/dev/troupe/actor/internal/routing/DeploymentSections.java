package dev.troupe.actor.internal.routing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigUtil;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Deploy;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.BroadcastGroup;
import dev.troupe.routing.BroadcastPool;
import dev.troupe.routing.ConsistentHashingGroup;
import dev.troupe.routing.ConsistentHashingPool;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.OptimalSizeExploringResizer;
import dev.troupe.routing.Pool;
import dev.troupe.routing.RandomGroup;
import dev.troupe.routing.RandomPool;
import dev.troupe.routing.Resizer;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.RouterConfig;
import dev.troupe.routing.ScatterGatherFirstCompletedGroup;
import dev.troupe.routing.ScatterGatherFirstCompletedPool;
import dev.troupe.routing.SmallestMailboxPool;
import dev.troupe.routing.TailChoppingGroup;
import dev.troupe.routing.TailChoppingPool;
import dev.troupe.runtime.spi.PathGlob;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads a router from {@code troupe.actor.deployment."/path"}, falling back to {@code
 * troupe.actor.deployment.default} for keys the section does not set. Parsed once, when the router
 * is created, into the same immutable {@link RouterConfig} a user would build in code, so config
 * and code routers run the same engine. Every error names the full key.
 */
public final class DeploymentSections {
  /** Where deployment sections live. */
  public static final String ROOT = "troupe.actor.deployment";

  /** The supported {@code router} values. */
  static final List<String> ROUTERS =
      List.of(
          "round-robin-pool", "round-robin-group", "random-pool", "random-group",
          "smallest-mailbox-pool", "broadcast-pool", "broadcast-group", "scatter-gather-pool",
          "scatter-gather-group", "tail-chopping-pool", "tail-chopping-group",
          "consistent-hashing-pool", "consistent-hashing-group", "balancing-pool");

  /**
   * A router resolved for one path.
   *
   * @param config the concrete router
   * @param routeeDispatcher the dispatcher id for pool routees from {@code pool-dispatcher}, or null
   * @param targetNodes the nodes a pool deploys its routees onto in turn ({@code target.nodes}),
   *     empty for routees created here
   * @param cluster the section's {@code cluster} part when {@code cluster.enabled = on}, else null
   */
  record Resolved(RouterConfig config, String routeeDispatcher, List<Address> targetNodes, ClusterSection cluster) {}

  /**
   * The {@code cluster} part of a deployment section with {@code cluster.enabled = on}: the router
   * keeps its routees on the cluster's eligible members (see {@link ClusterRoutees}).
   *
   * @param key the section's full key, for messages
   * @param maxPerNode {@code cluster.max-nr-of-instances-per-node}: a pool's routees per member (a
   *     group looks each of its paths up once per member and ignores it)
   * @param allowLocal {@code cluster.allow-local-routees}: whether the router's own node counts
   * @param useRoles {@code cluster.use-roles}: the roles a member must all have; empty = any
   * @param totalInstances {@code total-instances}: the most routees in all
   */
  record ClusterSection(String key, boolean fromCode, int maxPerNode, boolean allowLocal, Set<String> useRoles, int totalInstances) {}

  private DeploymentSections() {}

  static Resolved resolve(RouterConfig config, Config root, ActorPath path, Deploy deploy) {
    Resolved r = resolveSections(config, root, path);
    Deploy.ClusterRouting routing = deploy == null ? null : deploy.clusterRouting().orElse(null);
    if (routing == null || r.cluster() != null) {
      return r; // a section's cluster part wins over the code's, as every section's key does
    }
    String label = "the cluster-aware router built in code for " + path.toStringWithoutAddress();
    if (!r.targetNodes().isEmpty()) {
      throw new ConfigurationException(label + " does not go with " + sectionKey(root, path)
          + ".target.nodes: a cluster-aware pool deploys onto the cluster's members");
    }
    checkClusterAware(r.config(), List.of(), label, null);
    return new Resolved(r.config(), r.routeeDispatcher(), r.targetNodes(), new ClusterSection(label, true,
        routing.maxInstancesPerNode(), routing.allowLocalRoutees(), routing.useRoles(), routing.totalInstances()));
  }

  private static Resolved resolveSections(RouterConfig config, Config root, ActorPath path) {
    if (!(config instanceof FromConfig)) {
      // a router built in code still takes its target nodes and its cluster part from a deployment
      // section, when it has one
      String key = root.hasPath(ROOT) ? sectionKey(root, path) : null;
      if (key == null) {
        return new Resolved(config, null, List.of(), null);
      }
      Config section;
      try {
        section = root.getConfig(key);
      } catch (ConfigException e) {
        throw new ConfigurationException("invalid deployment section at " + key + ": " + e.getMessage(), e);
      }
      List<Address> nodes = config instanceof Pool ? targetNodes(section, key, config) : List.of();
      return new Resolved(config, null, nodes, clusterSection(withDefaults(root, section), key, config, nodes));
    }
    String key = sectionKey(root, path);
    if (key == null) {
      throw new ConfigurationException(
          "router for " + path.toStringWithoutAddress() + " is FromConfig, but there is no deployment section at "
              + ConfigUtil.joinPath("troupe", "actor", "deployment", deploymentPath(path)) + " (nor one with"
              + " wildcards that matches it)");
    }
    Config section;
    try {
      section = root.getConfig(key);
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid deployment section at " + key + ": " + e.getMessage(), e);
    }
    Config merged = withDefaults(root, section);
    RouterConfig parsed = parse(merged, key);
    String routeeDispatcher = null;
    if (parsed instanceof Pool && section.hasPath("pool-dispatcher")) {
      Config pd = get(() -> section.getConfig("pool-dispatcher"), key, "pool-dispatcher");
      if (!pd.isEmpty()) {
        routeeDispatcher = key + ".pool-dispatcher";
      }
    }
    List<Address> nodes = targetNodes(merged, key, parsed);
    return new Resolved(parsed, routeeDispatcher, nodes, clusterSection(merged, key, parsed, nodes));
  }

  private static Config withDefaults(Config root, Config section) {
    return root.hasPath(ROOT + ".default") ? section.withFallback(root.getConfig(ROOT + ".default")) : section;
  }

  /**
   * The {@code cluster} part of a section, validated against the router: null when {@code
   * cluster.enabled} is off (or absent). A cluster-aware router sizes itself by the members, so
   * neither a resizer nor {@code target.nodes} goes with it, nor a balancing pool (its routees share
   * one mailbox, which cannot span nodes); a group's paths are paths only ({@code /user/worker}),
   * looked up on every eligible member.
   */
  static ClusterSection clusterSection(Config section, String key, RouterConfig router, List<Address> targetNodes) {
    if (!section.hasPath("cluster.enabled") || !get(() -> section.getBoolean("cluster.enabled"), key, "cluster.enabled")) {
      return null;
    }
    String perNodeKey = "cluster.max-nr-of-instances-per-node";
    int perNode = get(() -> section.getInt(perNodeKey), key, perNodeKey);
    if (perNode < 1) {
      throw new ConfigurationException(key + "." + perNodeKey + " must be at least 1, was " + perNode);
    }
    boolean allowLocal = get(() -> section.getBoolean("cluster.allow-local-routees"), key, "cluster.allow-local-routees");
    List<String> roles = get(() -> section.getStringList("cluster.use-roles"), key, "cluster.use-roles");
    for (String r : roles) {
      if (r.isBlank()) {
        throw new ConfigurationException("invalid value at " + key + ".cluster.use-roles: a role must not be blank, was " + roles);
      }
    }
    int total = get(() -> section.getInt("total-instances"), key, "total-instances");
    if (total < 1) {
      throw new ConfigurationException(key + ".total-instances must be at least 1, was " + total);
    }
    checkClusterAware(router, targetNodes, key + ".cluster.enabled = on", key);
    return new ClusterSection(key, false, perNode, allowLocal, Set.copyOf(new LinkedHashSet<>(roles)), total);
  }

  /**
   * What a cluster-aware router cannot be: it sizes itself by the members, so neither a resizer
   * nor target nodes go with it, nor a balancing pool (its routees share one mailbox, which cannot
   * span nodes); a group's paths are paths only ({@code /user/worker}), looked up on every member.
   *
   * @param what how the messages name the cluster-aware setting (a key, or the router in code)
   * @param key the deployment section's key, or null for a router in code without one
   */
  private static void checkClusterAware(RouterConfig router, List<Address> targetNodes, String what, String key) {
    String in = key == null ? "" : " (" + key + ".router)";
    if (router instanceof BalancingPool) {
      throw new ConfigurationException(what + " does not go with a balancing-pool" + in
          + ": its routees share one mailbox, which cannot span nodes");
    }
    if (router instanceof Pool p && p.resizer() != null) {
      throw new ConfigurationException(what + " does not go with a resizer" + (key == null ? "" : " (" + key + ".resizer)")
          + ": a cluster-aware pool's size follows the members ("
          + (key == null ? "maxInstancesPerNode, totalInstances" : "cluster.max-nr-of-instances-per-node, total-instances") + ")");
    }
    if (!targetNodes.isEmpty()) {
      throw new ConfigurationException(what + " does not go with " + key
          + ".target.nodes: a cluster-aware pool deploys onto the cluster's members");
    }
    if (router instanceof dev.troupe.routing.Group g) {
      for (String p : g.paths()) {
        if (!p.startsWith("/") || p.contains("://")) {
          throw new ConfigurationException("invalid value at " + (key == null ? what + "'s paths" : key + ".routees.paths")
              + ": a cluster-aware group looks its paths up on every member, so each must be a path without an address"
              + " (e.g. /user/worker), was " + p);
        }
      }
    }
  }

  /**
   * {@code target.nodes} of a deployment section: the addresses a pool's routees are deployed
   * onto, one after the other (round-robin), as {@code Deploy.remote} would.
   */
  private static List<Address> targetNodes(Config section, String key, RouterConfig router) {
    String k = "target.nodes";
    if (!section.hasPath(k)) {
      return List.of();
    }
    List<String> texts = get(() -> section.getStringList(k), key, k);
    if (texts.isEmpty()) {
      return List.of();
    }
    if (!(router instanceof Pool) || router instanceof BalancingPool) {
      throw new ConfigurationException(
          key + "." + k + ": only a pool's routees can be deployed onto other nodes, and not a balancing-pool's"
              + " (they share one mailbox); a group names its routees by routees.paths");
    }
    List<Address> out = new java.util.ArrayList<>(texts.size());
    for (String t : texts) {
      Address a;
      try {
        a = Address.parse(t);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException("invalid value at " + key + "." + k + ": " + e.getMessage(), e);
      }
      if (!a.hasGlobalScope()) {
        throw new ConfigurationException(
            "invalid value at " + key + "." + k + ": " + t + " has no host and port (e.g. troupe://sys@10.0.0.2:2552)");
      }
      out.add(a);
    }
    return List.copyOf(out);
  }

  /**
   * The path below {@code /user} as deployment sections name it, e.g. {@code /workers}.
   *
   * @param path an actor's path
   * @return its deployment key
   */
  public static String deploymentPath(ActorPath path) {
    List<String> elements = path.elements();
    List<String> rest = !elements.isEmpty() && elements.get(0).equals("user")
        ? elements.subList(1, elements.size())
        : elements;
    return "/" + String.join("/", rest);
  }

  /**
   * The full key of the deployment section of {@code path}: the section of its exact {@link
   * #deploymentPath}, else the most specific one with wildcards that matches it (see {@link
   * #sectionFor}).
   *
   * @param root the system's configuration
   * @param path an actor's path
   * @return e.g. {@code troupe.actor.deployment."/workers"}, or null when no section applies
   */
  static String sectionKey(Config root, ActorPath path) {
    String deployPath = deploymentPath(path);
    String exact = ConfigUtil.joinPath("troupe", "actor", "deployment", deployPath);
    if (root.hasPath(exact)) {
      return exact;
    }
    if (!root.hasPath(ROOT)) {
      return null;
    }
    String section = sectionFor(root.getObject(ROOT).keySet(), deployPath);
    return section == null ? null : ConfigUtil.joinPath("troupe", "actor", "deployment", section);
  }

  /**
   * Picks the deployment section that applies to an actor: the one named by its exact path, else
   * the most specific one with wildcards that matches. In a section name an element {@code *}
   * matches any one element of the path, and a {@code *} inside an element any run of characters
   * in it (e.g. {@code "/workers/*"} or {@code "/pool-*"}); a name must have as many elements
   * as the path. Of several matching names the one with a literal element leftmost where they
   * differ wins (a literal before a partial wildcard before {@code *}), then the alphabetically
   * first.
   *
   * @param sections section names, e.g. the keys of {@code troupe.actor.deployment}
   * @param deploymentPath the actor's {@link #deploymentPath}, e.g. {@code /workers/w1}
   * @return the name of the section that applies, or null
   */
  public static String sectionFor(Collection<String> sections, String deploymentPath) {
    if (sections.contains(deploymentPath)) {
      return deploymentPath;
    }
    String[] path = elements(deploymentPath);
    String best = null;
    int[] bestRanks = null;
    for (String section : sections) {
      if (section.indexOf('*') < 0) {
        continue;
      }
      String[] pattern = elements(section);
      if (pattern.length != path.length) {
        continue;
      }
      int[] ranks = new int[pattern.length];
      boolean matches = true;
      for (int i = 0; i < pattern.length && matches; i++) {
        String p = pattern[i];
        if (p.equals("*")) {
          ranks[i] = 0;
        } else if (p.indexOf('*') >= 0) {
          ranks[i] = 1;
          matches = PathGlob.matchesStarOnly(p, path[i]);
        } else {
          ranks[i] = 2;
          matches = p.equals(path[i]);
        }
      }
      if (matches) {
        int c = bestRanks == null ? 1 : java.util.Arrays.compare(ranks, bestRanks);
        if (c > 0 || (c == 0 && section.compareTo(best) < 0)) {
          best = section;
          bestRanks = ranks;
        }
      }
    }
    return best;
  }

  private static String[] elements(String path) {
    String p = path.startsWith("/") ? path.substring(1) : path;
    return p.isEmpty() ? new String[0] : p.split("/", -1);
  }

  /**
   * Parses a merged deployment section.
   *
   * @param c the section with defaults
   * @param key its full key, for errors
   * @return the router
   */
  static RouterConfig parse(Config c, String key) {
    String router = get(() -> c.getString("router"), key, "router");
    if (router.equals("from-code")) {
      throw new ConfigurationException(
          "missing router at " + key + ".router: expected one of " + String.join(", ", ROUTERS));
    }
    if (!ROUTERS.contains(router)) {
      throw new ConfigurationException(
          "unknown router '" + router + "' at " + key + ".router: expected one of " + String.join(", ", ROUTERS));
    }
    try {
      if (router.endsWith("-group")) {
        return group(router, c, key);
      }
      return pool(router, c, key);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("invalid router settings at " + key + ": " + e.getMessage(), e);
    }
  }

  private static RouterConfig pool(String router, Config c, String key) {
    int n = get(() -> c.getInt("nr-of-instances"), key, "nr-of-instances");
    if (n < 1) {
      throw new ConfigurationException(key + ".nr-of-instances must be at least 1, was " + n);
    }
    Resizer resizer = resizer(c, key);
    Pool p = switch (router) {
      case "round-robin-pool" -> new RoundRobinPool(n);
      case "random-pool" -> new RandomPool(n);
      case "smallest-mailbox-pool" -> new SmallestMailboxPool(n);
      case "broadcast-pool" -> new BroadcastPool(n);
      case "scatter-gather-pool" -> new ScatterGatherFirstCompletedPool(n, within(c, key));
      case "tail-chopping-pool" -> new TailChoppingPool(n, within(c, key), interval(c, key));
      case "consistent-hashing-pool" -> new ConsistentHashingPool(n).withVirtualNodesFactor(vnodes(c, key));
      case "balancing-pool" -> {
        if (resizer != null) {
          throw new ConfigurationException(key + ".resizer: a balancing-pool has a fixed size and takes no resizer");
        }
        yield new BalancingPool(n);
      }
      default -> throw new IllegalStateException(router);
    };
    return resizer == null ? p : p.withResizer(resizer);
  }

  private static RouterConfig group(String router, Config c, String key) {
    List<String> paths = get(() -> c.getStringList("routees.paths"), key, "routees.paths");
    if (paths.isEmpty()) {
      throw new ConfigurationException(key + ".routees.paths must list at least one path for a " + router);
    }
    return switch (router) {
      case "round-robin-group" -> new RoundRobinGroup(paths);
      case "random-group" -> new RandomGroup(paths);
      case "broadcast-group" -> new BroadcastGroup(paths);
      case "scatter-gather-group" -> new ScatterGatherFirstCompletedGroup(paths, within(c, key));
      case "tail-chopping-group" -> new TailChoppingGroup(paths, within(c, key), interval(c, key));
      case "consistent-hashing-group" -> new ConsistentHashingGroup(paths).withVirtualNodesFactor(vnodes(c, key));
      default -> throw new IllegalStateException(router);
    };
  }

  private static Duration within(Config c, String key) {
    return positive(get(() -> c.getDuration("within"), key, "within"), key + ".within");
  }

  private static Duration interval(Config c, String key) {
    String k = "tail-chopping-router.interval";
    return positive(get(() -> c.getDuration(k), key, k), key + "." + k);
  }

  private static int vnodes(Config c, String key) {
    int v = get(() -> c.getInt("virtual-nodes-factor"), key, "virtual-nodes-factor");
    if (v < 1) {
      throw new ConfigurationException(key + ".virtual-nodes-factor must be at least 1, was " + v);
    }
    return v;
  }

  private static Duration positive(Duration d, String fullKey) {
    if (d.isZero() || d.isNegative()) {
      throw new ConfigurationException(fullKey + " must be positive, was " + d);
    }
    return d;
  }

  private static Resizer resizer(Config c, String key) {
    boolean dflt = c.hasPath("resizer.enabled") && get(() -> c.getBoolean("resizer.enabled"), key, "resizer.enabled");
    String ok = "optimal-size-exploring-resizer";
    boolean optimal = c.hasPath(ok + ".enabled") && get(() -> c.getBoolean(ok + ".enabled"), key, ok + ".enabled");
    if (dflt && optimal) {
      throw new ConfigurationException(
          "at most one resizer may be enabled at " + key + ": both resizer.enabled and " + ok + ".enabled are on");
    }
    if (dflt) {
      Config r = c.getConfig("resizer");
      String rk = key + ".resizer";
      int lower = get(() -> r.getInt("lower-bound"), rk, "lower-bound");
      int upper = get(() -> r.getInt("upper-bound"), rk, "upper-bound");
      if (lower < 0) {
        throw new ConfigurationException(rk + ".lower-bound must be >= 0, was " + lower);
      }
      if (upper < lower || upper < 1) {
        throw new ConfigurationException(
            rk + ".upper-bound must be >= lower-bound and >= 1, was " + upper + " (lower-bound " + lower + ")");
      }
      try {
        return new DefaultResizer(lower, upper)
            .withPressureThreshold(get(() -> r.getInt("pressure-threshold"), rk, "pressure-threshold"))
            .withRampupRate(get(() -> r.getDouble("rampup-rate"), rk, "rampup-rate"))
            .withBackoffThreshold(get(() -> r.getDouble("backoff-threshold"), rk, "backoff-threshold"))
            .withBackoffRate(get(() -> r.getDouble("backoff-rate"), rk, "backoff-rate"))
            .withMessagesPerResize(get(() -> r.getInt("messages-per-resize"), rk, "messages-per-resize"));
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException("invalid resizer at " + rk + ": " + e.getMessage(), e);
      }
    }
    if (optimal) {
      Config r = c.getConfig(ok);
      String rk = key + "." + ok;
      int lower = get(() -> r.getInt("lower-bound"), rk, "lower-bound");
      int upper = get(() -> r.getInt("upper-bound"), rk, "upper-bound");
      if (upper < lower) {
        throw new ConfigurationException(
            rk + ".upper-bound must be >= lower-bound, was " + upper + " (lower-bound " + lower + ")");
      }
      try {
        return new OptimalSizeExploringResizer(lower, upper)
            .withChanceOfScalingDownWhenFull(get(() -> r.getDouble("chance-of-ramping-down-when-full"), rk, "chance-of-ramping-down-when-full"))
            .withActionInterval(get(() -> r.getDuration("action-interval"), rk, "action-interval"))
            .withNumOfAdjacentSizesToConsiderDuringOptimization(get(() -> r.getInt("optimization-range"), rk, "optimization-range"))
            .withExploreStepSize(get(() -> r.getDouble("explore-step-size"), rk, "explore-step-size"))
            .withDownsizeRatio(get(() -> r.getDouble("downsize-ratio"), rk, "downsize-ratio"))
            .withDownsizeAfterUnderutilizedFor(get(() -> r.getDuration("downsize-after-underutilized-for"), rk, "downsize-after-underutilized-for"))
            .withExplorationProbability(get(() -> r.getDouble("exploration-probability"), rk, "exploration-probability"))
            .withWeightOfLatestMetric(get(() -> r.getDouble("weight-of-latest-metric"), rk, "weight-of-latest-metric"));
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException("invalid resizer at " + rk + ": " + e.getMessage(), e);
      }
    }
    return null;
  }

  private static <T> T get(Supplier<T> read, String key, String sub) {
    try {
      return read.get();
    } catch (ConfigException.Missing e) {
      throw new ConfigurationException("missing setting " + key + "." + sub, e);
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid value at " + key + "." + sub + ": " + e.getMessage(), e);
    }
  }
}
