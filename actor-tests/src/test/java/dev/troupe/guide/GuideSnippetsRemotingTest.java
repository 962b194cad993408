package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The guide's chapter "Remoting": two nodes in this JVM on loopback, configured with the guide's
 * own configuration blocks (on any free port).
 */
class GuideSnippetsRemotingTest {
  @RegisterExtension
  final ActorSystemExtension troupe = ActorSystemExtension.perMethod(
      Regions.text("remote-config") + "\n" + Regions.text("serialization-bindings")); // the guide's port 0

  // tag::stock[]
  static final class Stock extends AbstractActor {
    private final Map<String, Integer> left = new HashMap<>(Map.of("apples", 10));

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(StockMessage.Reserve.class, r -> {
            int now = left.merge(r.item(), -r.amount(), Integer::sum);
            getSender().tell(new StockMessage.Reserved(r.item(), now), getSelf()); // back across the network
          })
          .build();
    }
  }
  // end::stock[]

  // tag::remote-watch[]
  static final class StockWatcher extends AbstractActor {
    private final ActorRef reportTo;

    StockWatcher(ActorRef reportTo) {
      this.reportTo = reportTo;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ActorRef.class, stock -> getContext().watch(stock))      // local or remote: the same call
          .match(Terminated.class, t -> reportTo.tell(
              t.addressTerminated() ? "its node is gone" : "it stopped", getSelf()))
          .build();
    }
  }
  // end::remote-watch[]

  @Test
  void aNodeLooksUpAnActorOnAnotherAsksItAndWatchesIt() throws Exception {
    ActorSystem system = troupe.system();
    ActorSystem inventorySystem = troupe.createSystem("");
    TestKit kit = new TestKit(system);
    inventorySystem.actorOf(Props.create(Stock.class), "stock");
    Address inventory = inventorySystem.address();
    assertTrue(inventory.toString().matches("troupe://[^@]+@127\\.0\\.0\\.1:\\d+"), inventory.toString());

    // tag::remote-lookup[]
    ActorRef stock = system.actorSelection(inventory + "/user/stock") // e.g. troupe://inventory@10.0.0.7:2552
        .resolveOne(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    CompletionStage<Object> reply =
        Patterns.ask(stock, new StockMessage.Reserve("apples", 3), Duration.ofSeconds(5));
    // end::remote-lookup[]
    assertEquals(new StockMessage.Reserved("apples", 7), kit.awaitResult(Duration.ofSeconds(10), reply));

    ActorRef watcher = system.actorOf(Props.create(StockWatcher.class, kit.getRef()));
    watcher.tell(stock, ActorRef.noSender());
    // a watch that arrives after the stop is answered at once: either way, one Terminated
    stock.tell(PoisonPill.getInstance(), ActorRef.noSender());
    kit.expectMsg(Duration.ofSeconds(10), "it stopped");
  }
}
