package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.NotInfluenceReceiveTimeout;
import dev.troupe.actor.Props;
import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.actor.UntypedActor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** setReceiveTimeout: fires after inactivity, reset by messages, off with zero. */
class ReceiveTimeoutTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  record Quiet() implements NotInfluenceReceiveTimeout {}

  /** Reports each ReceiveTimeout with the idle time since the last influencing message. */
  static final class Sleepy extends UntypedActor {
    private final ActorRef report;
    private final Duration timeout;
    private final Boolean turnOffAfterFirst;
    private long lastInfluencing = System.nanoTime();

    Sleepy(ActorRef report, Duration timeout, Boolean turnOffAfterFirst) {
      this.report = report;
      this.timeout = timeout;
      this.turnOffAfterFirst = turnOffAfterFirst;
    }

    @Override
    public void preStart() {
      getContext().setReceiveTimeout(timeout);
    }

    @Override
    public void onReceive(Object message) {
      if (message == ReceiveTimeout.getInstance()) {
        report.tell(Duration.ofNanos(System.nanoTime() - lastInfluencing), getSelf());
        if (turnOffAfterFirst) {
          getContext().setReceiveTimeout(Duration.ZERO);
          report.tell(getContext().getReceiveTimeout(), getSelf());
        }
      } else if (!(message instanceof NotInfluenceReceiveTimeout)) {
        lastInfluencing = System.nanoTime();
      }
    }
  }

  private static final Duration TIMEOUT = Duration.ofMillis(200);

  @Test
  void aReceiveTimeoutArrivesAfterInactivity(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    sys.actorOf(Props.create(Sleepy.class, p.getRef(), TIMEOUT, false));
    Duration idle = p.expectMsgClass(Duration.class);
    assertTrue(idle.compareTo(TIMEOUT) >= 0, "fired after only " + idle);
    Duration again = p.expectMsgClass(Duration.class); // it repeats while the actor stays idle
    assertTrue(again.compareTo(TIMEOUT) >= 0, "fired after only " + again);
  }

  @Test
  void messagesResetTheReceiveTimeout(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(Sleepy.class, p.getRef(), TIMEOUT, false));
    // a message every 20 ms for 3 timeouts: a timeout that ignored them would fire with a short idle time
    Cancellable c = sys.scheduler().scheduleAtFixedRate(
        Duration.ZERO, Duration.ofMillis(20), a, "busy", sys.dispatcher(), ActorRef.noSender());
    sys.scheduler().scheduleOnce(TIMEOUT.multipliedBy(3), c::cancel, sys.dispatcher());
    Duration idle = p.expectMsgClass(Duration.class);
    assertTrue(idle.compareTo(TIMEOUT) >= 0, "fired only " + idle + " after the last message");
  }

  @Test
  void notInfluenceReceiveTimeoutMessagesDoNotResetIt(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(Sleepy.class, p.getRef(), TIMEOUT, false));
    Cancellable c = sys.scheduler().scheduleAtFixedRate(
        Duration.ZERO, Duration.ofMillis(20), a, new Quiet(), sys.dispatcher(), ActorRef.noSender());
    try {
      // fires while the quiet stream goes on
      Duration idle = p.expectMsgClass(Duration.class);
      assertTrue(idle.compareTo(TIMEOUT) >= 0, "fired after only " + idle);
    } finally {
      c.cancel();
    }
  }

  @Test
  void aZeroReceiveTimeoutTurnsItOff(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    sys.actorOf(Props.create(Sleepy.class, p.getRef(), TIMEOUT, true));
    p.expectMsgClass(Duration.class);
    p.expectMsg(Duration.ZERO);
    p.expectNoMessage(TIMEOUT.multipliedBy(3)); // nothing more: waiting is the behaviour under test
  }
}
