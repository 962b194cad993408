package dev.troupe.actor.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Finds the {@code troupe.*} keys of a configuration that no {@code reference.conf} on the class
 * path defines, usually typos, and words a warning for each naming the closest known key.
 *
 * <p>Sections whose keys are the user's to choose are skipped: deployments, serialization bindings
 * and serializers, coordinated shutdown phases, and a new section that declares a dispatcher or mailbox (its name ends with
 * {@code dispatcher} or {@code mailbox}, or it has a {@code type}, {@code executor} or {@code
 * mailbox-type} key).
 */
final class ConfigWarnings {
  /** The key that switches these warnings off. */
  static final String SWITCH = "troupe.log-config-warnings";

  private static final List<String> FREE_FORM =
      List.of(
          "troupe.actor.deployment",
          "troupe.serialization.bindings",
          "troupe.serialization.serializers",
          "troupe.coordinated-shutdown.phases"); // each phase's keys are checked where it is parsed
  private static final List<String> SECTION_MARKERS = List.of("type", "executor", "mailbox-type");

  private ConfigWarnings() {}

  /**
   * @param config the system's full configuration
   * @param reference every {@code reference.conf} on the class path, merged
   * @return one warning per unknown key, in key order; empty if there is none
   */
  static List<String> unknownKeys(Config config, Config reference) {
    if (!config.hasPath("troupe")) {
      return List.of();
    }
    List<String> known = new ArrayList<>(leaves(reference));
    List<String> warnings = new ArrayList<>();
    for (String key : leaves(config)) {
      if (!reference.hasPathOrNull(key) && !freeForm(key) && !inUserSection(key, config, reference)) {
        warnings.add(
            "unknown configuration key '"
                + key
                + "': no reference.conf on the class path defines it; did you mean '"
                + closest(key, known)
                + "'? (set "
                + SWITCH
                + " = off to silence this)");
      }
    }
    return warnings;
  }

  /** @return the full paths of the leaves under {@code troupe}, sorted */
  private static TreeSet<String> leaves(Config c) {
    TreeSet<String> out = new TreeSet<>();
    if (c.hasPath("troupe")) {
      for (Map.Entry<String, ConfigValue> e : c.getConfig("troupe").entrySet()) {
        out.add("troupe." + e.getKey());
      }
    }
    return out;
  }

  private static boolean freeForm(String key) {
    for (String section : FREE_FORM) {
      if (key.startsWith(section + ".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the outermost section of {@code key} that the reference lacks declares a dispatcher or
   * mailbox.
   */
  private static boolean inUserSection(String key, Config config, Config reference) {
    List<String> elements = ConfigUtil.splitPath(key);
    for (int n = 2; n < elements.size(); n++) {
      String section = ConfigUtil.joinPath(elements.subList(0, n));
      if (!reference.hasPathOrNull(section)) {
        String name = elements.get(n - 1);
        Config c = config.getConfig(section);
        return name.endsWith("dispatcher")
            || name.endsWith("mailbox")
            || SECTION_MARKERS.stream().anyMatch(c.root()::containsKey);
      }
    }
    return false;
  }

  private static String closest(String key, List<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = editDistance(key, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** The Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }
}
