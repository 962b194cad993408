package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * What a selection may cost: a chain of {@code *} and {@code ..} reaches each actor once and in
 * work linear in its length (a walk path by path would be exponential), and a selection beyond
 * {@code troupe.actor.selection}'s bounds delivers nothing, goes to dead letters and says why.
 */
class ActorSelectionBoundsTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Creates an {@link ActorSelectionTest.Echo} child per name before its first message; answers "ready". */
  static final class Tree extends UntypedActor {
    private final List<String> names;

    Tree(List<String> names) {
      this.names = names;
    }

    @Override
    public void preStart() {
      for (String n : names) {
        getContext().actorOf(Props.create(ActorSelectionTest.Echo.class), n);
      }
    }

    @Override
    public void onReceive(Object message) {
      getSender().tell("ready", getSelf());
    }
  }

  /** {@code /user/tree} with children of these names, all started. */
  private static void tree(ActorSystem sys, TestKit kit, List<String> names) {
    ActorRef t = sys.actorOf(Props.create(Tree.class, () -> new Tree(names)), "tree");
    assertEquals("ready", kit.awaitResult(Patterns.ask(t, "ready", RuntimeFixtures.TIMEOUT)));
  }

  /** {@code /user/tree}, then {@code pairs} times {@code /*}{@code /..}, then {@code /last}. */
  private static String starDotDot(int pairs, String last) {
    return "/user/tree" + "/*/..".repeat(pairs) + "/" + last;
  }

  private static Set<Object> receive(TestProbe p, int n) {
    Set<Object> out = new HashSet<>(p.receiveN(n));
    p.expectNoMessage(Duration.ofMillis(200));
    return out;
  }

  @Test
  void aStarFollowedByDotDotReachesTheParentOnceNotOncePerChild(ActorSystem sys, TestKit kit) {
    tree(sys, kit, List.of("a", "b", "c"));
    TestProbe p = new TestProbe(sys);
    // path by path this selection reaches /user/tree/b 3^8 times
    sys.actorSelection(starDotDot(8, "b")).tell("once", p.getRef());
    assertEquals(Set.of("b:once"), receive(p, 1));
    sys.actorSelection(starDotDot(8, "*")).tell("each", p.getRef());
    assertEquals(Set.of("a:each", "b:each", "c:each"), receive(p, 3));
  }

  @Test
  void aDeepChainOfStarAndDotDotStaysWithinAFewVisitsPerElement() throws Exception {
    // 40 pairs over 3 children: about 7 visits a pair, far below the bound; 3^40 paths otherwise
    ActorSystem sys = troupe.createSystem(RuntimeFixtures.CONFIG + "\ntroupe.actor.selection.max-visited = 1000");
    TestKit k = new TestKit(sys);
    tree(sys, k, List.of("a", "b", "c"));
    TestProbe p = new TestProbe(sys);
    ActorSelection deep = sys.actorSelection(starDotDot(40, "b"));
    CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> deep.tell("deep", p.getRef()));
    try {
      sent.get(10, TimeUnit.SECONDS); // generous: the walk takes microseconds
    } catch (TimeoutException e) {
      fail("telling a selection of 40 pairs of /*/.. over 3 children did not return within 10 s");
    }
    assertEquals(Set.of("b:deep"), receive(p, 1));
  }

  @Test
  void aSelectionBeyondMaxVisitedDeliversNothingAndSaysWhy() {
    ActorSystem sys = troupe.createSystem(RuntimeFixtures.CONFIG + "\ntroupe.actor.selection.max-visited = 10");
    TestKit k = new TestKit(sys);
    tree(sys, k, List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12"));
    TestProbe p = new TestProbe(sys);
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    RuntimeFixtures.LogCapture log = new RuntimeFixtures.LogCapture(LoggerFactory.getLogger("dev.troupe.actor." + sys.name()));
    try {
      sys.actorSelection("/user/tree/k1?").tell("wide", p.getRef()); // 3 of 12 match, but all 12 are compared

      assertEquals("wide", dead.expectMsgClass(DeadLetter.class).message());
      p.expectNoMessage(Duration.ofMillis(200));
      String warning = warning(log, "/user/tree/k1?");
      assertTrue(warning.contains("troupe.actor.selection.max-visited"), warning);
      // an Identify beyond the bound is answered as for a missing actor, without waiting for the timeout
      Throwable t = k.awaitFailure(sys.actorSelection("/user/tree/*").resolveOne(Duration.ofSeconds(30)));
      assertInstanceOf(ActorNotFound.class, t);
    } finally {
      log.detach();
    }
    // within the bound, the same pattern is delivered as ever
    sys.actorSelection("/user/tree/k1").tell("narrow", p.getRef());
    p.expectMsg("k1:narrow");
  }

  @Test
  void aSelectionWithMoreThanMaxElementsDeliversNothingAndSaysWhy() {
    ActorSystem sys = troupe.createSystem(RuntimeFixtures.CONFIG + "\ntroupe.actor.selection.max-elements = 4");
    TestKit k = new TestKit(sys);
    tree(sys, k, List.of("a"));
    TestProbe p = new TestProbe(sys);
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    RuntimeFixtures.LogCapture log = new RuntimeFixtures.LogCapture(LoggerFactory.getLogger("dev.troupe.actor." + sys.name()));
    try {
      sys.actorSelection("/user/tree/a/../a").tell("long", p.getRef()); // 5 elements, no wildcard

      assertEquals("long", dead.expectMsgClass(DeadLetter.class).message());
      p.expectNoMessage(Duration.ofMillis(200));
      String warning = warning(log, "/user/tree/a/../a");
      assertTrue(warning.contains("troupe.actor.selection.max-elements"), warning);
    } finally {
      log.detach();
    }
    sys.actorSelection("/user/tree/a").tell("short", p.getRef());
    p.expectMsg("a:short");
  }

  @Test
  void aBoundThatIsNotAPositiveCountFailsTheStartNamingTheKey() {
    for (String bad : List.of("troupe.actor.selection.max-visited = 0", "troupe.actor.selection.max-elements = many")) {
      ConfigurationException e = assertThrows(ConfigurationException.class, () -> troupe.createSystem(bad), bad);
      String key = bad.substring(0, bad.indexOf(' '));
      assertTrue(e.getMessage().contains(key), "names " + key + ": " + e.getMessage());
    }
  }

  /** The one WARN line about a refused selection of {@code path}. */
  private static String warning(RuntimeFixtures.LogCapture log, String path) {
    List<String> lines =
        log.snapshot().stream()
            .filter(e -> e.getLevel() == Level.WARN)
            .map(ILoggingEvent::getFormattedMessage)
            .filter(m -> m.contains("refused the selection " + path + " "))
            .toList();
    assertEquals(1, lines.size(), () -> "one warning about " + path + ": " + log.snapshot());
    return lines.get(0);
  }
}
