package com.example;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs under Surefire through JUnit 5, with the testkit's extension: the plugins of the snippet work. */
@ExtendWith(ActorSystemExtension.class)
class GreeterTest {
  @Test
  void greets(ActorSystem system, TestKit kit) {
    ActorRef greeter = system.actorOf(Props.create(Greeter.class));
    kit.send(greeter, "Maven");
    kit.expectMsg("Hello, Maven");
  }
}
