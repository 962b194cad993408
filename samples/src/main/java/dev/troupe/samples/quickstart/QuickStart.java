package dev.troupe.samples.quickstart;

import dev.troupe.actor.*;
import dev.troupe.pattern.Patterns;
import java.time.Duration;

// README quick start: this file is the README's code, compiled and run by the samples' tests.
public final class QuickStart {
  record Greet(String who) {}

  static final class Greeter extends AbstractActor {
    private int greeted;

    @Override public Receive createReceive() {
      return receiveBuilder()
          .match(Greet.class, g -> getSender().tell("Hello, " + g.who() + " #" + ++greeted, getSelf()))
          .build();
    }
  }

  public static String run() throws Exception {
    ActorSystem system = ActorSystem.create("quickstart");
    ActorRef greeter = system.actorOf(Props.create(Greeter.class), "greeter");
    greeter.tell(new Greet("fire-and-forget"), ActorRef.noSender());           // tell
    Object reply = Patterns.ask(greeter, new Greet("Troupe"), Duration.ofSeconds(1))
        .toCompletableFuture().get();                                          // ask
    Patterns.gracefulStop(greeter, Duration.ofSeconds(1)).toCompletableFuture().get(); // stop
    system.terminate().toCompletableFuture().get();
    return (String) reply;                                                     // "Hello, Troupe #2"
  }
}
