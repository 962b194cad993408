package dev.troupe.guide;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The guide's compiled snippets: named regions of the files in this package's test sources and in
 * {@code src/test/resources/guide}, each between a line with {@code tag::<name>[]} and a line with
 * {@code end::<name>[]} (in a comment: {@code //}, {@code #} or {@code <!-- -->}). Regions may
 * nest; marker lines belong to no region. {@code docs/guide.md} shows each region in a fenced
 * block right after a line {@code <!-- snippet: <name> -->}; {@link GuideSnippetsMatchTest} checks
 * that every block equals its region.
 */
final class Regions {
  /** A marker line: tag or end, and the region's name. */
  static final Pattern MARKER = Pattern.compile("(?://|#|<!--)\\s*(tag|end)::([A-Za-z0-9_-]+)\\[\\]");

  /** Files that hold no regions though they talk about them. */
  private static final List<String> NOT_SNIPPETS = List.of("Regions.java", "GuideSnippetsMatchTest.java");

  /**
   * One region.
   *
   * @param name its name
   * @param file the file it is in, as shown in messages
   * @param line the 1-based line of its tag marker
   * @param lines its lines, as in the file
   */
  record Region(String name, String file, int line, List<String> lines) {
    /** @return the region's text without its common indentation */
    String text() {
      return String.join("\n", normalize(lines));
    }
  }

  private Regions() {}

  /** @return the actor-tests module's directory (the tests' working directory under Maven) */
  static Path moduleDir() {
    Path here = Path.of("").toAbsolutePath();
    return Files.isDirectory(here.resolve("src/test/java/dev/troupe/guide")) ? here : here.resolve("actor-tests");
  }

  /** @return the guide */
  static Path guide() {
    return moduleDir().getParent().resolve("docs/guide.md");
  }

  /** @return every region of the snippet files, by name */
  static Map<String, Region> all() {
    return all(List.of(moduleDir().resolve("src/test/java/dev/troupe/guide"), moduleDir().resolve("src/test/resources/guide")));
  }

  /**
   * The regions of the files directly in some directories (the typed guide has its own).
   *
   * @param dirs the directories
   * @return every region, by name
   */
  static Map<String, Region> all(List<Path> dirs) {
    Map<String, Region> out = new LinkedHashMap<>();
    for (Path dir : dirs) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.sorted().toList()) {
          if (Files.isRegularFile(f) && !NOT_SNIPPETS.contains(f.getFileName().toString())) {
            for (Region r : parse(moduleDir().relativize(f).toString(), Files.readAllLines(f, StandardCharsets.UTF_8))) {
              Region before = out.putIfAbsent(r.name(), r);
              if (before != null) {
                throw new IllegalStateException("region '" + r.name() + "' twice: " + before.file() + ":" + before.line()
                    + " and " + r.file() + ":" + r.line());
              }
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /**
   * The text of one region, e.g. a configuration block that a test runs with.
   *
   * @param name the region
   * @return its text without common indentation
   */
  static String text(String name) {
    Region r = all().get(name);
    if (r == null) {
      throw new IllegalArgumentException("no region '" + name + "'");
    }
    return r.text();
  }

  /** The regions of one file; an unclosed, unopened or mismatched marker is an error. */
  static List<Region> parse(String file, List<String> lines) {
    Map<String, Integer> open = new LinkedHashMap<>();
    Map<String, List<String>> body = new LinkedHashMap<>();
    List<Region> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      Matcher m = MARKER.matcher(l);
      if (m.find()) {
        String name = m.group(2);
        if (m.group(1).equals("tag")) {
          if (open.putIfAbsent(name, i + 1) != null) {
            throw new IllegalStateException(file + ":" + (i + 1) + ": region '" + name + "' opened twice");
          }
          body.put(name, new ArrayList<>());
        } else {
          Integer start = open.remove(name);
          if (start == null) {
            throw new IllegalStateException(file + ":" + (i + 1) + ": end of region '" + name + "' that is not open");
          }
          out.add(new Region(name, file, start, List.copyOf(body.remove(name))));
        }
        continue;
      }
      for (List<String> b : body.values()) {
        b.add(l);
      }
    }
    if (!open.isEmpty()) {
      throw new IllegalStateException(file + ": regions never closed: " + open);
    }
    return out;
  }

  /** Without trailing spaces, leading and trailing blank lines, and the indentation all lines share. */
  static List<String> normalize(List<String> lines) {
    List<String> l = new ArrayList<>();
    for (String s : lines) {
      l.add(s.stripTrailing());
    }
    while (!l.isEmpty() && l.get(0).isEmpty()) {
      l.remove(0);
    }
    while (!l.isEmpty() && l.get(l.size() - 1).isEmpty()) {
      l.remove(l.size() - 1);
    }
    int indent = Integer.MAX_VALUE;
    for (String s : l) {
      if (!s.isEmpty()) {
        indent = Math.min(indent, s.length() - s.stripLeading().length());
      }
    }
    List<String> out = new ArrayList<>();
    for (String s : l) {
      out.add(s.isEmpty() ? s : s.substring(indent));
    }
    return out;
  }
}
