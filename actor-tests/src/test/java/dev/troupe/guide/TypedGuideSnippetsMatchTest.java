package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.guide.Regions.Region;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The typed guide ({@code docs/typed.md}) and the page "from classic to typed" ({@code
 * docs/classic-to-typed.md}) cannot rot either: every fenced block of both is a region of the
 * typed snippet sources ({@code dev.troupe.guide.typed} and {@code src/test/resources/guide/typed}),
 * checked as {@link GuideSnippetsMatchTest} checks the guide, and every region is shown by one of
 * the two pages. The Java 21 snippet is compiled by a JDK 21+ {@code javac} when one is found.
 */
class TypedGuideSnippetsMatchTest {
  private static final Pattern SNIPPET = Pattern.compile("^<!-- snippet: ([A-Za-z0-9_-]+) -->$");
  private static final List<String> PAGES = List.of("docs/typed.md", "docs/classic-to-typed.md");

  static Map<String, Region> regions() {
    Path m = Regions.moduleDir();
    return Regions.all(List.of(m.resolve("src/test/java/dev/troupe/guide/typed"), m.resolve("src/test/resources/guide/typed")));
  }

  @Test
  void everyBlockOfTheTypedPagesIsItsCompiledRegionAndEveryRegionIsShown() throws IOException {
    Map<String, Region> regions = regions();
    assertTrue(regions.size() >= 10, "found the typed snippet sources: " + regions.keySet());
    List<String> problems = new ArrayList<>();
    Set<String> shown = new HashSet<>();
    for (String page : PAGES) {
      Path file = Regions.moduleDir().getParent().resolve(page);
      if (Boolean.getBoolean("guide.update")) {
        Files.write(file, GuideSnippetsMatchTest.refreshed(Files.readAllLines(file, StandardCharsets.UTF_8), regions), StandardCharsets.UTF_8);
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (String l : lines) {
        Matcher mm = SNIPPET.matcher(l);
        if (mm.matches()) {
          shown.add(mm.group(1));
        }
      }
      problems.addAll(GuideSnippetsMatchTest.problems(page, lines, regions));
    }
    // a region shown by the other page is fine
    problems.removeIf(p -> p.startsWith("region '") && shown.contains(p.substring(8, p.indexOf('\'', 8))));
    assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
  }

  /** Every key of the typed module's reliable delivery is in the guide's table, with its default. */
  @Test
  void everyReliableDeliveryKeyIsInTheGuideWithItsDefault() throws IOException {
    String text = Files.readString(Regions.moduleDir().getParent().resolve("docs/typed.md"), StandardCharsets.UTF_8);
    Config delivery = ConfigFactory.parseResources("reference.conf")
        .resolve().getConfig("troupe.reliable-delivery");
    List<String> missing = ClusterDocSnippetsMatchTest.missingKeyRows(text, delivery);
    assertTrue(delivery.entrySet().size() >= 5, "read the keys from reference.conf: " + delivery.entrySet().size());
    assertTrue(missing.isEmpty(), "docs/typed.md lacks the rows (key, default):\n" + String.join("\n", missing));
  }

  /** The README's typed quick start: its named blocks are the guide's regions too. */
  @Test
  void theReadmesTypedQuickStartIsTheCompiledRegion() throws IOException {
    Map<String, Region> regions = regions();
    List<String> readme = Files.readAllLines(Regions.moduleDir().getParent().resolve("README.md"), StandardCharsets.UTF_8);
    List<String> checked = new ArrayList<>();
    for (int i = 0; i < readme.size(); i++) {
      Matcher m = SNIPPET.matcher(readme.get(i));
      if (m.matches() && m.group(1).startsWith("typed-")) {
        Region r = regions.get(m.group(1));
        assertTrue(r != null, "README.md:" + (i + 1) + " names no typed region: " + m.group(1));
        int close = i + 2;
        while (close < readme.size() && !readme.get(close).equals("```")) {
          close++;
        }
        assertEquals(Regions.normalize(r.lines()), Regions.normalize(readme.subList(i + 2, close)),
            "README.md:" + (i + 2) + ", block '" + r.name() + "' differs from its region (" + r.file() + ":" + r.line() + ")");
        checked.add(r.name());
      }
    }
    assertEquals(List.of("typed-quickstart", "typed-quickstart-main"), checked, "the README's typed blocks");
  }

  /** The Java 21 snippet (a switch with record patterns) compiles against the typed module. */
  @Test
  void theJava21SnippetCompilesWithAJdk21Compiler() throws Exception {
    Optional<Path> javac = jdk21Javac();
    Assumptions.assumeTrue(javac.isPresent(), "no JDK 21+ javac found (JAVA_HOME, java.home, /usr/lib/jvm)");
    Path source = Regions.moduleDir().resolve("src/test/resources/guide/typed/Java21Counter.java");
    Path out = Files.createTempDirectory("java21-snippet");
    String classPath = String.join(File.pathSeparator,
        location(dev.troupe.actor.typed.Behavior.class), location(dev.troupe.actor.ActorSystem.class),
        location(com.typesafe.config.Config.class), location(org.slf4j.Logger.class));
    Process p = new ProcessBuilder(javac.get().toString(), "--release", "21", "-Xlint:all", "-Werror",
            "-d", out.toString(), "-cp", classPath, source.toString())
        .redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "javac did not finish in 60 s");
    assertEquals(0, p.exitValue(), javac.get() + " failed on " + source + ":\n" + output);
  }

  private static String location(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  private static Optional<Path> jdk21Javac() throws IOException {
    List<Path> homes = new ArrayList<>();
    homes.add(Path.of(System.getProperty("java.home")));
    Optional.ofNullable(System.getenv("JAVA_HOME")).map(Path::of).ifPresent(homes::add);
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (Stream<Path> s = Files.list(jvms)) {
        s.sorted().forEach(homes::add);
      }
    }
    for (Path home : homes) {
      Path javac = home.resolve("bin/javac");
      if (Files.isExecutable(javac) && feature(home) >= 21) {
        return Optional.of(javac);
      }
    }
    return Optional.empty();
  }

  /** The feature version in a JDK's {@code release} file ({@code JAVA_VERSION="21.0.2"}), 0 if unknown. */
  private static int feature(Path home) throws IOException {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return 0;
    }
    for (String l : Files.readAllLines(release, StandardCharsets.UTF_8)) {
      Matcher m = Pattern.compile("^JAVA_VERSION=\"(\\d+)").matcher(l);
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
    }
    return 0;
  }
}
