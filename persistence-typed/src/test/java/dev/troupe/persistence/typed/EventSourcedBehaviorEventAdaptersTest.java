package dev.troupe.persistence.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.journal.EventAdapter;
import dev.troupe.persistence.journal.EventSeq;
import dev.troupe.persistence.journal.ReadEventAdapter;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehavior;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An EventSourcedBehavior on a journal with event adapters: old events upcast, new ones stored through a write adapter. */
@Timeout(60)
public class EventSourcedBehaviorEventAdaptersTest {
  private static final String TEST = "dev.troupe.persistence.typed.EventSourcedBehaviorEventAdaptersTest$";
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ActorTestKit kit = ActorTestKit.create("typed-adapters", ConfigFactory.parseString("""
      adapted {
        class = "dev.troupe.persistence.internal.InMemoryJournal"
        event-adapters {
          upcast = "%1$sUpcast"
          model = "%1$sDataModel"
        }
        event-adapter-bindings {
          "%1$sAddedV1" = upcast
          "%1$sAdded" = model
          "%1$sStoredAdded" = model
        }
      }
      """.formatted(TEST)).withFallback(ConfigFactory.load()));

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  /** What an earlier version stored: an amount in cents. */
  public record AddedV1(long cents) {}

  /** The event the behaviour knows now. */
  public record Added(long amount, String currency) {}

  /** How Added is stored: the journal's data model, apart from the domain event. */
  public record StoredAdded(String text) {}

  public static final class Upcast extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single(new Added(((AddedV1) event).cents() / 100, "EUR"));
    }
  }

  /** Domain events to the data model and back. */
  public static final class DataModel implements EventAdapter {
    @Override
    public String manifest(Object event) {
      return "";
    }

    @Override
    public Object toJournal(Object event) {
      Added a = (Added) event;
      return new StoredAdded(a.amount() + " " + a.currency());
    }

    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      String[] parts = ((StoredAdded) event).text().split(" ");
      return EventSeq.single(new Added(Long.parseLong(parts[0]), parts[1]));
    }
  }

  record Add(long amount, ActorRef<List<Added>> replyTo) {}

  /** Keeps every event it applied. */
  static final class Ledger extends EventSourcedBehavior<Add, Added, List<Added>> {
    Ledger(String id) {
      super(PersistenceId.ofUniqueId(id));
    }

    @Override
    public String journalPluginId() {
      return "adapted";
    }

    @Override
    public List<Added> emptyState() {
      return List.of();
    }

    @Override
    public CommandHandler<Add, Added, List<Added>> commandHandler() {
      return (state, c) -> Effect().persist(new Added(c.amount(), "EUR")).thenReply(c.replyTo(), s -> s);
    }

    @Override
    public EventHandler<List<Added>, Added> eventHandler() {
      return (state, e) -> {
        List<Added> next = new ArrayList<>(state);
        next.add(e);
        return List.copyOf(next);
      };
    }
  }

  private Journal journal() {
    return Persistence.get(Adapter.toClassic(kit.system())).journalFor("adapted");
  }

  @Test
  void recoveryUpcastsOldEventsAndReadsBackWhatTheWriteAdapterStored() throws Exception {
    assertEquals(List.of(Optional.empty()), journal().write(List.of(new AtomicWrite("ledger", List.of(
            new PersistentRepr("ledger", 1, new AddedV1(500), 0), new PersistentRepr("ledger", 2, new AddedV1(250), 0)))))
        .toCompletableFuture().get(10, TimeUnit.SECONDS));
    TestProbe<List<Added>> replies = kit.createTestProbe();
    ActorRef<Add> ledger = kit.spawn(new Ledger("ledger"));
    ledger.tell(new Add(7, replies.getRef()));
    replies.expectMessage(WAIT, List.of(new Added(5, "EUR"), new Added(2, "EUR"), new Added(7, "EUR")));
    kit.stop(ledger, WAIT);

    List<Object> stored = new ArrayList<>();
    journal().replay("ledger", 1, Long.MAX_VALUE, 10, r -> stored.add(r.payload())).toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    assertEquals(List.of(new AddedV1(500), new AddedV1(250), new StoredAdded("7 EUR")), stored);

    ActorRef<Add> again = kit.spawn(new Ledger("ledger"));
    again.tell(new Add(1, replies.getRef()));
    replies.expectMessage(WAIT, List.of(new Added(5, "EUR"), new Added(2, "EUR"), new Added(7, "EUR"), new Added(1, "EUR")));
  }
}
