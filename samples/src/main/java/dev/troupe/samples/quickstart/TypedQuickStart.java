package dev.troupe.samples.quickstart;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;

// The README's quick start written typed (the greeter of the typed guide's first section):
// compiled and run by the samples' tests, and by `troupe-samples.jar typed-quickstart`.
public final class TypedQuickStart {
  sealed interface Command {}
  record Greet(String who, ActorRef<String> replyTo) implements Command {}

  static Behavior<Command> greeter(int greeted) {           // the state is the behaviour's argument
    return Behaviors.receive(Command.class)
        .onMessage(Greet.class, g -> {
          g.replyTo().tell("Hello, " + g.who() + " #" + (greeted + 1));
          return greeter(greeted + 1);
        })
        .build();
  }

  public static String run() throws Exception {
    ActorSystem<Command> system = ActorSystem.create(greeter(0), "typed-quickstart"); // the greeter is the guardian
    system.tell(new Greet("fire-and-forget", system.deadLetters()));                 // tell
    String reply = AskPattern.ask(system, (ActorRef<String> r) -> new Greet("Troupe", r),
        Duration.ofSeconds(1), system.scheduler()).toCompletableFuture().get();       // ask
    system.terminate().toCompletableFuture().get();                                   // stop
    return reply;                                                                     // "Hello, Troupe #2"
  }

  private TypedQuickStart() {}
}
