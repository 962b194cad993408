package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Death watch across nodes (over the control lane): a watched remote actor's stop, a watch of an
 * actor that is gone or never was, a stop sent from the other node, and the link's lifecycle
 * events.
 */
class RemoteDeathWatchTest {
  /** Does nothing but live. */
  static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE);

  static ActorSystem a;
  static ActorSystem b;

  @BeforeAll
  static void nodes() {
    a = TROUPE.system();
    b = TROUPE.createSystem("");
  }

  @Test
  void aWatchedRemoteActorThatStopsIsReportedTerminatedWithExistenceConfirmed() {
    b.actorOf(Props.create(Idle.class), "mortal");
    ActorRef mortal = Nodes.lookup(a, b, "/user/mortal");
    TestKit probe = new TestKit(a);
    probe.watch(mortal);

    mortal.tell(PoisonPill.getInstance(), ActorRef.noSender());

    Terminated t = probe.expectTerminated(Nodes.WAIT, mortal);
    assertTrue(t.existenceConfirmed(), "existence confirmed: " + t);
    assertFalse(t.addressTerminated(), "not the whole node: " + t);
  }

  @Test
  void watchingAnActorThatIsAlreadyGoneIsAnsweredPromptly() {
    ActorRef local = b.actorOf(Props.create(Idle.class), "short-lived");
    ActorRef stale = Nodes.lookup(a, b, "/user/short-lived");
    TestKit onB = new TestKit(b);
    onB.watch(local);
    b.stop(local);
    onB.expectTerminated(Nodes.WAIT, local);

    TestKit probe = new TestKit(a);
    probe.watch(stale);

    Terminated t = probe.expectTerminated(Nodes.WAIT, stale);
    assertFalse(t.existenceConfirmed(), "the actor was gone before the watch arrived: " + t);
  }

  @Test
  void watchingAPathThatNeverExistedIsAnsweredPromptly() {
    ActorPath never = ActorPath.fromString(b.address() + "/user/never-was#4242");
    ActorRef ghost = ((RuntimeSystem) a).provider().resolveActorRef(never);
    assertFalse(((RuntimeSystem) a).provider().resolveActorRef(never).path().address().equals(a.address()));
    TestKit probe = new TestKit(a);

    probe.watch(ghost);

    Terminated t = probe.expectTerminated(Nodes.WAIT, ghost);
    assertFalse(t.existenceConfirmed(), t.toString());
  }

  @Test
  void stoppingARemoteActorStopsIt() {
    ActorRef local = b.actorOf(Props.create(Idle.class), "stoppable");
    TestKit onB = new TestKit(b);
    onB.watch(local);
    ActorRef remote = Nodes.lookup(a, b, "/user/stoppable");

    a.stop(remote);

    onB.expectTerminated(Nodes.WAIT, local);
  }

  @Test
  void anUnwatchedRemoteActorsStopIsNotReported() {
    b.actorOf(Props.create(Idle.class), "unwatched");
    ActorRef remote = Nodes.lookup(a, b, "/user/unwatched");
    TestKit probe = new TestKit(a);
    probe.watch(remote);
    probe.unwatch(remote);
    TestKit sync = new TestKit(a);
    sync.watch(remote);

    a.stop(remote); // on the control lane, after the unwatch and the other watch

    sync.expectTerminated(Nodes.WAIT, remote);
    probe.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void linksToANodePublishAssociatedWhenTheyOpenAndDisassociatedWhenTheNodeLeaves() {
    ActorSystem c = TROUPE.createSystem("");
    ActorSystem d = TROUPE.createSystem("");
    TestKit events = new TestKit(d);
    d.eventStream().subscribe(events.getRef(), RemotingLifecycleEvent.class);
    c.actorOf(Props.create(Idle.class), "idle");

    Nodes.lookup(d, c, "/user/idle");
    assertEquals(new AssociatedEvent(c.address()), events.expectMsgClass(Nodes.WAIT, AssociatedEvent.class));

    TestKit.shutdownActorSystem(c);
    assertEquals(new DisassociatedEvent(c.address()), events.expectMsgClass(Nodes.WAIT, DisassociatedEvent.class));
  }
}
