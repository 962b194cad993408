package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractLoggingFSM;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.FSM;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActorRef;
import dev.troupe.testkit.TestKit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link AbstractLoggingFSM}: it keeps its last {@code logDepth()} events, each with the state it
 * arrived in and that state's data, oldest first, and nothing with the default depth.
 */
class AbstractLoggingFsmTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Asks for the kept events. */
  record GetLog() {}

  /** Stops the machine with a Failure (in state "odd"). */
  record Fail() {}

  /** Counts events in "even" and "odd" by the count; replies to GetLog with its log. */
  static class Counter extends AbstractLoggingFSM<String, Integer> {
    private final int depth;

    Counter(int depth) {
      this.depth = depth;
      startWith("even", 0);
      when("even", matchEvent(String.class, Integer.class, (s, n) -> goTo("odd").using(n + 1))
          .event(GetLog.class, (g, n) -> stay().replying(getLog())));
      when("odd", matchEvent(String.class, Integer.class, (s, n) -> goTo("even").using(n + 1))
          .event(GetLog.class, (g, n) -> stay().replying(getLog()))
          .event(Fail.class, (f, n) -> stop(Failure("broken at " + n))));
      initialize();
    }

    @Override
    public int logDepth() {
      return depth;
    }
  }

  @SuppressWarnings("unchecked")
  private List<FSM.LogEntry<String, Integer>> log(ActorRef fsm, TestKit kit) {
    fsm.tell(new GetLog(), kit.getRef());
    return (List<FSM.LogEntry<String, Integer>>) kit.expectMsgClass(List.class);
  }

  @Test
  void keepsTheLastEventsWithTheStateAndDataEachArrivedIn() {
    TestKit kit = new TestKit(troupe.system());
    ActorRef fsm = troupe.system().actorOf(Props.create(Counter.class, () -> new Counter(3)));
    assertEquals(List.of(new FSM.LogEntry<>("even", 0, new GetLog())), log(fsm, kit),
        "the query is an event too, kept before it is handled");
    for (String e : List.of("a", "b", "c", "d")) {
      fsm.tell(e, kit.getRef());
    }
    assertEquals(List.of(
        new FSM.LogEntry<>("even", 2, "c"),
        new FSM.LogEntry<>("odd", 3, "d"),
        new FSM.LogEntry<>("even", 4, new GetLog())), log(fsm, kit), "the last three, oldest first");
  }

  @Test
  void aFailureLogsTheEventsThatLedToIt() {
    TestKit kit = new TestKit(troupe.system());
    RuntimeFixtures.LogCapture log = new RuntimeFixtures.LogCapture(LoggerFactory.getLogger(Counter.class));
    try {
      ActorRef fsm = troupe.system().actorOf(Props.create(Counter.class, () -> new Counter(2)));
      kit.watch(fsm);
      fsm.tell("a", kit.getRef());
      fsm.tell(new Fail(), kit.getRef());
      kit.expectTerminated(fsm);
      String logged = log.snapshot().stream().map(e -> e.getFormattedMessage())
          .filter(m -> m.startsWith("the last")).findFirst().orElse("(none) in " + log.snapshot());
      assertEquals("the last 2 events before the failure:\n  in state even with data 0: a\n"
          + "  in state odd with data 1: Fail[]", logged);
    } finally {
      log.detach();
    }
  }

  @Test
  void theDefaultDepthKeepsNothingAndANegativeOneIsRefusedAtTheFirstEvent() throws Exception {
    TestKit kit = new TestKit(troupe.system());
    ActorRef none = troupe.system().actorOf(Props.create(Counter.class, () -> new Counter(0)));
    none.tell("a", kit.getRef());
    assertEquals(List.of(), log(none, kit));

    TestActorRef<Counter> negative = TestActorRef.create(troupe.system(), Props.create(Counter.class, () -> new Counter(-1)));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> negative.receive("a"));
    assertTrue(e.getMessage().contains("logDepth() must not be negative"), e.getMessage());
  }
}
