package dev.troupe.runtime.spi;

/**
 * The wildcards of one path element, the single matcher behind every place that names actors by a
 * pattern: actor selections ({@code /user/worker-?}), deployment sections ({@code /pool-*}) and
 * remoting's {@code large-message-destinations} ({@code /user/big/*}).
 *
 * <p>A pattern is matched against one element, never a whole path: the caller splits both at
 * {@code /} and pairs the elements, so a {@code *} here never reaches past its element's bounds.
 * There is no escape character: a {@code \} is an ordinary character, and a {@code *} (or, where it
 * is a wildcard, a {@code ?}) always stands for the wildcard. Matching allocates nothing and costs
 * at most the product of the two lengths (a single backtracking point, the last {@code *}).
 */
public final class PathGlob {
  private PathGlob() {}

  /**
   * @param element a path element or pattern
   * @return whether it holds a {@code *} or a {@code ?}, the wildcards of {@link #matches}
   */
  public static boolean hasWildcard(String element) {
    return element.indexOf('*') >= 0 || element.indexOf('?') >= 0;
  }

  /**
   * The glob of actor selections: {@code *} matches any run of characters (none included), {@code
   * ?} any one character, every other character itself.
   *
   * @param pattern the pattern element
   * @param element the element it is matched against
   * @return whether the whole element matches the whole pattern
   */
  public static boolean matches(String pattern, String element) {
    return match(pattern, element, true);
  }

  /**
   * The glob of configured paths (deployment sections, large-message destinations): {@code *}
   * matches any run of characters (none included), every other character itself, {@code ?}
   * included.
   *
   * @param pattern the pattern element
   * @param element the element it is matched against
   * @return whether the whole element matches the whole pattern
   */
  public static boolean matchesStarOnly(String pattern, String element) {
    return match(pattern, element, false);
  }

  private static boolean match(String pattern, String s, boolean questionIsWildcard) {
    int p = 0;
    int i = 0;
    int star = -1; // where the last '*' seen stands in the pattern
    int mark = 0; // where in s that '*' stopped matching, advanced by one on each backtrack
    while (i < s.length()) {
      char c = p < pattern.length() ? pattern.charAt(p) : 0;
      if (p < pattern.length() && c != '*' && (c == s.charAt(i) || (questionIsWildcard && c == '?'))) {
        p++;
        i++;
      } else if (p < pattern.length() && c == '*') {
        star = p++;
        mark = i;
      } else if (star >= 0) {
        p = star + 1;
        i = ++mark;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }
}
