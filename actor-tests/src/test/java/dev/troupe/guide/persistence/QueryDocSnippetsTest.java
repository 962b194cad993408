package dev.troupe.guide.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.persistence.AbstractPersistentActor;
import dev.troupe.persistence.Tagged;
import dev.troupe.persistence.query.EventEnvelope;
import dev.troupe.persistence.query.Offset;
import dev.troupe.persistence.query.PersistenceQuery;
import dev.troupe.persistence.query.polling.PollingReadJournal;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The query blocks of {@code docs/persistence.md}, compiled and run: a read model that follows the
 * counter of {@link PersistenceDocSnippetsTest} through a live query.
 */
@Timeout(60)
class QueryDocSnippetsTest {
  private final ActorSystem system = ActorSystem.create("query-docs", ConfigFactory.parseString(
      "troupe.persistence.query.polling.refresh-interval = 100ms").withFallback(ConfigFactory.load()));

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // tag::persistence-query[]
  /** A read model: the running total of one counter, kept up to date from its events. */
  static final class Totals implements Flow.Subscriber<EventEnvelope> {
    private static final int BATCH = 100;
    private Flow.Subscription subscription;
    private int left;
    volatile long total;
    volatile long upTo;                        // the last sequence number applied: resume after it

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      left = BATCH;
      s.request(BATCH);                        // the query reads no more than asked for
    }

    @Override
    public void onNext(EventEnvelope e) {
      if (e.event() instanceof PersistenceDocSnippetsTest.Added added) {
        total += added.amount();
      }
      upTo = e.sequenceNr();
      if (--left == 0) {
        left = BATCH;
        subscription.request(BATCH);
      }
    }

    @Override
    public void onError(Throwable t) {}        // a failed journal call, or the system's end

    @Override
    public void onComplete() {}                // only at the end of the range asked for
  }

  void follow(ActorSystem system, Totals totals) {
    PollingReadJournal queries = PersistenceQuery.get(system)
        .getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);
    queries.eventsByPersistenceId("counter-7", 0, Long.MAX_VALUE)   // live: goes on with new events
        .subscribe(totals);
  }
  // end::persistence-query[]

  // tag::persistence-tags[]
  public record Ordered(String item) {}

  /** Files every order under the tag "orders", whichever customer's actor wrote it. */
  public static final class Customer extends AbstractPersistentActor {
    private final String id;

    public Customer(String id) {
      this.id = id;
    }

    @Override
    public String persistenceId() {
      return "customer-" + id;
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().match(Ordered.class, e -> {}).build();   // replayed untagged
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, item -> persist(new Tagged(new Ordered(item), Set.of("orders")),
              tagged -> getSender().tell("ordered " + item, getSelf())))
          .build();
    }
  }

  /** Every order of every customer, in the order they were stored, from {@code after} on. */
  Flow.Publisher<EventEnvelope> orders(ActorSystem system, Offset after) {
    return PersistenceQuery.get(system)
        .getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER)
        .eventsByTag("orders", after);    // Offset.noOffset(), or the last offset a projection saved
  }
  // end::persistence-tags[]

  @Test
  void theOrdersOfEveryCustomerComeByTag() throws Exception {
    TestKit kit = new TestKit(system);
    for (String customer : List.of("ann", "bob")) {
      ActorRef c = system.actorOf(Props.create(Customer.class, () -> new Customer(customer)));
      c.tell(customer + "'s book", kit.getRef());
      kit.expectMsg("ordered " + customer + "'s book");
    }
    List<EventEnvelope> got = new CopyOnWriteArrayList<>();
    orders(system, Offset.noOffset()).subscribe(new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription s) {
        s.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(EventEnvelope e) {
        got.add(e);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onComplete() {}
    });
    kit.awaitCond(Duration.ofSeconds(20), Duration.ofMillis(20), "two orders by tag", () -> got.size() == 2);
    assertEquals(List.of(new Ordered("ann's book"), new Ordered("bob's book")), got.stream().map(EventEnvelope::event).toList());
    assertEquals(List.of("customer-ann", "customer-bob"), got.stream().map(EventEnvelope::persistenceId).toList());
  }

  @Test
  void theReadModelFollowsTheCounter() throws Exception {
    Totals totals = new Totals();
    follow(system, totals);
    ActorRef counter = system.actorOf(Props.create(PersistenceDocSnippetsTest.Counter.class,
        () -> new PersistenceDocSnippetsTest.Counter("7")));
    for (int i = 1; i <= 150; i++) {
      counter.tell(new PersistenceDocSnippetsTest.Add(i), ActorRef.noSender());
    }
    long want = 150L * 151 / 2;
    new TestKit(system).awaitCond(Duration.ofSeconds(20), Duration.ofMillis(20),
        "the read model's total after 150 additions", () -> totals.total == want && totals.upTo == 150);
  }
}
