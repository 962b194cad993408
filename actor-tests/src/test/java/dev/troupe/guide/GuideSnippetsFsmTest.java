package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.AbstractFSM;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.FSM;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The finite-state machine of the guide, compiled and run: a door that opens, counts its openings,
 * closes by itself after a pause, and tells its subscribers each change.
 */
@ExtendWith(ActorSystemExtension.class)
class GuideSnippetsFsmTest {
  enum DoorState { CLOSED, OPEN }

  // tag::fsm[]
  /** Opens on "open", closes on "close" or by itself after a pause; its data counts the openings. */
  static final class Door extends AbstractFSM<DoorState, Integer> {
    Door(Duration pause) {
      startWith(DoorState.CLOSED, 0);
      when(DoorState.CLOSED,
          matchEventEquals("open", (open, opened) -> goTo(DoorState.OPEN).using(opened + 1).replying("opened")));
      when(DoorState.OPEN, pause,                                     // StateTimeout after a pause without events
          matchEventEquals("close", (close, opened) -> goTo(DoorState.CLOSED).replying("closed"))
              .eventEquals(StateTimeout(), (timeout, opened) -> goTo(DoorState.CLOSED)));
      whenUnhandled(
          matchAnyEvent((event, opened) -> stay().replying("the door is " + stateName())));
      onTransition(
          matchState(DoorState.OPEN, DoorState.CLOSED, () -> log().info("closed after {} openings", nextStateData())));
      initialize();
    }
  }
  // end::fsm[]

  @Test
  void theDoorOpensClosesByItselfAndTellsItsSubscribers(ActorSystem system, TestKit kit) {
    ActorRef door = system.actorOf(Props.create(Door.class, () -> new Door(Duration.ofMillis(200))));
    TestKit watcher = new TestKit(system);
    // tag::fsm-subscribe[]
    door.tell(new FSM.SubscribeTransitionCallBack(watcher.getRef()), ActorRef.noSender());
    // watcher gets CurrentState(door, CLOSED), then Transition(door, CLOSED, OPEN), ...
    // end::fsm-subscribe[]
    assertEquals(new FSM.CurrentState<>(door, DoorState.CLOSED), watcher.expectMsgClass(FSM.CurrentState.class));
    kit.send(door, "close");
    kit.expectMsg("the door is CLOSED");
    kit.send(door, "open");
    kit.expectMsg("opened");
    assertEquals(new FSM.Transition<>(door, DoorState.CLOSED, DoorState.OPEN), watcher.expectMsgClass(FSM.Transition.class));
    // no event for the pause: it closes by itself
    assertEquals(new FSM.Transition<>(door, DoorState.OPEN, DoorState.CLOSED),
        watcher.expectMsgClass(Duration.ofSeconds(10), FSM.Transition.class));
    kit.send(door, "open");
    kit.expectMsg("opened");
    kit.send(door, "close");
    kit.expectMsg("closed");
  }
}
