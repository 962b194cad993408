package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActorWithStash;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.Props;
import dev.troupe.actor.StashOverflowException;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.UntypedActorWithStash;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.AbstractActor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ActorSystemExtension.class)
class StashTest {

  /** Stashes everything until "open"; then replies to every message with itself. */
  static class Gate extends AbstractActorWithStash {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("open", m -> {
            unstashAll();
            getContext().become(open());
          })
          .matchEquals("boom", m -> { throw new IllegalStateException("boom"); })
          .matchEquals("stash-twice", m -> {
            stash();
            try {
              stash();
            } catch (IllegalStateException e) {
              getSender().tell("second stash refused", getSelf());
            }
          })
          .matchAny(m -> stash())
          .build();
    }

    private Receive open() {
      return receiveBuilder()
          .matchEquals("one-back", m -> unstash())
          .matchAny(m -> getSender().tell(m, getSelf()))
          .build();
    }
  }

  /** Watches a target and stashes everything, Terminated included, until "open"; then reports each message. */
  static class WatchingGate extends AbstractActorWithStash {
    private final ActorRef target;
    private final ActorRef report;

    WatchingGate(ActorRef target, ActorRef report) {
      this.target = target;
      this.report = report;
    }

    @Override
    public void preStart() {
      getContext().watch(target);
      report.tell("watching", getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("open", m -> {
            unstashAll();
            getContext().become(receiveBuilder().matchAny(x -> report.tell(x, getSelf())).build());
          })
          .matchAny(m -> stash())
          .build();
    }
  }

  @Test
  void aStashedTerminatedIsDeliveredWhenUnstashed(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Gate.class));
    ActorRef gate = system.actorOf(Props.create(WatchingGate.class, () -> new WatchingGate(target, kit.getRef())));
    kit.expectMsg("watching");
    kit.watch(target);
    system.stop(target);
    kit.expectTerminated(target);
    kit.send(gate, "after the stop");
    kit.send(gate, "open");
    // the watchers' notifications are sent one after another: the gate's may come after "after the stop"
    List<Object> got = kit.receiveN(2);
    assertTrue(got.contains("after the stop"), "the plain message: " + got);
    assertTrue(got.stream().anyMatch(m -> m instanceof dev.troupe.actor.Terminated t && t.actor().equals(target)),
        "the stashed Terminated comes back: " + got);
    kit.expectNoMessage(Duration.ofMillis(100));
  }

  /** Stashes every string; "release N" hands the N oldest to its behaviour at once (the SPI), then says so. */
  static class Releaser extends AbstractActorWithStash {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Integer.class, n -> {
            dev.troupe.actor.spi.CellSpi cell = (dev.troupe.actor.spi.CellSpi) getContext();
            getContext().become(receiveBuilder()
                .matchEquals("again", m -> stash()) // stashed again while being released: goes to the end
                .matchAny(m -> getSender().tell("released " + m, getSelf()))
                .build(), false);
            for (int i = 0; i < n; i++) {
              cell.deliverStashed();
            }
            getContext().unbecome();
            getSender().tell("released " + n + ", left " + cell.stashSize(), getSelf());
          })
          .matchAny(m -> stash())
          .build();
    }
  }

  @Test
  void deliverStashedHandsTheOldestToTheBehaviourNowWithItsSender(ActorSystem system, TestKit kit) {
    ActorRef releaser = system.actorOf(Props.create(Releaser.class));
    TestProbe other = new TestProbe(system);
    other.send(releaser, "a");
    kit.send(releaser, "again");
    kit.send(releaser, "b");
    kit.send(releaser, "c");
    kit.send(releaser, 3);
    other.expectMsg("released a"); // to its own sender, before the releasing message's reply
    kit.expectMsg("released b");
    kit.expectMsg("released 3, left 2"); // "again" was stashed anew; "c" was not reached
    kit.send(releaser, 5);
    kit.expectMsg("released c");
    kit.expectMsg("released 5, left 1"); // "again" stashes itself once more; nothing else is left
  }

  /** Stashes its first receive timeout (and turns the timeout off), then on "open" reports what comes back. */
  static class TimeoutGate extends AbstractActorWithStash {
    private final ActorRef report;

    TimeoutGate(ActorRef report) {
      this.report = report;
    }

    @Override
    public void preStart() {
      getContext().setReceiveTimeout(Duration.ofMillis(50));
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(dev.troupe.actor.ReceiveTimeout.class, t -> {
            stash();
            getContext().setReceiveTimeout(Duration.ZERO);
            report.tell("stashed the timeout", getSelf());
          })
          .matchEquals("open", m -> {
            unstashAll();
            getContext().become(receiveBuilder().matchAny(x -> report.tell(x, getSelf())).build());
          })
          .build();
    }
  }

  @Test
  void aStashedReceiveTimeoutComesBackAsTheTimeout(ActorSystem system, TestKit kit) {
    ActorRef gate = system.actorOf(Props.create(TimeoutGate.class, () -> new TimeoutGate(kit.getRef())));
    kit.expectMsg("stashed the timeout");
    kit.send(gate, "open");
    kit.expectMsg(dev.troupe.actor.ReceiveTimeout.getInstance()); // not the cell's internal tick
    kit.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void unstashAllReplaysStashedMessagesInOrderBeforeNewerOnes(ActorSystem system, TestKit kit) {
    ActorRef gate = system.actorOf(Props.create(Gate.class));
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      kit.send(gate, i);
      expected.add(i);
    }
    kit.send(gate, "open");
    kit.send(gate, "after");
    expected.add("after");
    assertEquals(expected, kit.receiveN(101));
  }

  @Test
  void stashedMessagesKeepTheirOriginalSenders(ActorSystem system, TestKit kit) {
    ActorRef gate = system.actorOf(Props.create(Gate.class));
    TestProbe other = new TestProbe(system);
    other.send(gate, "from other");
    kit.send(gate, "from kit");
    kit.send(gate, "open");
    other.expectMsg("from other");
    kit.expectMsg("from kit");
  }

  @Test
  void stashingTheSameMessageTwiceIsRefused(ActorSystem system, TestKit kit) {
    ActorRef gate = system.actorOf(Props.create(Gate.class));
    kit.send(gate, "stash-twice");
    kit.expectMsg("second stash refused");
  }

  /** Restarts its child on any failure. */
  static class Restarter extends AbstractActor {
    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Props.class, p -> getSender().tell(getContext().actorOf(p), getSelf()))
          .build();
    }
  }

  @Test
  void stashedMessagesSurviveARestartAndReachTheNewInstance(ActorSystem system, TestKit kit) {
    ActorRef parent = system.actorOf(Props.create(Restarter.class));
    kit.send(parent, Props.create(Gate.class));
    ActorRef gate = kit.expectMsgClass(ActorRef.class);
    kit.send(gate, "a");
    kit.send(gate, "b");
    kit.send(gate, "boom"); // restart: the stash goes back to the mailbox, in order
    kit.send(gate, "open");
    // the new instance stashes a and b again, then "open" unstashes them
    assertEquals(List.of("a", "b"), kit.receiveN(2));
  }

  @Test
  void stashedMessagesGoToDeadLettersWhenTheActorStops(ActorSystem system, TestKit kit) {
    TestProbe dead = new TestProbe(system);
    system.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    ActorRef gate = system.actorOf(Props.create(Gate.class));
    kit.send(gate, "x");
    kit.send(gate, "y");
    kit.watch(gate);
    system.stop(gate);
    kit.expectTerminated(gate);
    DeadLetter first = dead.expectMsgClass(DeadLetter.class);
    DeadLetter second = dead.expectMsgClass(DeadLetter.class);
    assertEquals(List.of("x", "y"), List.of(first.message(), second.message()));
    assertEquals(gate, first.recipient());
  }

  /** An untyped stash: unstashes on "open". */
  static class UntypedGate extends UntypedActorWithStash {
    private boolean open;

    @Override
    public void onReceive(Object m) {
      if ("open".equals(m)) {
        open = true;
        unstashAll();
      } else if (open) {
        getSender().tell(m, getSelf());
      } else {
        stash();
      }
    }
  }

  @Test
  void untypedActorsStashToo(ActorSystem system, TestKit kit) {
    ActorRef gate = system.actorOf(Props.create(UntypedGate.class));
    kit.send(gate, 1);
    kit.send(gate, 2);
    kit.send(gate, "open");
    assertEquals(List.of(1, 2), kit.receiveN(2));
  }

  @Test
  void unstashReturnsOnlyTheOldestMessage(ActorSystem system, TestKit kit) {
    ActorRef gate = system.actorOf(Props.create(Gate.class));
    kit.send(gate, "open");
    kit.send(gate, "first");
    kit.expectMsg("first");
    ActorRef gate2 = system.actorOf(Props.create(OneAtATime.class));
    kit.send(gate2, 1);
    kit.send(gate2, 2);
    kit.send(gate2, "release-one");
    kit.expectMsg(1);
    kit.expectNoMessage(Duration.ofMillis(100));
    kit.send(gate2, "release-one");
    kit.expectMsg(2);
  }

  /** Stashes numbers; "release-one" unstashes one, which it then echoes. */
  static class OneAtATime extends AbstractActorWithStash {
    private int released;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("release-one", m -> {
            released++;
            unstash();
          })
          .match(Integer.class, i -> {
            if (released > 0) {
              released--;
              getSender().tell(i, getSelf());
            } else {
              stash();
            }
          })
          .build();
    }
  }

  @Test
  void aFullStashFailsTheActorWithStashOverflowException() throws Exception {
    ActorSystem small = ActorSystem.create("smallstash", ConfigFactory.parseString("troupe.actor.stash-capacity = 2"));
    try {
      TestKit kit = new TestKit(small);
      TestProbe decisions = new TestProbe(small);
      ActorRef parent = small.actorOf(Props.create(Recording.class, decisions.getRef()));
      kit.send(parent, Props.create(Gate.class));
      ActorRef gate = kit.expectMsgClass(ActorRef.class);
      kit.send(gate, 1);
      kit.send(gate, 2);
      kit.send(gate, 3);
      Throwable t = decisions.expectMsgClass(StashOverflowException.class);
      assertTrue(t.getMessage().contains("capacity 2"), t.getMessage());
    } finally {
      TestKit.shutdownActorSystem(small);
    }
  }

  /** Reports its children's failures to a probe and resumes them. */
  static class Recording extends AbstractActor {
    final ActorRef probe;

    Recording(ActorRef probe) {
      this.probe = probe;
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(DeciderBuilder.matchAny(e -> {
        probe.tell(e, ActorRef.noSender());
        return SupervisorStrategy.resume();
      }).build());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Props.class, p -> getSender().tell(getContext().actorOf(p), getSelf()))
          .build();
    }
  }
}
