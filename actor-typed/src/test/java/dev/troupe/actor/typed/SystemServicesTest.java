package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.typed.eventstream.EventStream;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a typed system offers beside its guardian: {@code systemActorOf} (actors under {@code
 * /system}, stopped by a failure, stopped after the user's actors), {@code ignoreRef()} and {@link
 * ActorRefResolver} (refs to text and back, in one system; across nodes in actor-tests).
 */
class SystemServicesTest {
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("services");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  /** Echoes to the probe; throws on "boom"; tells the probe it stopped. */
  private static Behavior<String> echo(Probe<Object> probe, String tag) {
    return Behaviors.receive(String.class)
        .onMessageEquals("boom", () -> {
          throw new IllegalStateException("boom");
        })
        .onMessage(String.class, m -> {
          probe.ref().tell(tag + ":" + m);
          return Behaviors.same();
        })
        .onSignal(PostStop.class, s -> {
          probe.ref().tell(tag + " stopped");
          return Behaviors.same();
        })
        .build();
  }

  /** Echoes to the probe, and nothing else. */
  private static Behavior<String> quietEcho(Probe<Object> probe, String tag) {
    return Behaviors.receive(String.class)
        .onMessage(String.class, m -> {
          probe.ref().tell(tag + ":" + m);
          return Behaviors.same();
        })
        .build();
  }

  @Test
  void aSystemActorLivesUnderSystemAndAFailureStopsIt() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<String> service = system.systemActorOf(echo(probe, "svc"), "my-service", Props.empty());
    assertEquals("my-service", service.path().name());
    assertEquals("system", service.path().parent().name());
    assertEquals(service.path().root(), service.path().parent().parent(), "a child of /system");
    service.tell("hello");
    probe.expect("svc:hello");

    probe.watch(service);
    service.tell("boom");
    // not restarted by the /system guardian's default strategy: stopped, as a typed child is (its
    // PostStop's word and the probe's Terminated come in either order)
    Object one = probe.receive();
    Object two = probe.receive();
    Object word = one instanceof Terminated ? two : one;
    Terminated end = (Terminated) (one instanceof Terminated ? one : two);
    assertEquals("svc stopped", word);
    assertEquals(service, end.getRef());
    service.tell("after");
    probe.expectNothing(Duration.ofMillis(200));

    // the name is free again once it stopped
    ActorRef<String> again = system.systemActorOf(echo(probe, "again"), "my-service", Props.empty());
    again.tell("x");
    probe.expect("again:x");
  }

  @Test
  void badNamesAndArgumentsAreRefusedWhereTheyAreGiven() {
    Probe<Object> probe = new Probe<>(system);
    system.systemActorOf(echo(probe, "a"), "taken", Props.empty());
    assertThrows(InvalidActorNameException.class, () -> system.systemActorOf(echo(probe, "b"), "taken", Props.empty()));
    assertThrows(InvalidActorNameException.class, () -> system.systemActorOf(echo(probe, "b"), "$reserved", Props.empty()));
    assertThrows(InvalidActorNameException.class, () -> system.systemActorOf(echo(probe, "b"), "no/slash", Props.empty()));
    assertThrows(InvalidActorNameException.class, () -> system.systemActorOf(echo(probe, "b"), null, Props.empty()));
    assertThrows(NullPointerException.class, () -> system.systemActorOf(null, "x", Props.empty()));
    assertThrows(NullPointerException.class, () -> system.systemActorOf(echo(probe, "b"), "x", null));
  }

  @Test
  void systemActorsStopAfterTheUsersActorsAndNoneStartsOnceTheSystemIsGone() {
    ActorSystem<Void> s = Systems.empty("ordered-stop");
    List<String> stops = new CopyOnWriteArrayList<>();
    Behavior<String> recorder =
        Behaviors.setup(ctx -> Behaviors.receive(String.class)
            .onSignal(PostStop.class, sig -> {
              stops.add(ctx.getSelf().path().parent().name());
              return Behaviors.same();
            })
            .build());
    s.systemActorOf(recorder, "service", Props.empty());
    Adapter.spawn(Adapter.toClassic(s), recorder, "user-actor");
    Adapter.spawn(Adapter.toClassic(s), recorder, "user-actor-2");
    Systems.terminate(s);
    assertEquals(List.of("user", "user", "system"), stops, "the order in which the actors stopped (their parents)");
    assertThrows(IllegalStateException.class, () -> s.systemActorOf(recorder, "late", Props.empty()));
  }

  @Test
  void theIgnoreRefDropsEverythingWithoutADeadLetter() {
    Probe<DeadLetter> letters = new Probe<>(system);
    system.eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, letters.ref()));
    ActorRef<String> ignore = system.ignoreRef();
    assertTrue(ignore.path().toString().endsWith("/ignore"), ignore.path().toString());
    assertEquals(ignore, system.<Integer>ignoreRef().unsafeUpcast(), "one per system");
    ignore.tell("dropped");
    system.<String>deadLetters().tell("marker");
    // the event stream keeps each publisher's order: had the ignored message been a dead letter, it
    // would come before the marker
    assertEquals("marker", letters.expectClass(DeadLetter.class).message());
    assertThrows(NullPointerException.class, () -> ignore.tell(null));
    // it stands for nothing on another node
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ActorRefResolver.get(system).toSerializationFormat(ignore));
    assertTrue(e.getMessage().contains("ignoreRef"), e.getMessage());
  }

  @Test
  void aResolvedRefIsTheActorItWasWrittenFrom() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<String> actor = Adapter.spawn(Adapter.toClassic(system), quietEcho(probe, "a"), "resolvable");
    ActorRefResolver resolver = ActorRefResolver.get(system);
    String text = resolver.toSerializationFormat(actor);
    assertTrue(text.startsWith("troupe://services/user/resolvable#"), text);
    ActorRef<String> back = resolver.resolveActorRef(text);
    assertEquals(actor, back);
    back.tell("through the resolved ref");
    probe.expect("a:through the resolved ref");
    assertEquals(text, ActorRefResolver.get(system).toSerializationFormat(back), "the same text again");
  }

  @Test
  void aPathNothingLivesAtOrAnEarlierIncarnationResolvesToDeadLetters() {
    Probe<Object> probe = new Probe<>(system);
    Probe<DeadLetter> letters = new Probe<>(system);
    system.eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, letters.ref()));
    ActorRefResolver resolver = ActorRefResolver.get(system);

    ActorRef<String> first = Adapter.spawn(Adapter.toClassic(system), quietEcho(probe, "first"), "reborn");
    String oldText = resolver.toSerializationFormat(first);
    probe.watch(first);
    Adapter.toClassic(system).stop(Adapter.toClassic(first));
    probe.expectTerminated(first);
    ActorRef<String> second = Adapter.spawn(Adapter.toClassic(system), quietEcho(probe, "second"), "reborn");
    String newText = resolver.toSerializationFormat(second);
    assertNotEquals(oldText, newText, "a new incarnation has a new uid");

    resolver.<String>resolveActorRef(oldText).tell("to the old one");
    assertEquals("to the old one", letters.expectClass(DeadLetter.class).message());
    resolver.<String>resolveActorRef("troupe://services/user/nobody-here").tell("to nobody");
    assertEquals("to nobody", letters.expectClass(DeadLetter.class).message());
    resolver.<String>resolveActorRef(newText).tell("to the new one");
    probe.expect("second:to the new one");
  }

  @Test
  void textThatIsNoPathAndRefsThatDoNotTravelAreRefused() {
    ActorRefResolver resolver = ActorRefResolver.get(system);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> resolver.resolveActorRef("not a path"));
    assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
    assertThrows(NullPointerException.class, () -> resolver.resolveActorRef(null));
    assertThrows(NullPointerException.class, () -> resolver.toSerializationFormat(null));
    assertThrows(NullPointerException.class, () -> ActorRefResolver.get(null));
    e = assertThrows(IllegalArgumentException.class, () -> resolver.toSerializationFormat(system.eventStream()));
    assertTrue(e.getMessage().contains("event stream"), e.getMessage());
    Probe<Object> probe = new Probe<>(system);
    Adapter.spawnAnonymous(
            Adapter.toClassic(system),
            Behaviors.setup(ctx -> {
              ActorRef<Integer> adapter = ctx.messageAdapter(Integer.class, i -> i);
              try {
                resolver.toSerializationFormat(adapter);
                probe.ref().tell("written");
              } catch (IllegalArgumentException refused) {
                probe.ref().tell(refused.getMessage());
              }
              return Behaviors.ignore();
            }));
    String said = (String) probe.receive();
    assertTrue(said.contains("message adapter"), said);
  }
}
