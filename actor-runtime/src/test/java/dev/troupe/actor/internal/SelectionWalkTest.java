package dev.troupe.actor.internal;

import dev.troupe.actor.internal.config.SelectionSettings;
import dev.troupe.runtime.spi.InternalActorRef;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The walk of a selection with wildcards, counted in visits: a chain of {@code *} and {@code ..}
 * costs a few visits per element, however long, and a walk beyond its bound matches nothing and
 * names the key that bounds it.
 */
class SelectionWalkTest {
  private static final SelectionSettings UNBOUNDED = new SelectionSettings(Integer.MAX_VALUE, Integer.MAX_VALUE);
  private final ActorSystemImpl system = (ActorSystemImpl) ActorSystem.create("selection-walk");

  @AfterEach
  void terminate() throws Exception {
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  /** {@code user}, then {@code pairs} times {@code * ..}, then {@code last}. */
  private static String[] starDotDot(int pairs, String last) {
    List<String> e = new ArrayList<>();
    e.add("user");
    for (int i = 0; i < pairs; i++) {
      e.add("*");
      e.add("..");
    }
    e.add(last);
    return e.toArray(new String[0]);
  }

  private InternalActorRef root() {
    return system.provider().local().rootGuardian();
  }

  @Test
  void fortyPairsOfStarAndDotDotOverAFewChildrenCostAFewVisitsPerElement() {
    ActorRef a = system.actorOf(Props.create(Idle.class), "a");
    system.actorOf(Props.create(Idle.class), "b");
    system.actorOf(Props.create(Idle.class), "c");
    String[] elements = starDotDot(40, "a");
    SelectionWalk walk = new SelectionWalk(UNBOUNDED);

    Collection<InternalActorRef> found = walk.resolve(root(), elements);

    assertEquals(List.of(a), List.copyOf(found), "the one actor the selection names, once");
    // per * : the parent and its 3 children; per .. : the 3 children; path by path it would be 3^40
    assertEquals(1 + 40 * (4 + 3) + 1, walk.visited(), "visits of the walk");
    assertTrue(walk.visited() <= elements.length * 4, "at most (actors + children) per element: " + walk.visited());
  }

  @Test
  void aStarAfterTheChainMatchesEveryChildOnce() {
    List<ActorRef> kids = new ArrayList<>();
    for (String n : new String[] {"a", "b", "c"}) {
      kids.add(system.actorOf(Props.create(Idle.class), n));
    }
    Collection<InternalActorRef> found = new SelectionWalk(UNBOUNDED).resolve(root(), starDotDot(40, "*"));
    assertEquals(kids, List.copyOf(found));
  }

  @Test
  void aWalkBeyondMaxVisitedMatchesNothingAndNamesTheKey() {
    system.actorOf(Props.create(Idle.class), "a");
    SelectionWalk walk = new SelectionWalk(new SelectionSettings(1000, 50));

    assertNull(walk.resolve(root(), starDotDot(40, "a")));

    assertEquals(51, walk.visited(), "the walk stops at the first visit beyond the bound");
    assertNotNull(walk.refusal());
    assertTrue(walk.refusal().contains("troupe.actor.selection.max-visited"), walk.refusal());
    assertTrue(walk.refusal().contains("50"), walk.refusal());
  }

  @Test
  void aSelectionWithMoreThanMaxElementsIsRefusedBeforeAnyVisit() {
    SelectionWalk walk = new SelectionWalk(new SelectionSettings(10, 1000));

    assertNull(walk.resolve(root(), starDotDot(5, "*"))); // 12 elements

    assertEquals(0, walk.visited());
    assertTrue(walk.refusal().contains("troupe.actor.selection.max-elements"), walk.refusal());
    assertTrue(walk.refusal().contains("12"), walk.refusal());
  }

  @Test
  void dotDotAboveTheRootMatchesNothing() {
    SelectionWalk walk = new SelectionWalk(UNBOUNDED);
    assertEquals(List.of(), List.copyOf(walk.resolve(root(), new String[] {"..", "*"})));
    assertNull(walk.refusal());
  }

  @Test
  void patternsMatchWithinOneElementWithStarAndQuestionMark() {
    ActorRef w1 = system.actorOf(Props.create(Idle.class), "worker-1");
    ActorRef w2 = system.actorOf(Props.create(Idle.class), "worker-2");
    system.actorOf(Props.create(Idle.class), "worker-12");
    ActorRef escaped = system.actorOf(Props.create(Idle.class), "a%2Ab");
    SelectionWalk walk = new SelectionWalk(UNBOUNDED);

    assertEquals(Set.of(w1, w2), Set.copyOf(walk.resolve(root(), new String[] {"user", "worker-?"})), "one character, in any order");
    assertEquals(3, walk.resolve(root(), new String[] {"user", "worker-*"}).size());
    assertEquals(List.of(), List.copyOf(walk.resolve(root(), new String[] {"user", "worker-1*", "*"})), "no grandchild");
    assertEquals(List.of(escaped), List.copyOf(walk.resolve(root(), new String[] {"user", "a%*b"})), "%XX is plain text");
    assertEquals(List.of(), List.copyOf(walk.resolve(root(), new String[] {"user", "a?b"})), "%2A is three characters");
  }

  @Test
  void aStarInTheNameIsMatchedByAStarOfThePatternLikeAnyOtherCharacter() {
    ActorRef named = system.actorOf(Props.create(Idle.class), "*ba");
    system.actorOf(Props.create(Idle.class), "*bc");

    Collection<InternalActorRef> found = new SelectionWalk(UNBOUNDED).resolve(root(), new String[] {"user", "*a"});

    assertEquals(List.of(named), List.copyOf(found), "'*a' matches any name that ends in 'a', a leading '*' included");
  }
}
