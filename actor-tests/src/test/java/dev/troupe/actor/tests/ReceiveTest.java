package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UnhandledMessage;
import dev.troupe.actor.UntypedActor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** UntypedActor.onReceive and AbstractActor's receiveBuilder: matching and unhandled messages. */
class ReceiveTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  static final class Classic extends UntypedActor {
    private final ActorRef report;

    Classic(ActorRef report) {
      this.report = report;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof String s) {
        report.tell("string:" + s, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  record Shape(String kind, int size) {}

  static final class Fluent extends AbstractActor {
    private final ActorRef report;

    Fluent(ActorRef report) {
      this.report = report;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("exact", m -> report.tell("equals:" + m, getSelf()))
          .match(String.class, s -> s.startsWith("x"), s -> report.tell("x-string:" + s, getSelf()))
          .match(String.class, s -> report.tell("string:" + s, getSelf()))
          .match(Shape.class, s -> s.size() > 10, s -> report.tell("big " + s.kind(), getSelf()))
          .match(Shape.class, s -> report.tell("small " + s.kind(), getSelf()))
          .match(Integer.class, i -> report.tell("int:" + i, getSelf()))
          .match(Number.class, n -> report.tell("number:" + n, getSelf()))
          .matchEquals(42L, m -> report.tell("never: Number matched first", getSelf()))
          .build();
    }
  }

  static final class CatchAll extends AbstractActor {
    private final ActorRef report;

    CatchAll(ActorRef report) {
      this.report = report;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Integer.class, i -> report.tell("int:" + i, getSelf()))
          .matchAny(m -> report.tell("any:" + m, getSelf()))
          .match(String.class, s -> report.tell("never: after matchAny", getSelf()))
          .build();
    }
  }

  @Test
  void anUntypedActorReceivesEveryMessageInOnReceive(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(Classic.class, p.getRef()));
    a.tell("one", ActorRef.noSender());
    a.tell("two", ActorRef.noSender());
    p.expectMsg("string:one");
    p.expectMsg("string:two");
  }

  @Test
  void receiveBuilderCasesAreTriedInOrderWithTheirPredicates(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(Fluent.class, p.getRef()));
    for (Object m : new Object[] {"exact", "xylophone", "plain", new Shape("box", 20), new Shape("dot", 1), 7, 42L}) {
      a.tell(m, ActorRef.noSender());
    }
    p.expectMsg("equals:exact");
    p.expectMsg("x-string:xylophone");
    p.expectMsg("string:plain");
    p.expectMsg("big box");
    p.expectMsg("small dot");
    p.expectMsg("int:7");
    p.expectMsg("number:42");
  }

  @Test
  void matchAnyCatchesEverythingNotMatchedBefore(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(CatchAll.class, p.getRef()));
    a.tell(1, ActorRef.noSender());
    a.tell("s", ActorRef.noSender());
    p.expectMsg("int:1");
    p.expectMsg("any:s");
  }

  @Test
  void anUnhandledMessageIsPublishedAsUnhandledMessage(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    TestProbe events = new TestProbe(sys);
    TestProbe sender = new TestProbe(sys);
    sys.eventStream().subscribe(events.getRef(), UnhandledMessage.class);
    ActorRef classic = sys.actorOf(Props.create(Classic.class, p.getRef()));
    ActorRef fluent = sys.actorOf(Props.create(Fluent.class, p.getRef()));
    classic.tell(3.14, sender.getRef());
    events.expectMsg(new UnhandledMessage(3.14, sender.getRef(), classic));
    fluent.tell(new Object[0].getClass(), sender.getRef());
    UnhandledMessage u = events.expectMsgClass(UnhandledMessage.class);
    assertEquals(fluent, u.recipient());
    assertEquals(Object[].class, u.message());
    // the actor goes on working after an unhandled message
    fluent.tell("plain", ActorRef.noSender());
    p.expectMsg("string:plain");
    p.expectNoMessage(Duration.ofMillis(50));
  }
}
