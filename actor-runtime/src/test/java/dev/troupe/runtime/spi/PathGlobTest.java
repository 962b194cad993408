package dev.troupe.runtime.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The one matcher behind selections ({@link PathGlob#matches}, {@code *} and {@code ?}) and
 * configured paths ({@link PathGlob#matchesStarOnly}, {@code *} alone): a whole element against a
 * whole pattern, no escape character, {@code *} over any run within the element it is given.
 */
class PathGlobTest {

  @ParameterizedTest(name = "''{0}'' ~ ''{1}'': selection {2}, configured {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        // literals: the whole element, no more, no less
        "worker      | worker     | true  | true",
        "worker      | worker-1   | false | false",
        "worker-1    | worker     | false | false",
        // '*': any run of characters, none included, anywhere in the pattern
        "*           | a          | true  | true",
        "*           | ''         | true  | true",
        "worker-*    | worker-    | true  | true",
        "worker-*    | worker-17  | true  | true",
        "worker-*    | worker     | false | false",
        "*-in        | bulk-1-in  | true  | true",
        "bulk-*-in   | bulk--in   | true  | true",
        "bulk-*-in   | bulk-1-out | false | false",
        "a*b*c       | axxbyyc    | true  | true",
        "a*b*c       | axxcyyb    | false | false",
        "**          | abc        | true  | true",
        "a*a         | a          | false | false",
        "*ab         | aab        | true  | true",
        // '*' in an actor's name (a valid name character) matched by a '*' of the pattern
        "*a          | *ba        | true  | true",
        "*           | *          | true  | true",
        // '?': one character in a selection, itself in a configured path
        "worker-?    | worker-1   | true  | false",
        "worker-?    | worker-12  | false | false",
        "worker-?    | worker-    | false | false",
        "worker-?    | worker-?   | true  | true",
        "?*          | ''         | false | false",
        "?*          | x          | true  | false",
        // no escape character: '\\' is itself, the wildcard after it still a wildcard
        "a\\*        | a\\x       | true  | true",
        "a\\*        | a*         | false | false",
        "a\\?        | a\\x       | true  | false",
        // %XX escapes of a name are plain characters, never decoded
        "a%2A        | a%2A       | true  | true",
        "a%2A        | a*         | false | false",
        "a%*         | a%2A       | true  | true",
        // the matcher knows no elements: the caller splits paths at '/', so it never sees one
        "*           | a/b        | true  | true",
      })
  void matchesAWholeElement(String pattern, String element, boolean selection, boolean configured) {
    assertEquals(selection, PathGlob.matches(pattern, element), "selection glob");
    assertEquals(configured, PathGlob.matchesStarOnly(pattern, element), "configured-path glob");
  }

  @Test
  void aStarOrAQuestionMarkMakesAnElementAPattern() {
    assertTrue(PathGlob.hasWildcard("worker-*"));
    assertTrue(PathGlob.hasWildcard("worker-?"));
    assertTrue(PathGlob.hasWildcard("*"));
    assertFalse(PathGlob.hasWildcard("worker-1"));
    assertFalse(PathGlob.hasWildcard(".."));
    assertFalse(PathGlob.hasWildcard("a%2A"));
  }

  @Test
  void aLongRunOfStarsOverALongElementEndsQuickly() {
    String pattern = "*a".repeat(200) + "b";
    String element = "a".repeat(5_000);
    long start = System.nanoTime();
    assertFalse(PathGlob.matches(pattern, element));
    assertFalse(PathGlob.matchesStarOnly(pattern, element));
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(ms < 5_000, "one backtracking point bounds the cost by the product of the lengths: took " + ms + " ms");
  }
}
