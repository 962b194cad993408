package dev.troupe.samples.quickstart;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.samples.quickstart.QuickStart.Greet;
import dev.troupe.samples.quickstart.QuickStart.Greeter;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

// The README's "Testing actors" example, compiled and run.
@ExtendWith(ActorSystemExtension.class)
class GreeterTest {
  @Test void greets(ActorSystem system, TestKit kit) {
    ActorRef greeter = system.actorOf(Props.create(Greeter.class));
    kit.send(greeter, new Greet("test"));
    kit.expectMsg("Hello, test #1");
  }
}
