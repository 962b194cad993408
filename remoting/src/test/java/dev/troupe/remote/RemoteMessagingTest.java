package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two nodes in one JVM on loopback: lookup by path, replies, asks, refs inside messages, forward,
 * and a long stream from one sender, all through ordinary refs.
 */
class RemoteMessagingTest {
  /** Bound to jackson-cbor in the configuration below. */
  record Job(String text, ActorRef replyTo) {}

  /** Replies to every string with "echo:" and the string. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, s -> getSender().tell("echo:" + s, getSelf()))
          .match(Job.class, j -> j.replyTo().tell("done:" + j.text(), getSelf()))
          .build();
    }
  }

  /** Counts the integers 0, 1, 2, ... it receives; answers "ack" + n every {@code window} of them and reports a gap. */
  static final class Sequence extends AbstractActor {
    private int next;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(
              Integer.class,
              i -> {
                if (i != next) {
                  getSender().tell("gap: expected " + next + ", got " + i, getSelf());
                }
                next = i + 1;
                if (next % WINDOW == 0) {
                  getSender().tell(next, getSelf());
                }
              })
          .build();
    }
  }

  static final int WINDOW = 5_000;

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          Nodes.REMOTE
              + "troupe.serialization.bindings { \"dev.troupe.remote.RemoteMessagingTest$Job\" = jackson-cbor }\n");

  static ActorSystem a;
  static ActorSystem b;

  @BeforeAll
  static void nodes() {
    a = TROUPE.system();
    b = TROUPE.createSystem("");
    b.actorOf(Props.create(Echo.class), "echo");
  }

  @Test
  void eachNodeReportsTheBoundPortInItsAddress() {
    for (ActorSystem s : new ActorSystem[] {a, b}) {
      Address address = s.address();
      assertEquals("127.0.0.1", address.host().orElseThrow(), address.toString());
      int port = address.port().orElseThrow();
      assertTrue(port > 0, "an ephemeral port was bound: " + address);
      assertEquals("troupe://" + s.name() + "@127.0.0.1:" + port, address.toString());
    }
    assertNotEquals(a.address().port(), b.address().port());
  }

  @Test
  void anActorFoundByPathOnTheOtherNodeRepliesThroughTheSender() {
    TestKit probe = new TestKit(a);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    assertEquals(b.address(), echo.path().address(), "the ref is the remote actor's");
    echo.tell("hello", probe.getRef());

    assertEquals("echo:hello", probe.expectMsg(Nodes.WAIT, "echo:hello"));
    assertEquals(echo, probe.getLastSender(), "the reply's sender is the remote echo");
  }

  @Test
  void resolvingAPathThatDoesNotExistOnTheOtherNodeFailsWithActorNotFound() {
    CompletionException e =
        assertThrows(
            CompletionException.class,
            () -> a.actorSelection(b.address() + "/user/nobody").resolveOne(Nodes.WAIT).toCompletableFuture().join());
    assertInstanceOf(ActorNotFound.class, e.getCause());
  }

  @Test
  void anAskAcrossNodesCompletesWithTheReply() {
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");
    Object reply = Patterns.ask(echo, "ask", Nodes.WAIT).toCompletableFuture().join();
    assertEquals("echo:ask", reply);
  }

  @Test
  void aRefInsideARecordReachesTheActorItNames() {
    TestKit probe = new TestKit(a);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    echo.tell(new Job("j1", probe.getRef()), ActorRef.noSender());

    probe.expectMsg(Nodes.WAIT, "done:j1");
    assertEquals(echo, probe.getLastSender());
  }

  @Test
  void forwardAcrossNodesKeepsTheOriginalSender() {
    TestKit probe = new TestKit(a);
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");
    // a relay on a that forwards to b's echo, and one on b that forwards to the first: a -> b -> a -> b
    ActorRef relayOnA = a.actorOf(TestActors.forwardActorProps(echo), "relay-to-echo");
    ActorRef remoteRelayOnA = Nodes.lookup(b, a, "/user/relay-to-echo");
    b.actorOf(TestActors.forwardActorProps(remoteRelayOnA), "relay-back");
    ActorRef relayOnB = Nodes.lookup(a, b, "/user/relay-back");

    relayOnB.tell("around", probe.getRef());

    probe.expectMsg(Nodes.WAIT, "echo:around");
    assertEquals(echo, probe.getLastSender(), "the echo replied to the original sender directly");
    assertFalse(relayOnA.equals(probe.getLastSender()));
  }

  @Test
  void a100kMessageStreamFromOneSenderArrivesInOrderWithNoneLostOrDuplicated() {
    TestKit probe = new TestKit(a);
    b.actorOf(Props.create(Sequence.class), "sequence");
    ActorRef sequence = Nodes.lookup(a, b, "/user/sequence");
    int total = 100_000;
    // Flow control from end to end, as the delivery contract asks of a stream this long: at most
    // two windows in flight, far below the outbound queue's bound.
    for (int i = 0; i < total; i++) {
      if (i >= 2 * WINDOW && i % WINDOW == 0) {
        Object ack = probe.receiveOne(Nodes.WAIT);
        assertEquals(i - WINDOW, ack, "acknowledged count (a string means a gap)");
      }
      sequence.tell(i, probe.getRef());
    }
    assertEquals(total - WINDOW, probe.receiveOne(Nodes.WAIT), "acknowledged count (a string means a gap)");
    assertEquals(total, probe.receiveOne(Nodes.WAIT), "acknowledged count (a string means a gap)");
    probe.expectNoMessage(java.time.Duration.ofMillis(100));
  }
}
