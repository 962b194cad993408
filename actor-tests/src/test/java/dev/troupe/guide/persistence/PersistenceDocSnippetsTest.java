package dev.troupe.guide.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.persistence.AbstractPersistentActor;
import dev.troupe.persistence.RecoveryCompleted;
import dev.troupe.persistence.SaveSnapshotSuccess;
import dev.troupe.persistence.SnapshotOffer;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Java blocks of {@code docs/persistence.md}, compiled and run: a counter that persists its
 * additions, snapshots every 100, and recovers its total in a new incarnation.
 */
@Timeout(60)
class PersistenceDocSnippetsTest {
  private final ActorSystem system = ActorSystem.create("persistence-docs", ConfigFactory.load());

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // tag::persistent-counter[]
  public record Add(int amount) {}       // a command
  public record Added(int amount) {}     // the event it persists
  public enum Get { INSTANCE }

  public static final class Counter extends AbstractPersistentActor {
    private final String id;
    private long total;

    public Counter(String id) {
      this.id = id;
    }

    @Override
    public String persistenceId() {
      return "counter-" + id;                 // the same in every incarnation
    }

    @Override
    public Receive createReceiveRecover() {   // the newest snapshot, then the events after it
      return receiveBuilder()
          .match(SnapshotOffer.class, offer -> total = (Long) offer.snapshot())
          .match(Added.class, e -> total += e.amount())
          .match(RecoveryCompleted.class, done -> log().info("recovered {} at {}", total, lastSequenceNr()))
          .build();
    }

    @Override
    public Receive createReceive() {          // commands, once recovered
      return receiveBuilder()
          .match(Add.class, c -> persist(new Added(c.amount()), e -> {
            total += e.amount();              // runs once the event is stored
            getSender().tell(total, getSelf());
            if (lastSequenceNr() % 100 == 0) {
              saveSnapshot(total);            // recovery then replays only the events after it
            }
          }))
          .matchEquals(Get.INSTANCE, g -> getSender().tell(total, getSelf()))
          .match(SaveSnapshotSuccess.class, s -> {})
          .build();
    }
  }
  // end::persistent-counter[]

  @Test
  void theCounterRecoversItsTotalInANewIncarnation() {
    TestKit kit = new TestKit(system);
    ActorRef counter = system.actorOf(Props.create(Counter.class, () -> new Counter("a")));
    long expected = 0;
    for (int i = 1; i <= 150; i++) {
      expected += i;
      kit.send(counter, new Add(i));
      assertEquals(expected, kit.expectMsgClass(Long.class));
    }
    kit.watch(counter);
    system.stop(counter);
    kit.expectTerminated(counter);

    ActorRef again = system.actorOf(Props.create(Counter.class, () -> new Counter("a")));
    kit.send(again, Get.INSTANCE);
    assertEquals(expected, kit.expectMsgClass(Duration.ofSeconds(10), Long.class), "the snapshot at 100 and events 101..150");
  }
}
