package dev.troupe.remote.internal.config;

import dev.troupe.runtime.spi.PathGlob;
import java.util.ArrayList;
import java.util.List;

/**
 * The recipient paths of {@code troupe.remote.large-message-destinations}: absolute paths without
 * an address ({@code /user/big/*}), matched element by element against a recipient's path, where
 * {@code *} stands for any run of characters within one element ({@code /user/worker-*} matches
 * {@code /user/worker-1}, not {@code /user/worker-1/child}). A ref is matched once, when it is made,
 * never per message.
 */
public final class DestinationPatterns {
  private static final DestinationPatterns NONE = new DestinationPatterns(List.of(), List.of());

  private final List<String> text;
  private final List<String[]> patterns;

  private DestinationPatterns(List<String> text, List<String[]> patterns) {
    this.text = text;
    this.patterns = patterns;
  }

  /**
   * @param paths patterns such as {@code /user/big/*}
   * @throws IllegalArgumentException naming the first pattern that is not an absolute path
   */
  public static DestinationPatterns parse(List<String> paths) {
    if (paths.isEmpty()) {
      return NONE;
    }
    List<String[]> patterns = new ArrayList<>(paths.size());
    for (String p : paths) {
      if (!p.startsWith("/") || p.length() < 2 || p.endsWith("/") || p.contains("//") || p.contains("#") || p.contains("://")) {
        throw new IllegalArgumentException("expected paths such as \"/user/big/*\", was '" + p + "'");
      }
      patterns.add(p.substring(1).split("/"));
    }
    return new DestinationPatterns(List.copyOf(paths), List.copyOf(patterns));
  }

  /** @return whether there is no pattern */
  public boolean isEmpty() {
    return patterns.isEmpty();
  }

  /** @param elements a path's elements below its root ({@code ActorPath.elements()}) */
  public boolean matches(List<String> elements) {
    for (String[] p : patterns) {
      if (p.length == elements.size() && matches(p, elements)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(String[] pattern, List<String> elements) {
    for (int i = 0; i < pattern.length; i++) {
      if (!PathGlob.matchesStarOnly(pattern[i], elements.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
