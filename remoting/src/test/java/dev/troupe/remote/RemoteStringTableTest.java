package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connection's string table past its capacity (4,096 entries): a link that carried thousands of
 * asks, each with a new temporary reply path, still reaches actors it never named and resolves new
 * paths; a control lane that carried thousands of watches still carries watches and system messages
 * of a kind it never carried. Each test starts its own pair of nodes, so its links start empty.
 */
class RemoteStringTableTest {
  /** More than the table's 4,096 entries. */
  private static final int PAST_CAPACITY = 5_000;

  /** Asks in flight at once while filling the table. */
  private static final int IN_FLIGHT = 250;

  @RegisterExtension static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE);

  /**
   * On "make N" creates N children and sends each one's ref to the sender; on "stop NAME" stops
   * that child.
   */
  static final class Maker extends AbstractActor {
    private int made;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(
              String.class,
              s -> s.startsWith("make "),
              s -> {
                for (int i = Integer.parseInt(s.substring(5)); i > 0; i--) {
                  getSender().tell(getContext().actorOf(TestActors.echoActorProps("echo:"), "c" + made++), getSelf());
                }
              })
          .match(
              String.class,
              s -> s.startsWith("stop "),
              s -> getContext().findChild(s.substring(5)).ifPresent(c -> getContext().stop(c)))
          .build();
    }
  }

  @Test
  void afterMoreAsksThanTheTableHoldsAnActorNeverMessagedOnThatLinkAnswers() {
    Link link = newLink();
    link.b().actorOf(TestActors.echoActorProps("echo:"), "never-messaged");
    ActorRef neverMessaged = Nodes.lookup(link.a(), link.b(), "/user/never-messaged"); // resolved, not yet told anything

    askPastTheTablesCapacity(link.echo());

    assertEquals("echo:first", ask(neverMessaged, "first"), "an ask to an actor never messaged on this link");
    assertEquals("echo:second", ask(neverMessaged, "second"));
  }

  @Test
  void afterMoreAsksThanTheTableHoldsANewPathIsLookedUp() {
    Link link = newLink();

    askPastTheTablesCapacity(link.echo());
    link.b().actorOf(TestActors.echoActorProps("echo:"), "late");

    ActorRef late = Nodes.lookup(link.a(), link.b(), "/user/late"); // its answer names two paths the link never named
    assertEquals("echo:hello", ask(late, "hello"));
  }

  @Test
  void afterMoreWatchesThanTheTableHoldsNewWatchesAndStopsOnTheControlLaneWork() {
    ActorSystem a = TROUPE.createSystem("");
    ActorSystem b = TROUPE.createSystem("");
    b.actorOf(Props.create(Maker.class), "maker");
    ActorRef maker = Nodes.lookup(a, b, "/user/maker");
    TestKit watcher = new TestKit(a);
    for (ActorRef child : make(a, maker, PAST_CAPACITY)) {
      watcher.watch(child); // each watch names a new recipient on a's control lane to b
    }

    List<ActorRef> late = make(a, maker, 20);
    Set<ActorRef> expected = new HashSet<>();
    for (int i = 0; i < late.size(); i++) {
      ActorRef child = late.get(i);
      watcher.watch(child);
      expected.add(child);
      if (i % 2 == 0) {
        a.stop(child); // a system message of a kind this control lane never carried, to a new recipient
      } else {
        maker.tell("stop " + child.path().name(), ActorRef.noSender()); // b stops it: b tells a
      }
    }

    Set<ActorRef> terminated = new HashSet<>();
    for (int i = 0; i < late.size(); i++) {
      terminated.add(watcher.expectMsgClass(Nodes.WAIT, Terminated.class).actor());
    }
    assertEquals(expected, terminated, "every actor watched after the table filled was reported terminated");
  }

  /** Two new nodes, so that the links between them start with empty tables; {@code echo} lives on b. */
  private record Link(ActorSystem a, ActorSystem b, ActorRef echo) {}

  private static Link newLink() {
    ActorSystem a = TROUPE.createSystem("");
    ActorSystem b = TROUPE.createSystem("");
    b.actorOf(TestActors.echoActorProps("echo:"), "echo");
    return new Link(a, b, Nodes.lookup(a, b, "/user/echo"));
  }

  /** Asks {@code echo} {@value #PAST_CAPACITY} times, a bounded number at once, checking every answer. */
  private static void askPastTheTablesCapacity(ActorRef echo) {
    List<CompletableFuture<Object>> inFlight = new ArrayList<>();
    for (int i = 0; i < PAST_CAPACITY; i++) {
      inFlight.add(Patterns.ask(echo, "m" + i, Nodes.WAIT).toCompletableFuture());
      if (inFlight.size() == IN_FLIGHT || i == PAST_CAPACITY - 1) {
        for (int k = 0; k < inFlight.size(); k++) {
          int n = i - inFlight.size() + 1 + k;
          assertEquals("echo:m" + n, inFlight.get(k).join(), "ask " + n);
        }
        inFlight.clear();
      }
    }
  }

  private static Object ask(ActorRef target, String message) {
    return Patterns.ask(target, message, Nodes.WAIT).toCompletableFuture().join();
  }

  /** Has {@code maker} create {@code n} children and returns their refs, as {@code a} resolved them. */
  private static List<ActorRef> make(ActorSystem a, ActorRef maker, int n) {
    TestKit probe = new TestKit(a);
    maker.tell("make " + n, probe.getRef());
    List<ActorRef> refs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      refs.add(probe.expectMsgClass(Nodes.WAIT, ActorRef.class));
    }
    return refs;
  }
}
