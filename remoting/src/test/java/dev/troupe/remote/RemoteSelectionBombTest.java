package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * A selection sent from another node through the public API costs the node it names a bounded
 * walk, off its network thread: {@code /*}{@code /..} repeated 30 times (2^30 paths when walked
 * path by path on the event loop, minutes during which no peer got an answer) leaves another
 * peer's asks and lookups answered, reaches its one actor once, and a selection beyond the node's
 * {@code troupe.actor.selection} bound is refused there with the reason. The victim has one event
 * loop, so that a walk on it would stall every connection.
 */
class RemoteSelectionBombTest {
  static final int PAIRS = 30;
  static final int MAX_ELEMENTS = 100;
  /** Selections sent in a row to a {@link RemoteMessagingTest.Sequence}, which reports any gap. */
  static final int ORDERED = 1_000;

  @RegisterExtension static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE);

  static ActorSystem attacker;
  static ActorSystem victim;
  static ActorSystem peer;

  @BeforeAll
  static void nodes() {
    attacker = TROUPE.system();
    victim =
        TROUPE.createSystem(
            "troupe.remote.advanced.event-loop-threads = 1\n"
                + "troupe.remote.advanced.inbound-selection-queue-size = 8\n"
                + "troupe.actor.selection.max-elements = " + MAX_ELEMENTS + "\n");
    peer = TROUPE.createSystem("");
    victim.actorOf(Props.create(RemoteMessagingTest.Echo.class), "echo");
    victim.actorOf(Props.create(RemoteMessagingTest.Echo.class), "other");
    victim.actorOf(Props.create(RemoteMessagingTest.Sequence.class), "in-order");
  }

  /** The bomb: {@code /*}{@code /..} {@value #PAIRS} times, then {@code last}, on the victim. */
  private static String bomb(String last) {
    return victim.address() + "/*/..".repeat(PAIRS) + last;
  }

  @Test
  void aSelectionBombFromOnePeerLeavesAnotherPeersAsksAndLookupsAnswered() {
    ActorRef echoOfPeer = Nodes.lookup(peer, victim, "/user/echo"); // before the bomb: a connection and a ref
    ActorRef echoOfAttacker = Nodes.lookup(attacker, victim, "/user/echo");
    TestKit probe = new TestKit(attacker);

    attacker.actorSelection(bomb("/nope")).tell("bomb", ActorRef.noSender());
    attacker.actorSelection(bomb("/user/echo")).tell(new Identify("bomb"), probe.getRef());

    assertEquals("echo:legit", Patterns.ask(echoOfPeer, "legit", Nodes.WAIT).toCompletableFuture().join(), "an ask of another peer");
    ActorRef other = Nodes.lookup(peer, victim, "/user/other"); // a new lookup, resolved on the victim
    assertEquals("echo:found", Patterns.ask(other, "found", Nodes.WAIT).toCompletableFuture().join());
    assertEquals("echo:same", Patterns.ask(echoOfAttacker, "same", Nodes.WAIT).toCompletableFuture().join(), "an ask of the bomb's sender");
    // the bomb's walk reached /user/echo, once (path by path it would be 2^30 times)
    assertEquals(new ActorIdentity("bomb", Optional.of(echoOfAttacker)), probe.expectMsgClass(Nodes.WAIT, ActorIdentity.class));
    probe.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void selectionsFromOneConnectionArriveInOrderThroughTheBoundedQueue() {
    TestKit probe = new TestKit(attacker);
    ActorSelection inOrder = attacker.actorSelection(victim.address() + "/user/in-order");
    // far more than the victim's 8 waiting selections: its reading pauses and resumes, nothing is lost
    for (int i = 0; i < ORDERED; i++) {
      inOrder.tell(i, probe.getRef());
    }
    inOrder.tell(new Identify("last"), probe.getRef());
    // the answer to the last selection comes after any gap the others found (a gap would be a String)
    ActorIdentity last = probe.expectMsgClass(Duration.ofSeconds(30), ActorIdentity.class);
    assertEquals("last", last.correlationId());
    probe.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void aSelectionBeyondTheNodesBoundIsRefusedThereWithTheReason() {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor." + victim.name());
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    try {
      TestKit dead = new TestKit(victim);
      victim.eventStream().subscribe(dead.getRef(), DeadLetter.class);
      // 2 + 2 * 50 elements, no wildcard, each step one lookup: refused for its length alone
      String tooLong = victim.address() + "/user/echo" + "/../echo".repeat(50);

      attacker.actorSelection(tooLong).tell("too-long", ActorRef.noSender());

      DeadLetter d = dead.expectMsgClass(Nodes.WAIT, DeadLetter.class);
      assertEquals("too-long", d.message());
      dead.awaitCond(() -> !warnings(log).isEmpty());
      String warning = warnings(log).get(0);
      assertTrue(warning.contains("troupe.actor.selection.max-elements"), warning);
      assertTrue(warning.contains("more than " + MAX_ELEMENTS), warning);
      // a lookup beyond the bound is answered as for a missing actor
      CompletionException e =
          assertThrows(CompletionException.class, () -> attacker.actorSelection(tooLong).resolveOne(Nodes.WAIT).toCompletableFuture().join());
      assertInstanceOf(ActorNotFound.class, e.getCause());
    } finally {
      logger.detachAppender(log);
      log.stop();
    }
  }

  private static List<String> warnings(ListAppender<ILoggingEvent> log) {
    synchronized (log) { // the appender appends under its own lock
      return log.list.stream()
          .filter(e -> e.getLevel() == Level.WARN && e.getFormattedMessage().startsWith("refused the selection"))
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }
}
