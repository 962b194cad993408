package dev.troupe.guide.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.persistence.AbstractPersistentActor;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.Tagged;
import dev.troupe.persistence.journal.EventSeq;
import dev.troupe.persistence.journal.ReadEventAdapter;
import dev.troupe.persistence.journal.WriteEventAdapter;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The event adapter block of {@code docs/persistence.md}, compiled and run: a wallet whose first
 * version stored cents recovers them as today's deposits, and whose deposits are tagged as they are
 * written.
 */
@Timeout(60)
class EventAdapterDocSnippetsTest {
  private static final String AT = "dev.troupe.guide.persistence.EventAdapterDocSnippetsTest$";

  private final ActorSystem system = ActorSystem.create("adapter-docs", ConfigFactory.parseString("""
      troupe.persistence.journal.inmem {
        event-adapters {
          deposited-v1 = "%1$sDepositedUpcaster"
          tag-deposits = "%1$sTagDeposits"
        }
        event-adapter-bindings {
          "%1$sDepositedV1" = deposited-v1
          "%1$sDeposited" = tag-deposits
        }
      }
      """.formatted(AT)).withFallback(ConfigFactory.load()));

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // tag::event-adapters[]
  public record DepositedV1(long cents) {}                  // what version 1 stored
  public record Deposited(long amount, String currency) {}  // the event today

  /** Reads version 1's events as today's; bound to DepositedV1 in the journal's section. */
  public static final class DepositedUpcaster extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {   // manifest is "": use the class
      DepositedV1 old = (DepositedV1) event;
      return EventSeq.single(new Deposited(old.cents() / 100, "EUR"));   // or empty(), or create(a, b)
    }
  }

  /** Files every deposit under the tag "deposits" as it is written; bound to Deposited. */
  public static final class TagDeposits extends WriteEventAdapter {
    @Override
    public Object toJournal(Object event) {
      return new Tagged(event, Set.of("deposits"));
    }
  }

  /** Knows only today's event: recovery hands it the upcast ones. */
  public static final class Wallet extends AbstractPersistentActor {
    private long balance;

    @Override
    public String persistenceId() {
      return "wallet";
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().match(Deposited.class, d -> balance += d.amount()).build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Long.class, amount -> persist(new Deposited(amount, "EUR"), d -> {
            balance += d.amount();
            getSender().tell(balance, getSelf());
          }))
          .build();
    }
  }
  // end::event-adapters[]

  @Test
  void theWalletRecoversVersionOnesEventsAndTagsItsNewOnes() throws Exception {
    Journal journal = Persistence.get(system).journalFor("");
    journal.write(List.of(new AtomicWrite("wallet", List.of(new PersistentRepr("wallet", 1, new DepositedV1(1500), 0)))))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);   // as version 1 stored it

    TestKit kit = new TestKit(system);
    ActorRef wallet = system.actorOf(Props.create(Wallet.class, Wallet::new));
    wallet.tell(5L, kit.getRef());
    assertEquals(20L, kit.expectMsgClass(Duration.ofSeconds(10), Long.class));

    List<TaggedRepr> deposits = new ArrayList<>();
    journal.eventsByTag("deposits", 0, 10, deposits::add).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(new Deposited(5, "EUR")), deposits.stream().map(t -> t.event().payload()).toList());
  }
}
