package dev.troupe.actor.typed;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.util.concurrent.TimeUnit;

/** Creating and terminating the tests' systems (bounded waits). */
final class Systems {
  private Systems() {}

  static <T> ActorSystem<T> create(Behavior<T> guardian, String name) {
    return ActorSystem.create(guardian, name, ConfigFactory.parseString("troupe.actor.default-dispatcher.throughput = 5"));
  }

  static ActorSystem<Void> empty(String name) {
    return create(Behaviors.empty(), name);
  }

  static void terminate(ActorSystem<?> system) {
    try {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("system " + system.name() + " did not terminate in 10 s", e);
    }
  }
}
