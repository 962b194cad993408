package dev.troupe.guide.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.BehaviorTestKit;
import dev.troupe.testkit.typed.TestInbox;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The typed part of the name map of {@code docs/from-pekko.md}, compiled and run. */
class FromPekkoTypedTest {
  record Greet(String who, ActorRef<String> replyTo) {}

  static Behavior<Greet> greeter() {
    return Behaviors.receive(Greet.class)
        .onMessage(Greet.class, g -> {
          g.replyTo().tell("Hello, " + g.who());
          return Behaviors.same();
        })
        .build();
  }

  @Test
  void theTypedNames() throws Exception {
    // tag::pekko-typed[]
    ActorSystem<Greet> system = ActorSystem.create(                // org.apache.pekko.actor.typed -> dev.troupe.actor.typed
        Behaviors.supervise(greeter()).onFailure(SupervisorStrategy.restart()), "typed");
    String reply = AskPattern.<Greet, String>ask(system, replyTo -> new Greet("Pekko", replyTo),
        Duration.ofSeconds(3), system.scheduler()).toCompletableFuture().get();
    ServiceKey<Greet> key = ServiceKey.create(Greet.class, "greeter");
    system.receptionist().tell(Receptionist.register(key, system));
    dev.troupe.actor.ActorSystem classic = Adapter.toClassic(system);   // both styles in one system
    ActorRef<Greet> second = Adapter.spawn(classic, greeter(), "second");
    system.terminate();

    ActorTestKit testKit = ActorTestKit.create();                     // ...testkit.typed.javadsl -> dev.troupe.testkit.typed
    TestProbe<String> probe = testKit.createTestProbe();
    testKit.spawn(greeter()).tell(new Greet("probe", probe.getRef()));
    probe.expectMessage("Hello, probe");
    testKit.shutdownTestKit();
    BehaviorTestKit<Greet> sync = BehaviorTestKit.create(greeter());  // synchronous, no threads
    // end::pekko-typed[]
    assertEquals("Hello, Pekko", reply);
    assertEquals("second", Adapter.toClassic(second).path().name());
    TestInbox<String> inbox = TestInbox.create();
    sync.run(new Greet("sync", inbox.getRef()));
    inbox.expectMessage("Hello, sync");
    system.getWhenTerminated().toCompletableFuture().get();
  }
}
