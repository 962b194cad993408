package dev.troupe.actor.internal.shutdown;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.runtime.spi.ConfigReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code troupe.coordinated-shutdown} settings, parsed and validated once at system start:
 * the phases in the order they run (a topological order of their {@code depends-on}; phases that
 * do not depend on each other run in name order), each with its timeout and recover flag.
 */
public record ShutdownSettings(
    boolean terminateActorSystem, boolean runByJvmShutdownHook, List<Phase> phases) {

  private static final String PATH = "troupe.coordinated-shutdown";
  private static final Set<String> PHASE_KEYS = Set.of("depends-on", "timeout", "recover");
  private static final List<String> BUILT_IN =
      List.of(
          CoordinatedShutdown.PHASE_BEFORE_SERVICE_UNBIND,
          CoordinatedShutdown.PHASE_SERVICE_UNBIND,
          CoordinatedShutdown.PHASE_SERVICE_REQUESTS_DONE,
          CoordinatedShutdown.PHASE_SERVICE_STOP,
          CoordinatedShutdown.PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE,
          CoordinatedShutdown.PHASE_ACTOR_SYSTEM_TERMINATE);

  /** One phase: its name, how long it waits for its tasks, and whether a failure ends the run. */
  record Phase(String name, Duration timeout, boolean recover, List<String> dependsOn) {}

  public static ShutdownSettings from(Config config) {
    Config c = config.getConfig(PATH);
    Duration defaultTimeout = positive(c, PATH, "default-phase-timeout");
    Map<String, Phase> byName = new TreeMap<>();
    Config phases = c.getConfig("phases");
    for (Map.Entry<String, ConfigValue> e : phases.root().entrySet()) {
      String name = e.getKey();
      String path = ConfigUtil.joinPath("troupe", "coordinated-shutdown", "phases", name);
      if (e.getValue().valueType() != ConfigValueType.OBJECT) {
        throw new ConfigurationException(
            "invalid configuration value at '" + path + "': a phase is a section { depends-on, timeout, recover }");
      }
      Config p = phases.getConfig(ConfigUtil.joinPath(name));
      for (String key : p.root().keySet()) {
        if (!PHASE_KEYS.contains(key)) {
          throw new ConfigurationException(
              "unknown configuration key '" + path + "." + key + "': a phase has only " + new TreeSet<>(PHASE_KEYS));
        }
      }
      Duration timeout = p.hasPath("timeout") ? positive(p, path, "timeout") : defaultTimeout;
      boolean recover = !p.hasPath("recover") || ConfigReader.bool(p, path, "recover");
      List<String> dependsOn;
      try {
        dependsOn = p.hasPath("depends-on") ? List.copyOf(p.getStringList("depends-on")) : List.of();
      } catch (com.typesafe.config.ConfigException ex) {
        throw new ConfigurationException(
            "invalid configuration value at '" + path + ".depends-on': " + ex.getMessage(), ex);
      }
      byName.put(name, new Phase(name, timeout, recover, dependsOn));
    }
    for (String b : BUILT_IN) {
      if (!byName.containsKey(b)) {
        throw new ConfigurationException(
            "invalid configuration at '" + PATH + ".phases': the built-in phase '" + b + "' is missing");
      }
    }
    for (Phase p : byName.values()) {
      for (String d : p.dependsOn()) {
        if (!byName.containsKey(d)) {
          throw new ConfigurationException(
              "invalid configuration value at '"
                  + ConfigUtil.joinPath("troupe", "coordinated-shutdown", "phases", p.name(), "depends-on")
                  + "': no phase named '"
                  + d + "'; the phases are " + byName.keySet());
        }
      }
    }
    return new ShutdownSettings(
        ConfigReader.bool(c, PATH, "terminate-actor-system"),
        ConfigReader.bool(c, PATH, "run-by-jvm-shutdown-hook"),
        order(byName));
  }

  /** Kahn's algorithm, ready phases taken in name order; a cycle fails naming its phases. */
  private static List<Phase> order(Map<String, Phase> byName) {
    Map<String, Integer> waitingFor = new HashMap<>();
    Map<String, List<String>> dependents = new HashMap<>();
    TreeSet<String> ready = new TreeSet<>();
    for (Phase p : byName.values()) {
      Set<String> deps = new TreeSet<>(p.dependsOn());
      waitingFor.put(p.name(), deps.size());
      for (String d : deps) {
        dependents.computeIfAbsent(d, k -> new ArrayList<>()).add(p.name());
      }
      if (deps.isEmpty()) {
        ready.add(p.name());
      }
    }
    List<Phase> out = new ArrayList<>();
    while (!ready.isEmpty()) {
      String next = ready.pollFirst();
      out.add(byName.get(next));
      for (String d : dependents.getOrDefault(next, List.of())) {
        if (waitingFor.merge(d, -1, Integer::sum) == 0) {
          ready.add(d);
        }
      }
    }
    if (out.size() < byName.size()) {
      Set<String> cycle = new TreeSet<>(byName.keySet());
      out.forEach(p -> cycle.remove(p.name()));
      throw new ConfigurationException(
          "invalid configuration at '" + PATH + ".phases': these phases are in, or behind, a depends-on cycle: "
              + cycle);
    }
    return List.copyOf(out);
  }

  private static Duration positive(Config c, String path, String key) {
    Duration d = ConfigReader.durationAtLeastZero(c, path, key);
    if (d.isZero()) {
      throw new ConfigurationException(
          "invalid configuration value at '" + path + "." + key + "': must be positive");
    }
    return d;
  }

  /** @return the sum of the phase timeouts */
  Duration totalTimeout() {
    Duration sum = Duration.ZERO;
    for (Phase p : phases) {
      sum = sum.plus(p.timeout());
    }
    return sum;
  }
}
