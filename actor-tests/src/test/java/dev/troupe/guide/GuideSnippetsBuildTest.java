package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The guide's dependency blocks name artifacts this build makes, at its versions. */
class GuideSnippetsBuildTest {
  static Document xml(Path file) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(file.toFile());
  }

  private static String child(Element e, String name) {
    NodeList l = e.getElementsByTagName(name);
    return l.getLength() == 0 ? null : l.item(0).getTextContent().trim();
  }

  @Test
  void theDependencyBlocksNameThisBuildsArtifactsAndLogbackVersion() throws Exception {
    Path root = Regions.moduleDir().getParent();
    Element pom = xml(root.resolve("pom.xml")).getDocumentElement();
    String version = child(pom, "version");
    String logback = child((Element) pom.getElementsByTagName("properties").item(0), "logback.version");

    Document deps = xml(Regions.moduleDir().resolve("src/test/resources/guide/dependencies.xml"));
    NodeList list = deps.getElementsByTagName("dependency");
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < list.getLength(); i++) {
      Element d = (Element) list.item(i);
      String group = child(d, "groupId");
      String artifact = child(d, "artifactId");
      seen.add(artifact);
      if (group.equals("dev.troupe")) {
        assertEquals(version, child(d, "version"), artifact);
        String module = artifact.substring("troupe-".length());
        assertTrue(Files.isRegularFile(root.resolve(module).resolve("pom.xml")), artifact + " is a module of this build");
      } else {
        assertEquals("ch.qos.logback:logback-classic", group + ":" + artifact);
        assertEquals(logback, child(d, "version"), "the build's logback version");
      }
    }
    assertEquals(List.of("troupe-actor-runtime", "logback-classic", "troupe-testkit", "troupe-remoting"), seen);
  }
}
