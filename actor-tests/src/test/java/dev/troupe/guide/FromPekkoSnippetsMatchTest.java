package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.guide.Regions.Region;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The page "Coming from Pekko" ({@code docs/from-pekko.md}) cannot rot: every fenced block is a
 * region of the compiled and run sources in {@code dev.troupe.guide.pekko} and {@code
 * src/test/resources/guide/pekko} (its name map is written as code, so every Troupe name it maps
 * a Pekko name to compiles), or the consumer project's pom ({@link ConsumerPomTest}); every region
 * of those sources is shown. Checked as {@link GuideSnippetsMatchTest} checks the guide.
 */
class FromPekkoSnippetsMatchTest {
  static final String PAGE = "docs/from-pekko.md";

  static Map<String, Region> regions() throws IOException {
    Path m = Regions.moduleDir();
    Map<String, Region> out = new LinkedHashMap<>(
        Regions.all(List.of(m.resolve("src/test/java/dev/troupe/guide/pekko"), m.resolve("src/test/resources/guide/pekko"))));
    Path pom = m.getParent().resolve("docs/examples/consumer/pom.xml");
    for (Region r : Regions.parse("docs/examples/consumer/pom.xml", Files.readAllLines(pom, StandardCharsets.UTF_8))) {
      out.put(r.name(), r);
    }
    return out;
  }

  /** With {@code -Dguide.update=true} the page's blocks are first rewritten from their regions. */
  @Test
  void everyBlockOfThePageIsItsCompiledRegionAndEveryRegionIsShown() throws IOException {
    Map<String, Region> regions = regions();
    assertTrue(regions.size() >= 8, "found the snippet sources: " + regions.keySet());
    Path page = Regions.moduleDir().getParent().resolve(PAGE);
    if (Boolean.getBoolean("guide.update")) {
      Files.write(page, GuideSnippetsMatchTest.refreshed(Files.readAllLines(page, StandardCharsets.UTF_8), regions), StandardCharsets.UTF_8);
    }
    List<String> problems = GuideSnippetsMatchTest.problems(PAGE, Files.readAllLines(page, StandardCharsets.UTF_8), regions);
    assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
  }

  /** The README links the page. */
  @Test
  void theReadmeLinksThePage() throws IOException {
    String readme = Files.readString(Regions.moduleDir().getParent().resolve("README.md"));
    assertTrue(readme.contains("](" + PAGE + ")"), "README.md links " + PAGE);
  }
}
