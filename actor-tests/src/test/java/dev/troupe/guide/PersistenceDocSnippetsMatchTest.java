package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.guide.Regions.Region;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/persistence.md} cannot rot: every Java block is a region of the compiled and run
 * sources in {@code dev.troupe.guide.persistence} and every region is shown; every key of the
 * persistence module's {@code reference.conf} is in the page's table with its default; the README
 * links the page.
 */
class PersistenceDocSnippetsMatchTest {
  static final String PAGE = "docs/persistence.md";

  private static Path page() {
    return Regions.moduleDir().getParent().resolve(PAGE);
  }

  @Test
  void everyJavaBlockOfThePageIsItsCompiledRegionAndEveryRegionIsShown() throws IOException {
    Map<String, Region> regions = Regions.all(List.of(Regions.moduleDir().resolve("src/test/java/dev/troupe/guide/persistence")));
    assertTrue(!regions.isEmpty(), "found the snippet sources");
    if (Boolean.getBoolean("guide.update")) {
      List<String> before = Files.readAllLines(page(), StandardCharsets.UTF_8);
      Files.write(page(), GuideSnippetsMatchTest.refreshed(before, regions), StandardCharsets.UTF_8);
    }
    List<String> lines = ClusterDocSnippetsMatchTest.javaBlocksOnly(Files.readAllLines(page(), StandardCharsets.UTF_8));
    List<String> problems = GuideSnippetsMatchTest.problems(PAGE, lines, regions);
    assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
  }

  @Test
  void everyPersistenceKeyIsOnThePageWithItsDefault() throws IOException {
    String text = Files.readString(page(), StandardCharsets.UTF_8);
    Config persistence = ConfigFactory.parseResources("reference.conf").resolve().getConfig("troupe.persistence");
    List<String> missing = ClusterDocSnippetsMatchTest.missingKeyRows(text, persistence);
    assertTrue(persistence.entrySet().size() >= 10, "read the keys from reference.conf: " + persistence.entrySet().size());
    assertTrue(missing.isEmpty(), PAGE + " lacks the rows (key, default):\n" + String.join("\n", missing));
  }

  @Test
  void theReadmeLinksThePage() throws IOException {
    String readme = Files.readString(Regions.moduleDir().getParent().resolve("README.md"));
    assertTrue(readme.contains("](" + PAGE + ")"), "README.md links " + PAGE);
  }
}
