package dev.troupe.guide.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.persistence.query.DurableStateChange;
import dev.troupe.persistence.query.Offset;
import dev.troupe.persistence.query.UpdatedDurableState;
import dev.troupe.persistence.query.javadsl.DurableStateStoreQuery;
import dev.troupe.persistence.state.DurableStateStoreRegistry;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.state.javadsl.CommandHandler;
import dev.troupe.persistence.typed.state.javadsl.DurableStateBehavior;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The "Durable state queries" block of {@code docs/persistence.md}, compiled and run: thermometers
 * that store their last reading under a tag, and a board that follows every thermometer's latest
 * reading through a live query of the store's changes.
 */
@Timeout(60)
class DurableStateQueryDocSnippetsTest {
  private final ActorTestKit kit = ActorTestKit.create(ConfigFactory.parseString(
      "troupe.persistence.state.query.refresh-interval = 100ms"));

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  // tag::durable-state-query[]
  public record Report(double celsius, ActorRef<Reading> replyTo) {}
  public record Reading(String device, double celsius) {}   // the state, stored whole

  public static final class Thermometer extends DurableStateBehavior<Report, Reading> {
    private final String device;

    public Thermometer(String device) {
      super(PersistenceId.of("Thermometer", device));
      this.device = device;
    }

    @Override
    public Reading emptyState() {
      return new Reading(device, Double.NaN);
    }

    @Override
    public String tag() {
      return "thermometers";                                // stored with every write
    }

    @Override
    public CommandHandler<Report, Reading> commandHandler() {
      return newCommandHandlerBuilder().forAnyState()
          .onCommand(Report.class, (last, c) -> Effect().persist(new Reading(device, c.celsius()))
              .thenReply(c.replyTo(), stored -> stored))
          .build();
    }
  }

  /** A read model: the latest reading of every thermometer, kept up to date from the store. */
  static class Board implements Flow.Subscriber<DurableStateChange<Reading>> {
    final Map<String, Double> celsius = new ConcurrentHashMap<>();
    volatile Offset upTo = Offset.noOffset();               // save it: a query resumes after it

    @Override
    public void onSubscribe(Flow.Subscription s) {
      s.request(Long.MAX_VALUE);                            // or in batches, as for events
    }

    @Override
    public void onNext(DurableStateChange<Reading> change) {
      if (change instanceof UpdatedDurableState<Reading> updated) {
        celsius.put(updated.persistenceId(), updated.value().celsius());
      } else {                                              // DeletedDurableState
        celsius.remove(change.persistenceId());
      }
      upTo = change.offset();
    }

    @Override
    public void onError(Throwable t) {}                     // a failed store call, or the system's end

    @Override
    public void onComplete() {}                             // currentChanges only
  }

  void follow(ActorSystem system, Board board) {
    DurableStateStoreQuery<Reading> queries =
        DurableStateStoreRegistry.get(system).durableStateStoreQueryFor("");  // the default store's
    queries.changes("thermometers", board.upTo)            // live: goes on with later changes
        .subscribe(board);
  }
  // end::durable-state-query[]

  @Test
  void theBoardFollowsTheLatestReadingOfEveryThermometer() throws Exception {
    TestProbe<Reading> stored = kit.createTestProbe();
    ActorRef<Report> kitchen = kit.spawn(new Thermometer("kitchen"));
    ActorRef<Report> cellar = kit.spawn(new Thermometer("cellar"));
    kitchen.tell(new Report(21.0, stored.getRef()));
    stored.expectMessage(new Reading("kitchen", 21.0));

    BlockingQueue<Offset> seen = new LinkedBlockingQueue<>();
    Board board = new Board() {
      @Override
      public void onNext(DurableStateChange<Reading> change) {
        super.onNext(change);
        seen.add(change.offset());
      }
    };
    follow(Adapter.toClassic(kit.system()), board);
    cellar.tell(new Report(12.5, stored.getRef()));
    stored.expectMessage(new Reading("cellar", 12.5));
    kitchen.tell(new Report(22.5, stored.getRef()));
    stored.expectMessage(new Reading("kitchen", 22.5));

    Map<String, Double> expected = Map.of("Thermometer|kitchen", 22.5, "Thermometer|cellar", 12.5);
    while (!board.celsius.equals(expected)) { // each change the board takes, or 10 s without one
      assertNotNull(seen.poll(10, TimeUnit.SECONDS), "no change reached the board in 10 s; it holds " + board.celsius);
    }
    assertTrue(board.upTo.equals(Offset.sequence(3)), "the last of three changes: " + board.upTo);
    assertEquals(Duration.ofMillis(100), kit.system().settings().config()
        .getDuration("troupe.persistence.state.query.refresh-interval"));
  }
}
