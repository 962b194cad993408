package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.remote.DisassociatedEvent;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A peer whose transport goes away and comes back on the same host and port is reached again. */
class RemoteReconnectTest {
  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perMethod(Nodes.REMOTE);

  private static ActorSystem node(String name, int port) {
    return ActorSystem.create(
        name,
        ConfigFactory.parseString(Nodes.REMOTE + "troupe.remote.canonical.port = " + port + "\n")
            .withFallback(ConfigFactory.load()));
  }

  private static Object ask(ActorRef ref, String message) {
    return Patterns.ask(ref, message, Nodes.WAIT).toCompletableFuture().join();
  }

  @Test
  void aPeerRestartedOnTheSamePortIsFoundAndAnsweredAgain(ActorSystem a) {
    ActorSystem first = node("restarting", 0);
    int port = first.address().port().orElseThrow();
    ActorSystem second = null;
    try {
      first.actorOf(TestActors.echoActorProps("echo:"), "echo");
      ActorRef before = Nodes.lookup(a, first, "/user/echo");
      assertEquals("echo:one", ask(before, "one"));

      TestKit events = new TestKit(a);
      a.eventStream().subscribe(events.getRef(), DisassociatedEvent.class);
      TestKit.shutdownActorSystem(first); // its transport closes every connection to a
      // a message written into a connection that is closing is lost (at most once); a closes its
      // connections to a node that says it leaves before it publishes the event
      assertEquals(new DisassociatedEvent(first.address()), events.expectMsgClass(Nodes.WAIT, DisassociatedEvent.class));
      second = node("restarting", port); // a new incarnation at the same address
      second.actorOf(TestActors.echoActorProps("echo:"), "echo");

      ActorRef after = Nodes.lookup(a, second, "/user/echo");
      assertEquals(before.path(), after.path(), "same address, same path");
      assertNotEquals(before.path().uid(), after.path().uid(), "but a new actor");
      assertEquals("echo:two", ask(after, "two"), "a reconnected to the restarted peer");
    } finally {
      if (second != null) {
        TestKit.shutdownActorSystem(second);
      }
      if (!first.getWhenTerminated().toCompletableFuture().isDone()) {
        TestKit.shutdownActorSystem(first);
      }
    }
  }
}
