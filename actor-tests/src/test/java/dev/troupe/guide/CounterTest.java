package dev.troupe.guide;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.guide.GuideSnippetsActorsTest.Add;
import dev.troupe.guide.GuideSnippetsActorsTest.Counter;
import dev.troupe.guide.GuideSnippetsActorsTest.Get;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

// The guide's first test, as a user writes it (chapter "Testing").
// tag::counter-test[]
@ExtendWith(ActorSystemExtension.class)          // a fresh system per test, shut down verified
class CounterTest {
  @Test
  void addsWhatItIsSent(ActorSystem system, TestKit kit) {
    ActorRef counter = system.actorOf(Props.create(Counter.class));
    kit.send(counter, new Add(2));               // kit.getRef() is the sender
    kit.send(counter, new Add(3));
    kit.send(counter, new Get());
    kit.expectMsg(5);                            // waits at most 3 s (troupe.test.single-expect-default)
  }
}
// end::counter-test[]
