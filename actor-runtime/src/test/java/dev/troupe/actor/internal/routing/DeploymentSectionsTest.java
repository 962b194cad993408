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
    assertEquals("/workers", DeploymentSections.sectionFor(SECTIONS, "/workers"));
  }

  @Test
  void aStarMatchesAnyOneElement() {
    assertEquals("/workers/*", DeploymentSections.sectionFor(SECTIONS, "/workers/$a"));
    assertEquals("/*/w1", DeploymentSections.sectionFor(SECTIONS, "/other/w1"));
  }

  @Test
  void aLiteralElementFurtherLeftIsMoreSpecific() {
    assertEquals("/workers/*", DeploymentSections.sectionFor(SECTIONS, "/workers/w1"), "beats /*/w1");
    assertEquals("/a/b/*", DeploymentSections.sectionFor(SECTIONS, "/a/b/c"), "beats /a/*/c");
  }

  @Test
  void aStarInsideAnElementMatchesAnyRunOfCharacters() {
    assertEquals("/pool-*", DeploymentSections.sectionFor(SECTIONS, "/pool-7"));
    assertEquals("/pool-*", DeploymentSections.sectionFor(SECTIONS, "/pool-"));
    assertNull(DeploymentSections.sectionFor(SECTIONS, "/pol-7"));
    assertEquals("/x*y*z", DeploymentSections.sectionFor(List.of("/x*y*z"), "/xaybz"));
    assertNull(DeploymentSections.sectionFor(List.of("/x*x"), "/x"), "the parts may not overlap");
  }

  @Test
  void theNumberOfElementsMustMatch() {
    assertNull(DeploymentSections.sectionFor(SECTIONS, "/workers/a/b"));
    assertNull(DeploymentSections.sectionFor(SECTIONS, "/nothing"));
  }
}
