package dev.troupe.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.actor.SupervisorStrategy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ActorSystemExtension.class)
class TestActorsTest {
  /** Tells its parent what it is sent, and fails on "fail". */
  public static final class TellsParent extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("fail", m -> { throw new IllegalStateException("failure asked for by the test"); })
          .matchEquals("where", m -> getSender().tell(getSelf().path().toStringWithoutAddress(), getSelf()))
          .matchAny(m -> getContext().getParent().tell("to parent: " + m, getSelf()))
          .build();
    }
  }

  @Test
  void theEchoAnswersEveryMessageUnchanged(ActorSystem system, TestKit kit) {
    ActorRef echo = system.actorOf(TestActors.echoActorProps());
    Object o = new Object();
    kit.send(echo, o);
    assertSame(o, kit.expectMsgClass(Object.class));
    kit.send(echo, 42);
    kit.expectMsg(42);
    assertEquals(echo, kit.getLastSender());
  }

  @Test
  void thePrefixEchoAnswersWithItsPrefix(ActorSystem system, TestKit kit) {
    ActorRef echo = system.actorOf(TestActors.echoActorProps("echo:"));
    kit.send(echo, "hi");
    kit.expectMsg("echo:hi");
    kit.send(echo, 7);
    kit.expectMsg("echo:7");
  }

  @Test
  void theBlackholeAnswersNothingAndLogsNothingUnhandled(ActorSystem system, TestKit kit) {
    system.eventStream().subscribe(kit.getRef(), dev.troupe.actor.UnhandledMessage.class);
    ActorRef hole = system.actorOf(TestActors.blackholeProps());
    kit.send(hole, "anyone?");
    kit.watch(hole);
    kit.send(hole, dev.troupe.actor.PoisonPill.getInstance()); // after "anyone?": nothing came back before it stopped
    kit.expectTerminated(hole);
    kit.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void theForwarderKeepsTheOriginalSender(ActorSystem system, TestKit kit) {
    TestProbe target = new TestProbe(system);
    ActorRef forwarder = system.actorOf(TestActors.forwardActorProps(target.getRef()));
    kit.send(forwarder, "m");
    target.expectMsg("m");
    assertEquals(kit.getRef(), target.getLastSender());
  }

  @Test
  void theRelaySendsAsItself(ActorSystem system, TestKit kit) {
    TestProbe target = new TestProbe(system);
    ActorRef relay = system.actorOf(TestActors.relayActorProps(target.getRef()));
    kit.send(relay, "m");
    target.expectMsg("m");
    assertEquals(relay, target.getLastSender());
  }

  @Test
  void theForwardingParentPutsTheActorUnderTestBelowItAndShowsWhatItTellsItsParent(ActorSystem system, TestKit kit) {
    TestProbe observer = new TestProbe(system);
    ActorRef parent = system.actorOf(
        TestActors.forwardingParentProps(Props.create(TellsParent.class), "child", observer.getRef()), "parent");
    kit.send(parent, "where");                                  // forwarded: the child answers the kit
    kit.expectMsg("/user/parent/child");
    kit.send(parent, "hello");
    observer.expectMsg("to parent: hello");
    assertEquals("child", observer.getLastSender().path().name(), "forwarded with the child as sender");
    kit.send(parent, "fail");                                   // the default strategy restarts it
    kit.send(parent, "again");
    observer.expectMsg("to parent: again");
    kit.expectNoMessage(Duration.ofMillis(50));
  }

  @Test
  void theChildMakerAnswersWithTheChildOrTheFailure(ActorSystem system, TestKit kit) {
    ActorRef maker = system.actorOf(TestActors.childMakerProps(TestActors.echoActorProps()), "maker");
    kit.send(maker, "one");
    ActorRef one = kit.expectMsgClass(ActorRef.class);
    assertEquals("/user/maker/one", one.path().toStringWithoutAddress());
    kit.send(one, "ping");
    kit.expectMsg("ping");
    kit.send(maker, "one");                                     // taken
    Status.Failure taken = kit.expectMsgClass(Status.Failure.class);
    assertTrue(taken.cause() instanceof InvalidActorNameException, taken.toString());
  }

  @Test
  void theChildMakersStrategyHandlesItsChildren(ActorSystem system, TestKit kit) {
    ActorRef maker = system.actorOf(
        TestActors.childMakerProps(Props.create(TellsParent.class), SupervisorStrategy.stoppingStrategy()));
    kit.send(maker, "c");
    ActorRef c = kit.expectMsgClass(ActorRef.class);
    kit.watch(c);
    kit.send(c, "fail");
    kit.expectTerminated(c);
  }

  @Test
  void nullArgumentsFailAtTheCall() {
    assertThrows(NullPointerException.class, () -> TestActors.forwardActorProps(null));
    assertThrows(NullPointerException.class, () -> TestActors.relayActorProps(null));
    assertThrows(NullPointerException.class, () -> TestActors.echoActorProps(null));
    assertThrows(NullPointerException.class, () -> TestActors.childMakerProps(null));
  }
}
