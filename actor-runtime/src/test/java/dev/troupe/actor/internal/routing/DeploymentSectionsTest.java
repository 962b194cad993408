package dev.troupe.actor.internal.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which deployment section applies to a path: the exact one, else the most specific wildcard. */
class DeploymentSectionsTest {
  private static final List<String> SECTIONS =
      List.of("/workers", "/workers/*", "/*/w1", "/pool-*", "/a/*/c", "/a/b/*", "default");

  @Test
  void theSectionOfTheExactPathWins() {
    assertEquals("/workers", Deployments.sectionFor(SECTIONS, "/workers"));
  }

  @Test
  void aStarMatchesAnyOneElement() {
    assertEquals("/workers/*", Deployments.sectionFor(SECTIONS, "/workers/$a"));
    assertEquals("/*/w1", Deployments.sectionFor(SECTIONS, "/other/w1"));
  }

  @Test
  void aLiteralElementFurtherLeftIsMoreSpecific() {
    assertEquals("/workers/*", Deployments.sectionFor(SECTIONS, "/workers/w1"), "beats /*/w1");
    assertEquals("/a/b/*", Deployments.sectionFor(SECTIONS, "/a/b/c"), "beats /a/*/c");
  }

  @Test
  void aStarInsideAnElementMatchesAnyRunOfCharacters() {
    assertEquals("/pool-*", Deployments.sectionFor(SECTIONS, "/pool-7"));
    assertEquals("/pool-*", Deployments.sectionFor(SECTIONS, "/pool-"));
    assertNull(Deployments.sectionFor(SECTIONS, "/pol-7"));
    assertEquals("/x*y*z", Deployments.sectionFor(List.of("/x*y*z"), "/xaybz"));
    assertNull(Deployments.sectionFor(List.of("/x*x"), "/x"), "the parts may not overlap");
  }

  @Test
  void theNumberOfElementsMustMatch() {
    assertNull(Deployments.sectionFor(SECTIONS, "/workers/a/b"));
    assertNull(Deployments.sectionFor(SECTIONS, "/nothing"));
  }
}
