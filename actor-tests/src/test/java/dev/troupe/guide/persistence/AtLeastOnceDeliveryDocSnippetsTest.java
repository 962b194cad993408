package dev.troupe.guide.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.persistence.AbstractPersistentActorWithAtLeastOnceDelivery;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The at-least-once delivery block of {@code docs/persistence.md}, compiled and run: an outbox that
 * delivers each message it stored until the destination confirms it, and a destination that
 * handles each delivery id once.
 */
@Timeout(60)
class AtLeastOnceDeliveryDocSnippetsTest {
  private final ActorSystem system = ActorSystem.create("alo-docs", ConfigFactory.parseString(
      "troupe.persistence.at-least-once-delivery.redeliver-interval = 200ms").withFallback(ConfigFactory.load()));

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // tag::at-least-once-delivery[]
  public record Send(String text) {}                     // a command
  public record Sent(String text) {}                     // its event
  public record Msg(long deliveryId, String text) {}     // what the destination gets
  public record Confirm(long deliveryId) {}              // the destination's answer
  public record Confirmed(long deliveryId) {}            // its event

  public static final class Outbox extends AbstractPersistentActorWithAtLeastOnceDelivery {
    private final ActorPath destination;

    public Outbox(ActorPath destination) {
      this.destination = destination;
    }

    @Override
    public String persistenceId() {
      return "outbox";
    }

    @Override
    public Receive createReceiveRecover() {    // the same calls: recovery rebuilds what is unconfirmed
      return receiveBuilder()
          .match(Sent.class, this::onSent)
          .match(Confirmed.class, this::onConfirmed)
          .build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Send.class, c -> persist(new Sent(c.text()), this::onSent))
          .match(Confirm.class, c -> persist(new Confirmed(c.deliveryId()), this::onConfirmed))
          .build();
    }

    private void onSent(Sent e) {               // sent now (once recovered), and again until confirmed
      deliver(destination, deliveryId -> new Msg(deliveryId, e.text()));
    }

    private void onConfirmed(Confirmed e) {
      confirmDelivery(e.deliveryId());
    }
  }

  public static final class Destination extends AbstractActor {
    private final Set<Long> seen = new HashSet<>();  // a message may come more than once
    private final ActorRef out;

    public Destination(ActorRef out) {
      this.out = out;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Msg.class, m -> {
            if (seen.add(m.deliveryId())) {
              out.tell(m.text(), getSelf());
            }
            getSender().tell(new Confirm(m.deliveryId()), getSelf());  // duplicates too
          })
          .build();
    }
  }
  // end::at-least-once-delivery[]

  @Test
  void theDestinationHandlesEachMessageOnce() {
    TestProbe out = new TestProbe(system);
    ActorRef destination = system.actorOf(Props.create(Destination.class, () -> new Destination(out.getRef())), "destination");
    ActorRef outbox = system.actorOf(Props.create(Outbox.class, () -> new Outbox(destination.path())));
    outbox.tell(new Send("hello"), ActorRef.noSender());
    outbox.tell(new Send("world"), ActorRef.noSender());
    out.expectMsg("hello");
    out.expectMsg("world");
    out.expectNoMessage(Duration.ofMillis(500)); // confirmed, and a redelivery is not handled twice
  }

  @Test
  void anUnconfirmedMessageComesAgainAndANewIncarnationSendsOnlyWhatIsUnconfirmed() {
    TestProbe slow = new TestProbe(system); // a destination that does not confirm at first
    ActorRef outbox = system.actorOf(Props.create(Outbox.class, () -> new Outbox(slow.getRef().path())));
    outbox.tell(new Send("hello"), ActorRef.noSender());
    assertEquals(new Msg(1, "hello"), slow.expectMsgClass(Msg.class));
    assertEquals(new Msg(1, "hello"), slow.expectMsgClass(Duration.ofSeconds(15), Msg.class), "sent again");
    outbox.tell(new Send("world"), ActorRef.noSender());
    slow.reply(new Confirm(1));
    slow.watch(outbox);
    slow.send(outbox, dev.troupe.actor.PoisonPill.getInstance()); // after the confirmation, which it stores first
    slow.fishForMessage(Duration.ofSeconds(15), "the outbox's end", m -> m instanceof dev.troupe.actor.Terminated);

    TestProbe next = new TestProbe(system);
    system.actorOf(Props.create(Outbox.class, () -> new Outbox(next.getRef().path())));
    assertEquals(new Msg(2, "world"), next.expectMsgClass(Duration.ofSeconds(15), Msg.class), "only the unconfirmed one");
  }
}
