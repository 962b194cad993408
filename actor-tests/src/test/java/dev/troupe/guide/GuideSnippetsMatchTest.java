package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.guide.Regions.Region;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The guide cannot rot: every fenced block of {@code docs/guide.md} names a region of the compiled
 * (and mostly run) snippet sources on the line before it, and equals that region; no region is
 * left unused.
 */
class GuideSnippetsMatchTest {
  private static final Pattern SNIPPET = Pattern.compile("^<!-- snippet: ([A-Za-z0-9_-]+) -->$");
  private static final String FENCE = "```";

  /**
   * What is wrong between a guide and the regions, one message per problem, each naming the
   * block (its line in the guide and its region) or the region.
   */
  static List<String> problems(String guideName, List<String> guide, Map<String, Region> regions) {
    List<String> out = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (int i = 0; i < guide.size(); i++) {
      String line = guide.get(i);
      Matcher m = SNIPPET.matcher(line);
      if (m.matches()) {
        if (i + 1 >= guide.size() || !guide.get(i + 1).startsWith(FENCE)) {
          out.add(guideName + ":" + (i + 1) + ": snippet '" + m.group(1) + "' is not followed by a fenced block");
        }
        continue;
      }
      if (!line.startsWith(FENCE)) {
        continue;
      }
      int open = i;
      int close = open + 1;
      while (close < guide.size() && !guide.get(close).equals(FENCE)) {
        close++;
      }
      if (close >= guide.size()) {
        out.add(guideName + ":" + (open + 1) + ": fenced block never closed");
        break;
      }
      i = close;
      Matcher named = open > 0 ? SNIPPET.matcher(guide.get(open - 1)) : null;
      if (named == null || !named.matches()) {
        out.add(guideName + ":" + (open + 1) + ": fenced block without a '<!-- snippet: name -->' line before it");
        continue;
      }
      String name = named.group(1);
      String where = guideName + ":" + (open + 1) + ", block '" + name + "'";
      Region r = regions.get(name);
      if (r == null) {
        out.add(where + ": no region '" + name + "' in the snippet sources");
        continue;
      }
      used.add(name);
      List<String> block = Regions.normalize(guide.subList(open + 1, close));
      List<String> source = Regions.normalize(r.lines());
      if (!block.equals(source)) {
        out.add(where + ": differs from its region (" + r.file() + ":" + r.line() + ")" + firstDifference(block, source));
      }
    }
    for (Region r : regions.values()) {
      if (!used.contains(r.name())) {
        out.add("region '" + r.name() + "' (" + r.file() + ":" + r.line() + ") is shown by no block of " + guideName);
      }
    }
    return out;
  }

  private static String firstDifference(List<String> block, List<String> source) {
    for (int i = 0; i < Math.max(block.size(), source.size()); i++) {
      String b = i < block.size() ? block.get(i) : "<end of block>";
      String s = i < source.size() ? source.get(i) : "<end of region>";
      if (!b.equals(s)) {
        return ", first at its line " + (i + 1) + ":\n    guide:  " + b + "\n    source: " + s;
      }
    }
    return "";
  }

  /** The guide with every named block replaced by its region's text (blocks naming no region stay). */
  static List<String> refreshed(List<String> guide, Map<String, Region> regions) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < guide.size(); i++) {
      String line = guide.get(i);
      out.add(line);
      Matcher m = SNIPPET.matcher(line);
      Region r = m.matches() ? regions.get(m.group(1)) : null;
      if (r == null || i + 1 >= guide.size() || !guide.get(i + 1).startsWith(FENCE)) {
        continue;
      }
      int close = i + 2;
      while (close < guide.size() && !guide.get(close).equals(FENCE)) {
        close++;
      }
      if (close >= guide.size()) {
        continue;
      }
      out.add(guide.get(i + 1));
      out.addAll(Regions.normalize(r.lines()));
      out.add(FENCE);
      i = close;
    }
    return out;
  }

  /**
   * With {@code -Dguide.update=true} (e.g. {@code mvn -pl actor-tests -am test
   * -Dtest=GuideSnippetsMatchTest -Dsurefire.failIfNoSpecifiedTests=false -Dguide.update=true})
   * the guide's blocks are first rewritten from their regions: edit a snippet, run that, read the diff.
   */
  @Test
  void everyBlockOfTheGuideIsItsCompiledRegionAndEveryRegionIsShown() throws IOException {
    Map<String, Region> regions = Regions.all();
    if (Boolean.getBoolean("guide.update")) {
      List<String> before = Files.readAllLines(Regions.guide(), StandardCharsets.UTF_8);
      Files.write(Regions.guide(), refreshed(before, regions), StandardCharsets.UTF_8);
    }
    List<String> guide = Files.readAllLines(Regions.guide(), StandardCharsets.UTF_8);
    assertTrue(regions.size() > 20, "found the snippet sources: " + regions.keySet());
    List<String> problems = problems("docs/guide.md", guide, regions);
    assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
  }

  // ------------------------------------------------------------------ the checker itself

  private static Map<String, Region> regionsOf(String... fileLines) {
    Map<String, Region> out = new LinkedHashMap<>();
    for (Region r : Regions.parse("Src.java", List.of(fileLines))) {
      out.put(r.name(), r);
    }
    return out;
  }

  private static final Map<String, Region> SOURCE = regionsOf(
      "class Src {",
      "  void m() {",
      "    // " + "tag::hello[]",
      "    int a = 1;",
      "      call(a);",
      "    // " + "end::hello[]",
      "  }",
      "}");

  @Test
  void aBlockEqualToItsRegionUpToCommonIndentationPasses() {
    assertEquals(List.of(), problems("g.md", List.of("text", "<!-- snippet: hello -->", "```java", "int a = 1;", "  call(a);", "```"), SOURCE));
  }

  @Test
  void aBlockThatDriftedIsNamedWithTheFirstDifference() {
    List<String> p = problems("g.md", List.of("<!-- snippet: hello -->", "```java", "int a = 2;", "  call(a);", "```"), SOURCE);
    assertEquals(1, p.size(), p.toString());
    assertTrue(p.get(0).startsWith("g.md:2, block 'hello': differs from its region (Src.java:3), first at its line 1:"), p.get(0));
    assertTrue(p.get(0).contains("guide:  int a = 2;") && p.get(0).contains("source: int a = 1;"), p.get(0));
  }

  @Test
  void aBlockNamingNoRegionABlockWithoutANameAndAnUnusedRegionAreEachReported() {
    List<String> p = problems("g.md", List.of("<!-- snippet: nope -->", "```", "x", "```", "", "```sh", "ls", "```"), SOURCE);
    assertEquals(List.of(
        "g.md:2, block 'nope': no region 'nope' in the snippet sources",
        "g.md:6: fenced block without a '<!-- snippet: name -->' line before it",
        "region 'hello' (Src.java:3) is shown by no block of g.md"), p);
  }

  @Test
  void refreshingRewritesTheNamedBlocksFromTheirRegions() {
    List<String> guide = List.of("a", "<!-- snippet: hello -->", "```java", "stale();", "```", "b");
    List<String> fresh = refreshed(guide, SOURCE);
    assertEquals(List.of("a", "<!-- snippet: hello -->", "```java", "int a = 1;", "  call(a);", "```", "b"), fresh);
    assertEquals(List.of(), problems("g.md", fresh, SOURCE));
  }

  @Test
  void nestedRegionsLeaveTheInnerMarkersOut() {
    Map<String, Region> r = regionsOf("# " + "tag::outer[]", "a", "# " + "tag::inner[]", "b", "# " + "end::inner[]", "c", "# " + "end::outer[]");
    assertEquals("a\nb\nc", r.get("outer").text());
    assertEquals("b", r.get("inner").text());
  }
}
