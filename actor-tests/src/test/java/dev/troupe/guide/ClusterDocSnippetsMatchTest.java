package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import dev.troupe.guide.Regions.Region;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/cluster.md} cannot rot: every Java block is a region of the compiled and run sources in
 * {@code dev.troupe.guide.cluster}, and every region is shown (checked as {@link
 * GuideSnippetsMatchTest} checks the guide; configuration and output blocks are free text); every
 * key of the cluster's {@code reference.conf} under {@code troupe.cluster} is in the page's tables
 * with its default.
 */
class ClusterDocSnippetsMatchTest {
  static final String PAGE = "docs/cluster.md";

  private static Path page() {
    return Regions.moduleDir().getParent().resolve(PAGE);
  }

  /** The page with the lines of its non-Java fenced blocks blanked (line numbers stay). */
  static List<String> javaBlocksOnly(List<String> lines) {
    List<String> out = new ArrayList<>(lines);
    for (int i = 0; i < out.size(); i++) {
      String line = out.get(i);
      if (line.startsWith("```") && !line.equals("```java")) {
        int close = i + 1;
        while (close < out.size() && !out.get(close).equals("```")) {
          close++;
        }
        for (int j = i; j <= Math.min(close, out.size() - 1); j++) {
          out.set(j, "");
        }
        i = close;
      } else if (line.equals("```java")) {
        while (i + 1 < out.size() && !out.get(i + 1).equals("```")) {
          i++;
        }
        i++;
      }
    }
    return out;
  }

  @Test
  void everyJavaBlockOfThePageIsItsCompiledRegionAndEveryRegionIsShown() throws IOException {
    Map<String, Region> regions = Regions.all(List.of(Regions.moduleDir().resolve("src/test/java/dev/troupe/guide/cluster")));
    assertTrue(regions.size() >= 4, "found the snippet sources: " + regions.keySet());
    if (Boolean.getBoolean("guide.update")) {
      List<String> before = Files.readAllLines(page(), StandardCharsets.UTF_8);
      Files.write(page(), GuideSnippetsMatchTest.refreshed(before, regions), StandardCharsets.UTF_8);
    }
    List<String> lines = javaBlocksOnly(Files.readAllLines(page(), StandardCharsets.UTF_8));
    List<String> problems = GuideSnippetsMatchTest.problems(PAGE, lines, regions);
    assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
  }

  /** Each key of {@code troupe.cluster} (sharding's and the singleton's have their own page) with its default. */
  @Test
  void everyClusterKeyIsOnThePageWithItsDefault() throws IOException {
    String text = Files.readString(page(), StandardCharsets.UTF_8);
    Config cluster = ConfigFactory.parseResources("reference.conf").resolve().getConfig("troupe.cluster");
    List<String> missing = new ArrayList<>();
    int keys = 0;
    for (Map.Entry<String, ConfigValue> e : cluster.entrySet()) {
      String key = e.getKey();
      if (key.startsWith("sharding.") || key.startsWith("singleton.")) {
        continue;
      }
      keys++;
      String row = "| `" + key + "` | `" + defaultText(e.getValue()) + "` |";
      if (!text.contains(row)) {
        missing.add(row);
      }
    }
    assertTrue(keys >= 15, "read the cluster's keys from reference.conf: " + keys);
    assertTrue(missing.isEmpty(), PAGE + " lacks the rows (key, default):\n" + String.join("\n", missing));
  }

  /**
   * @param page a page's text
   * @param section a section of a configuration
   * @return the rows {@code | `key` | `default` |} of the section's keys (relative to it) that the
   *     page lacks
   */
  static List<String> missingKeyRows(String page, Config section) {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, ConfigValue> e : section.entrySet()) {
      String row = "| `" + e.getKey() + "` | `" + defaultText(e.getValue()) + "` |";
      if (!page.contains(row)) {
        missing.add(row);
      }
    }
    return missing;
  }

  static String defaultText(ConfigValue v) {
    Object u = v.unwrapped();
    if (u instanceof String s && s.isEmpty()) {
      return "\"\"";
    }
    return u instanceof List<?> l && l.isEmpty() ? "[]" : String.valueOf(u);
  }

  /** The README links the page. */
  @Test
  void theReadmeLinksThePage() throws IOException {
    String readme = Files.readString(Regions.moduleDir().getParent().resolve("README.md"));
    assertTrue(readme.contains("](" + PAGE + ")"), "README.md links " + PAGE);
  }
}
