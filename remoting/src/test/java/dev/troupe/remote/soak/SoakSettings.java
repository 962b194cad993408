package dev.troupe.remote.soak;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The soak harness's knobs, all system properties (Maven passes {@code -D} on its command line to
 * the test JVM), read once. See {@link RemoteSoakTest} for what each one means and
 * {@code scripts/remote-soak.sh --help} for the long run.
 *
 * @param duration how long the adversaries attack ({@code troupe.soak.duration})
 * @param warmup how long the legitimate peer works alone first: the baseline ({@code troupe.soak.warmup})
 * @param adversaries the adversaries enabled ({@code troupe.soak.adversaries}: names, {@code all} or {@code none})
 * @param seed the seed of every adversary's random choices ({@code troupe.soak.seed})
 * @param askRate the legitimate peer's asks a second ({@code troupe.soak.ask-rate})
 * @param askTimeout how long one ask may take before it counts as lost ({@code troupe.soak.ask-timeout})
 * @param maxP99 the highest tolerated 99th percentile of the asks' latency ({@code troupe.soak.max-p99})
 * @param victimHeap the victim's {@code -Xmx} ({@code troupe.soak.victim-heap})
 * @param victimFdLimit the victim's {@code ulimit -n} ({@code troupe.soak.victim-fd-limit})
 * @param heapMarginMiB how far the victim's live heap late in the run may rise above its baseline ({@code troupe.soak.heap-margin-mib})
 * @param fdMargin how far its open file descriptors may rise above their baseline ({@code troupe.soak.fd-margin};
 *     set it to the victim's connection cap once it has one)
 * @param victimConfig the victim's configuration: every {@code troupe.soak.victim.<key>=<value>}
 *     becomes {@code -D<key>=<value>} on its command line
 */
record SoakSettings(
    Duration duration,
    Duration warmup,
    List<String> adversaries,
    long seed,
    double askRate,
    Duration askTimeout,
    Duration maxP99,
    String victimHeap,
    int victimFdLimit,
    long heapMarginMiB,
    long fdMargin,
    Map<String, String> victimConfig) {

  /** The adversaries that the suite's short run enables by default: all of them. */
  static final String SUITE_ADVERSARIES = "all";

  static final String VICTIM_PREFIX = "troupe.soak.victim.";

  /**
   * The victim's configuration unless a {@code troupe.soak.victim.<key>} property says otherwise:
   * the node's defaults but for its connection limits, scaled to the run: a handshake deadline and
   * an idle timeout short enough that a 20 s run sees them act, and caps that keep the victim well
   * inside its descriptor limit while leaving room for the churn adversary's held connections and
   * a fresh peer at the end (all of them come from 127.0.0.1, so the per-host cap is the total).
   */
  static final Map<String, String> VICTIM_DEFAULTS =
      Map.of(
          "troupe.remote.advanced.handshake-timeout", "2s",
          "troupe.remote.advanced.inbound-idle-timeout", "10s",
          "troupe.remote.advanced.maximum-inbound-connections", "200",
          "troupe.remote.advanced.maximum-inbound-connections-per-host", "200");

  /** @return the settings from this JVM's system properties */
  static SoakSettings fromSystemProperties() {
    String names = System.getProperty("troupe.soak.adversaries", SUITE_ADVERSARIES).trim();
    List<String> adversaries =
        switch (names) {
          case "all" -> Adversary.NAMES;
          case "none", "" -> List.of();
          default -> {
            List<String> list = new ArrayList<>();
            for (String n : Arrays.asList(names.split(","))) {
              String name = n.trim();
              if (!Adversary.NAMES.contains(name)) {
                throw new IllegalArgumentException(
                    "troupe.soak.adversaries: unknown adversary '" + name + "', known: " + Adversary.NAMES);
              }
              list.add(name);
            }
            yield List.copyOf(list);
          }
        };
    Map<String, String> victimConfig = new TreeMap<>(VICTIM_DEFAULTS);
    System.getProperties().stringPropertyNames().stream()
        .filter(k -> k.startsWith(VICTIM_PREFIX))
        .forEach(k -> victimConfig.put(k.substring(VICTIM_PREFIX.length()), System.getProperty(k)));
    return new SoakSettings(
        duration("troupe.soak.duration", "20s"),
        duration("troupe.soak.warmup", "4s"),
        adversaries,
        longProperty("troupe.soak.seed", System.currentTimeMillis()),
        doubleProperty("troupe.soak.ask-rate", 50),
        duration("troupe.soak.ask-timeout", "5s"),
        duration("troupe.soak.max-p99", "1s"),
        System.getProperty("troupe.soak.victim-heap", "128m"),
        (int) longProperty("troupe.soak.victim-fd-limit", 256),
        longProperty("troupe.soak.heap-margin-mib", 24),
        longProperty("troupe.soak.fd-margin", 200 + 16), // the victim's connection cap, and a little for its own files
        Collections.unmodifiableMap(victimConfig));
  }

  /** @return the duration in {@code key} (HOCON syntax: 30s, 30m, 2h), or {@code fallback} */
  static Duration duration(String key, String fallback) {
    String text = System.getProperty(key, fallback);
    try {
      return ConfigFactory.parseString("d = \"" + text + "\"").getDuration("d");
    } catch (ConfigException e) {
      throw new IllegalArgumentException(key + ": not a duration: '" + text + "'", e);
    }
  }

  static long longProperty(String key, long fallback) {
    String text = System.getProperty(key);
    try {
      return text == null ? fallback : Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": not a whole number: '" + text + "'", e);
    }
  }

  static double doubleProperty(String key, double fallback) {
    String text = System.getProperty(key);
    try {
      double v = text == null ? fallback : Double.parseDouble(text.trim());
      if (!(v > 0)) {
        throw new NumberFormatException("not positive");
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": not a positive number: '" + text + "'", e);
    }
  }
}
