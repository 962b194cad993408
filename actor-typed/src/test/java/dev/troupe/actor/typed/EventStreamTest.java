package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.typed.eventstream.EventStream;
import dev.troupe.actor.typed.internal.TypedRefView;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The typed event stream: the classic stream of the same system, commands acting when told,
 * subscriptions by class and superclass, unsubscribe, dead letters through a message adapter, and
 * an adapter whose actor stopped leaving the stream.
 */
class EventStreamTest {
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("event-stream");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private <T> ActorRef<T> spawn(Behavior<T> behavior) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), behavior);
  }

  interface Event {}

  record Price(String symbol, int cents) implements Event {}

  record Volume(String symbol, long shares) implements Event {}

  @Test
  void subscribersHearTheirClassAndItsSubclassesFromTypedAndClassicPublishers() {
    Probe<Price> prices = new Probe<>(system);
    Probe<Event> events = new Probe<>(system);
    ActorRef<EventStream.Command> stream = system.eventStream();
    stream.tell(new EventStream.Subscribe<>(Price.class, prices.ref()));
    stream.tell(new EventStream.Subscribe<>(Event.class, events.ref()));
    // in place at once: no wait between the subscriptions and the publications
    stream.tell(new EventStream.Publish<>(new Price("ACME", 1200)));
    stream.tell(new EventStream.Publish<>(new Volume("ACME", 40)));
    stream.tell(new EventStream.Publish<>("a string: no subscriber"));
    Adapter.toClassic(system).eventStream().publish(new Price("INIT", 7)); // the classic stream is the same
    prices.expect(new Price("ACME", 1200));
    prices.expect(new Price("INIT", 7));
    events.expect(new Price("ACME", 1200));
    events.expect(new Volume("ACME", 40));
    events.expect(new Price("INIT", 7));
    prices.expectNothing(Duration.ofMillis(200));
    events.expectNothing(Duration.ofMillis(50));
  }

  @Test
  void aClassicSubscriberHearsTypedPublications() {
    Probe<Object> classic = new Probe<>(system);
    Adapter.toClassic(system).eventStream().subscribe(Adapter.toClassic(classic.ref()), Volume.class);
    system.eventStream().tell(new EventStream.Publish<>(new Volume("X", 3)));
    classic.expect(new Volume("X", 3));
  }

  @Test
  void unsubscribeEndsEverySubscriptionOfTheSubscriber() {
    Probe<Event> leaving = new Probe<>(system);
    Probe<Event> staying = new Probe<>(system);
    ActorRef<EventStream.Command> stream = system.eventStream();
    stream.tell(new EventStream.Subscribe<>(Event.class, leaving.ref()));
    stream.tell(new EventStream.Subscribe<>(Event.class, staying.ref()));
    stream.tell(new EventStream.Subscribe<>(Event.class.asSubclass(Event.class), leaving.ref()));
    stream.tell(new EventStream.Publish<>(new Volume("A", 1)));
    leaving.expect(new Volume("A", 1)); // once, though subscribed twice
    staying.expect(new Volume("A", 1));
    stream.tell(new EventStream.Unsubscribe<>(leaving.ref()));
    stream.tell(new EventStream.Publish<>(new Volume("B", 2)));
    staying.expect(new Volume("B", 2));
    leaving.expectNothing(Duration.ofMillis(200));
  }

  record Letter(DeadLetter letter) {}

  @Test
  void deadLettersReachAMessageAdapterUntilItsActorStopsAndThenNoLongerLoop() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Object> watcher =
        spawn(
            Behaviors.<Object>setup(
                ctx -> {
                  ActorRef<DeadLetter> adapter = ctx.messageAdapter(DeadLetter.class, Letter::new);
                  ctx.getSystem().eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, adapter));
                  probe.ref().tell("subscribed");
                  return Behaviors.receiveMessage(
                      m -> {
                        probe.ref().tell(m);
                        return "stop".equals(m) ? Behaviors.stopped() : Behaviors.same();
                      });
                }));
    probe.expect("subscribed");
    ActorRef<String> gone = spawn(Behaviors.<String>stopped());
    probe.watch(gone);
    probe.expectTerminated(gone);

    gone.tell("lost");
    Letter first = probe.expectClass(Letter.class);
    assertEquals("lost", first.letter().message());

    watcher.tell("stop");
    probe.expect("stop");
    probe.watch(watcher);
    probe.expectTerminated(watcher);

    // The stopped actor's adapter must have left: were it still subscribed, this dead letter would
    // go to it, its actor's closed mailbox would publish that as a dead letter, and so on.
    Probe<DeadLetter> letters = new Probe<>(system);
    system.eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, letters.ref()));
    gone.tell("lost again");
    DeadLetter only = letters.expectClass(DeadLetter.class);
    assertEquals("lost again", only.message());
    Object next = letters.poll(Duration.ofMillis(300));
    assertTrue(next == null, "one dead letter, then nothing; got " + next);
  }

  @Test
  void anythingButACommandGoesToDeadLetters() {
    Probe<DeadLetter> letters = new Probe<>(system);
    system.eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, letters.ref()));
    system.eventStream().unsafeUpcast().tell("not a command");
    assertEquals("not a command", letters.expectClass(DeadLetter.class).message());
  }

  @Test
  void badCommandsAndSendingTheStreamAwayAreRefusedWhereTheyHappen() {
    assertThrows(NullPointerException.class, () -> new EventStream.Publish<>(null));
    assertThrows(NullPointerException.class, () -> new EventStream.Subscribe<>(null, system.deadLetters()));
    assertThrows(NullPointerException.class, () -> new EventStream.Subscribe<>(String.class, null));
    assertThrows(NullPointerException.class, () -> new EventStream.Unsubscribe<>(null));
    assertThrows(NullPointerException.class, () -> system.eventStream().tell(null));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new TypedRefView().toClassic(system.eventStream()));
    assertTrue(e.getMessage().contains("event stream"), e.getMessage());
    assertEquals("/system/eventStream", system.eventStream().path().toStringWithoutAddress());
  }
}
