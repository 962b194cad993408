// The typed guide's Java 21 snippet: a switch over a sealed protocol. The build targets Java 17, so
// TypedGuideSnippetsMatchTest compiles this file with a JDK 21+ javac (--release 21) when one is found.
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Behaviors;

final class Java21Counter {
  // tag::typed-java21-switch[]
  sealed interface Command permits Increment, Get {}
  record Increment(int by) implements Command {}
  record Get(ActorRef<Integer> replyTo) implements Command {}

  static Behavior<Command> counter(int n) {
    return Behaviors.receiveMessage(msg -> switch (msg) {     // the compiler checks every case is there
      case Increment(int by) -> counter(n + by);
      case Get(ActorRef<Integer> replyTo) -> {
        replyTo.tell(n);
        yield Behaviors.same();
      }
    });
  }
  // end::typed-java21-switch[]
}
