package dev.troupe.remote.internal.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which recipient paths {@code large-message-destinations} picks: element by element, {@code *} within one element. */
class DestinationPatternsTest {
  private static List<String> path(String p) {
    return List.of(p.substring(1).split("/"));
  }

  @Test
  void aStarStandsForOneWholeElementAndNoMore() {
    DestinationPatterns p = DestinationPatterns.parse(List.of("/user/big/*"));
    assertTrue(p.matches(path("/user/big/a")));
    assertFalse(p.matches(path("/user/big")), "the parent itself");
    assertFalse(p.matches(path("/user/big/a/b")), "a grandchild");
    assertFalse(p.matches(path("/user/bigger/a")));
  }

  @Test
  void aStarInsideAnElementMatchesAnyRunOfCharactersThere() {
    DestinationPatterns p = DestinationPatterns.parse(List.of("/user/bulk-*-in", "/system/x"));
    assertTrue(p.matches(path("/user/bulk-1-in")));
    assertTrue(p.matches(path("/user/bulk--in")));
    assertFalse(p.matches(path("/user/bulk-1-out")));
    assertTrue(p.matches(path("/system/x")));
    assertFalse(p.matches(path("/system/y")));
  }

  @Test
  void noPatternMatchesNothing() {
    DestinationPatterns p = DestinationPatterns.parse(List.of());
    assertTrue(p.isEmpty());
    assertFalse(p.matches(path("/user/a")));
  }

  @Test
  void aPatternThatIsNotAnAbsolutePathIsRefusedWithItsText() {
    for (String bad : List.of("user/a", "/", "/user/", "/user//a", "/user/a#1", "troupe://s@h:1/user/a")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DestinationPatterns.parse(List.of(bad)));
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void aQuestionMarkIsItselfAndAnEscapeIsPlainText() {
    DestinationPatterns p = DestinationPatterns.parse(List.of("/user/worker-?", "/user/a%2A*"));
    assertFalse(p.matches(path("/user/worker-1")), "'?' is no wildcard here");
    assertTrue(p.matches(path("/user/a%2A")));
    assertTrue(p.matches(path("/user/a%2Ab")));
    assertFalse(p.matches(path("/user/a*")), "%2A is not decoded");
  }

  @Test
  void aStarInTheMiddleOfThePathStaysInItsElement() {
    DestinationPatterns p = DestinationPatterns.parse(List.of("/user/*/big"));
    assertTrue(p.matches(path("/user/a/big")));
    assertTrue(p.matches(path("/user/*x/big")), "a '*' in a name is matched like any character");
    assertFalse(p.matches(path("/user/a/b/big")), "'*' spans one element, not two");
    assertFalse(p.matches(path("/user/big")));
  }
}
