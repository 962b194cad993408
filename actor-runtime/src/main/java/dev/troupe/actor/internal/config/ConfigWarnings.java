package dev.troupe.actor.internal.config;

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
 * <p>Sections whose keys are the user's to choose are skipped: serialization bindings and
 * serializers, coordinated shutdown phases, and a new section that declares a dispatcher or mailbox
 * (its name ends with {@code dispatcher} or {@code mailbox}, or it has a {@code type}, {@code
 * executor} or {@code mailbox-type} key). A deployment section ({@code
 * troupe.actor.deployment."/path"}) has a name of the user's, but the keys inside it are checked
 * against what a section may hold: the keys of {@code troupe.actor.deployment.default}, {@code
 * remote} and {@code target.nodes} (a typo there would otherwise turn a remote pool into a local
 * one without a word); a {@code pool-dispatcher} section inside it is the user's.
 */
public final class ConfigWarnings {
  /** The key that switches these warnings off. */
  /** The key that turns the warnings off. */
  public static final String SWITCH = "troupe.log-config-warnings";

  /** Where deployment sections live; {@code default} holds the keys every section may set. */
  private static final String DEPLOYMENT = "troupe.actor.deployment";
  /** Keys a deployment section may hold besides those of {@code default}: read by the providers. */
  private static final List<String> DEPLOYMENT_EXTRA_KEYS = List.of("remote", "target.nodes");
  /** A deployment section's sub-section whose keys are a dispatcher's, checked where it is used. */
  private static final String POOL_DISPATCHER = "pool-dispatcher";

  private static final List<String> FREE_FORM =
      List.of(
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
  public static List<String> unknownKeys(Config config, Config reference) {
    if (!config.hasPath("troupe")) {
      return List.of();
    }
    // a leaf inside a section of the user's names (a binding of "[B") is no key to suggest: its section is
    List<String> known = new ArrayList<>(new TreeSet<>(leaves(reference).stream().map(ConfigWarnings::sectionIfFreeForm).toList()));
    List<String> deploymentKeys = deploymentKeys(reference);
    List<String> warnings = new ArrayList<>();
    for (String key : leaves(config)) {
      if (reference.hasPathOrNull(key)) {
        continue;
      }
      List<String> elements = ConfigUtil.splitPath(key);
      if (key.startsWith(DEPLOYMENT + ".") && elements.size() > 4) {
        String section = ConfigUtil.joinPath(elements.subList(0, 4));
        String inside = ConfigUtil.joinPath(elements.subList(4, elements.size()));
        if (!deploymentKeys.contains(inside) && !inside.startsWith(POOL_DISPATCHER + ".")) {
          warnings.add(
              "unknown key '" + inside + "' in the deployment section " + section + ": a deployment section"
                  + " holds the keys of " + DEPLOYMENT + ".default, remote and target.nodes; did you mean '"
                  + section + "." + closest(inside, deploymentKeys) + "'? (set " + SWITCH + " = off to silence this)");
        }
        continue;
      }
      if (!freeForm(key) && !inUserSection(key, config, reference)) {
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

  /**
   * @return the keys a deployment section may hold, relative to the section: those of {@code
   *     troupe.actor.deployment.default} in the reference, and {@link #DEPLOYMENT_EXTRA_KEYS}
   */
  private static List<String> deploymentKeys(Config reference) {
    List<String> keys = new ArrayList<>(DEPLOYMENT_EXTRA_KEYS);
    String defaults = DEPLOYMENT + ".default";
    if (reference.hasPath(defaults)) {
      for (Map.Entry<String, ConfigValue> e : reference.getConfig(defaults).entrySet()) {
        keys.add(e.getKey());
      }
    }
    return keys;
  }

  /** @return the free-form section {@code key} is in, or {@code key} itself */
  private static String sectionIfFreeForm(String key) {
    for (String section : FREE_FORM) {
      if (key.startsWith(section + ".")) {
        return section;
      }
    }
    return key;
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
      // a free-form section is compared with as much of the key as it has elements: the rest of the
      // key is the user's own name (a class, a serializer), which says nothing about the typo
      int d = editDistance(FREE_FORM.contains(k) ? prefix(key, ConfigUtil.splitPath(k).size()) : key, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** @return the first {@code n} path elements of {@code key}, or all of it */
  private static String prefix(String key, int n) {
    List<String> elements = ConfigUtil.splitPath(key);
    return elements.size() <= n ? key : ConfigUtil.joinPath(elements.subList(0, n));
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
