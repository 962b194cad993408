package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.guide.GuideSnippetsActorsTest.Add;
import dev.troupe.guide.GuideSnippetsActorsTest.Counter;
import dev.troupe.guide.GuideSnippetsActorsTest.Get;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActorRef;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The guide's chapter "Testing": probes, bounded waits, the testkit's small actors, a system shared by a class. */
class GuideSnippetsTestingTest {
  // tag::per-class[]
  @RegisterExtension                              // one system for all tests of the class
  static final ActorSystemExtension troupe =
      ActorSystemExtension.perClass("troupe.actor.default-dispatcher.throughput = 1");
  // end::per-class[]

  @Test
  void probesWatchAndWaitWithinBounds() {
    ActorSystem system = troupe.system();
    TestKit kit = new TestKit(system);
    // tag::probe[]
    TestProbe watcher = new TestProbe(system);
    ActorRef counter = system.actorOf(Props.create(Counter.class));
    watcher.watch(counter);
    counter.tell(new Add(1), watcher.getRef());
    watcher.expectNoMessage(Duration.ofMillis(100));   // Add has no answer
    kit.awaitAssert(() -> {                            // retried until it holds (or times out)
      assertEquals(1, kit.awaitResult(Patterns.ask(counter, new Get(), Duration.ofSeconds(1))));
      return null;
    });
    kit.within(Duration.ofSeconds(2), () -> {          // everything inside: within 2 s
      counter.tell(PoisonPill.getInstance(), ActorRef.noSender());
      return watcher.expectTerminated(counter);
    });
    // end::probe[]
  }

  @Test
  void aTestActorRefRunsTheActorOnTheTestsThread() {
    ActorSystem system = troupe.system();
    TestKit kit = new TestKit(system);
    // tag::test-actor-ref[]
    TestActorRef<Counter> counter = TestActorRef.create(system, Props.create(Counter.class));
    counter.tell(new Add(2), ActorRef.noSender());   // handled before tell returns, on this thread
    counter.receive(new Get(), kit.getRef());        // as tell, but what the actor throws, the test gets
    kit.expectMsg(2);
    Counter instance = counter.underlyingActor();    // the actor object itself, to inspect or call
    // end::test-actor-ref[]
    assertEquals(Counter.class, instance.getClass());
  }

  @Test
  void theTestActorsStandInForCollaboratorsAndParents() {
    ActorSystem system = troupe.system();
    TestKit kit = new TestKit(system);
    // tag::test-actors[]
    ActorRef echo = system.actorOf(TestActors.echoActorProps());   // answers what it gets
    ActorRef parent = system.actorOf(TestActors.forwardingParentProps(
        Props.create(Counter.class), "counter", kit.getRef()));     // what the counter tells its parent comes to kit
    kit.send(echo, "hi");
    kit.expectMsg("hi");
    kit.send(parent, new Add(4));                                   // forwarded to the counter
    kit.send(parent, new Get());
    kit.expectMsg(4);
    // end::test-actors[]
  }
}
