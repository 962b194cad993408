package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.guide.Regions.Region;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The README's dependency block is the user's project in {@code docs/examples/consumer} (which
 * {@code scripts/check-consumer-pom.sh} builds with plain Maven): every page that shows the block
 * shows that file's region {@code consumer-pom} unchanged, and the file's versions are the build's
 * own — Troupe's version, JUnit's, logback's, the Java release and the compiler and Surefire
 * plugins of the root pom, which Maven 3.8's defaults (compiler 3.1, Surefire 2.12) lack.
 */
class ConsumerPomTest {
  private static final String MARKER = "<!-- snippet: consumer-pom -->";
  private static final List<String> PAGES = List.of("README.md", "docs/from-pekko.md");

  private static Path root() {
    return Regions.moduleDir().getParent();
  }

  private static Path consumerPom() {
    return root().resolve("docs/examples/consumer/pom.xml");
  }

  private static Element xml(Path file) throws Exception {
    return GuideSnippetsBuildTest.xml(file).getDocumentElement();
  }

  /** The text of the first child element named so, directly under e; null when none. */
  private static String direct(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(name)) {
        return c.getTextContent().trim();
      }
    }
    return null;
  }

  private static Element first(Element e, String name) {
    NodeList l = e.getElementsByTagName(name);
    return l.getLength() == 0 ? null : (Element) l.item(0);
  }

  /** artifactId to version of every plugin element under e. */
  private static Map<String, String> plugins(Element e) {
    Map<String, String> out = new HashMap<>();
    NodeList l = e.getElementsByTagName("plugin");
    for (int i = 0; i < l.getLength(); i++) {
      Element p = (Element) l.item(i);
      out.put(direct(p, "artifactId"), direct(p, "version"));
    }
    return out;
  }

  @Test
  void everyPageShowsTheConsumerProjectsRegionUnchanged() throws Exception {
    List<Region> regions = Regions.parse("docs/examples/consumer/pom.xml", Files.readAllLines(consumerPom(), StandardCharsets.UTF_8));
    assertEquals(1, regions.size(), "one region in the consumer pom");
    Region region = regions.get(0);
    assertEquals("consumer-pom", region.name());
    List<String> shownBy = new ArrayList<>();
    for (String page : PAGES) {
      List<String> lines = Files.readAllLines(root().resolve(page), StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (!lines.get(i).equals(MARKER)) {
          continue;
        }
        assertTrue(i + 1 < lines.size() && lines.get(i + 1).equals("```xml"), page + ":" + (i + 2) + ": an xml block follows the marker");
        int close = i + 2;
        while (close < lines.size() && !lines.get(close).equals("```")) {
          close++;
        }
        assertEquals(Regions.normalize(region.lines()), Regions.normalize(lines.subList(i + 2, close)),
            page + ":" + (i + 2) + ": the block differs from docs/examples/consumer/pom.xml's region consumer-pom");
        shownBy.add(page);
      }
    }
    assertEquals(PAGES, shownBy, "the pages that show the dependency block");
  }

  @Test
  void theConsumerProjectUsesThisBuildsVersionsAndPlugins() throws Exception {
    Element parent = xml(root().resolve("pom.xml"));
    Element props = first(parent, "properties");
    Element consumer = xml(consumerPom());

    assertEquals(direct(props, "maven.compiler.release"), direct(first(consumer, "properties"), "maven.compiler.release"), "Java release");
    NodeList deps = consumer.getElementsByTagName("dependency");
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      String group = direct(d, "groupId");
      String artifact = direct(d, "artifactId");
      String version = direct(d, "version");
      seen.add(artifact);
      switch (group + ":" + artifact) {
        case "dev.troupe:troupe-bom" -> assertEquals(direct(parent, "version"), version, "the BOM at this build's version");
        case "org.junit.jupiter:junit-jupiter" -> assertEquals(direct(props, "junit.version"), version, "the build's JUnit");
        case "ch.qos.logback:logback-classic" -> assertEquals(direct(props, "logback.version"), version, "the build's logback");
        default -> {
          assertEquals("dev.troupe", group, artifact);
          assertEquals(null, version, artifact + ": versions of Troupe's artifacts come from the BOM");
          assertTrue(Files.isRegularFile(root().resolve(artifact.substring("troupe-".length())).resolve("pom.xml")),
              artifact + " is a module of this build");
        }
      }
    }
    assertEquals(List.of("troupe-bom", "troupe-actor-runtime", "troupe-testkit", "junit-jupiter", "logback-classic"), seen);

    Map<String, String> wanted = plugins(first(parent, "pluginManagement"));
    Map<String, String> given = plugins(first(consumer, "build"));
    assertEquals(List.of("maven-compiler-plugin", "maven-surefire-plugin"), given.keySet().stream().sorted().toList());
    for (Map.Entry<String, String> p : given.entrySet()) {
      assertNotNull(wanted.get(p.getKey()), p.getKey() + " in the root pom's pluginManagement");
      assertEquals(wanted.get(p.getKey()), p.getValue(), p.getKey() + ": the version Troupe's own build uses");
    }
  }
}
