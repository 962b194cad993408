package dev.troupe.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SmokeTest {
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  @Test
  void echoes() throws Exception {
    ActorSystem sys = ActorSystem.create("smoke");
    try {
      ActorRef echo = sys.actorOf(Props.create(Echo.class), "echo");
      Object r = Patterns.ask(echo, "hi", Duration.ofSeconds(3)).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertEquals("hi", r);
    } finally {
      sys.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
