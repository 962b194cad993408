package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.Props;
import dev.troupe.pattern.BackoffOpts;
import dev.troupe.pattern.BackoffSupervisor;
import dev.troupe.pattern.BackoffSupervisor.CurrentChild;
import dev.troupe.pattern.BackoffSupervisor.GetCurrentChild;
import dev.troupe.pattern.BackoffSupervisor.GetRestartCount;
import dev.troupe.pattern.BackoffSupervisor.RestartCount;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** BackoffSupervisor: forwarding, dead letters while down, growing delays, retry limit, reset. */
class BackoffSupervisorTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static final Duration LONG = Duration.ofMinutes(1);

  static final class Boom extends RuntimeException implements ExpectedFailure {
    Boom() {
      super("failing on purpose");
    }
  }

  /** Reports its start (with System.nanoTime); echoes; fails on "boom", stops on "stop". */
  static final class Child extends AbstractActor {
    private final ActorRef report;
    private final boolean failAtStart;

    Child(ActorRef report, Boolean failAtStart) {
      this.report = report;
      this.failAtStart = failAtStart;
    }

    @Override
    public void preStart() {
      report.tell(new Started(getSelf(), System.nanoTime()), getSelf());
      if (failAtStart) {
        throw new Boom();
      }
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("boom", m -> {
            throw new Boom();
          })
          .matchEquals("stop", m -> getContext().stop(getSelf()))
          .matchAny(m -> getSender().tell("echo:" + m, getSelf()))
          .build();
    }
  }

  record Started(ActorRef child, long nanos) {}

  private static Props child(TestProbe report, boolean failAtStart) {
    return Props.create(Child.class, report.getRef(), failAtStart);
  }

  private static Object ask(TestProbe p, ActorRef sup, Object m) {
    return p.awaitResult(Patterns.ask(sup, m, RuntimeFixtures.TIMEOUT));
  }

  @Test
  void messagesAreForwardedToTheChildWithTheirSender(ActorSystem sys) {
    TestProbe starts = new TestProbe(sys);
    TestProbe p = new TestProbe(sys);
    ActorRef sup = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(starts, false), "c", Duration.ofMillis(50), LONG, 0.0)));
    ActorRef c = starts.expectMsgClass(Started.class).child();
    p.send(sup, "hi");
    p.expectMsg("echo:hi");
    assertEquals(c, p.getLastSender(), "the reply comes from the child itself");
    assertEquals(new CurrentChild(Optional.of(c)), ask(p, sup, new GetCurrentChild()));
    assertEquals(sup.path(), c.path().parent(), "the child is the supervisor's");
  }

  @Test
  void messagesWhileTheChildIsDownGoToDeadLetters(ActorSystem sys) {
    TestProbe starts = new TestProbe(sys);
    TestProbe p = new TestProbe(sys);
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    ActorRef sup = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(starts, false), "c", LONG, LONG, 0.0)));
    starts.expectMsgClass(Started.class);
    sup.tell("boom", ActorRef.noSender());
    p.awaitCond(() -> ask(p, sup, new GetCurrentChild()).equals(new CurrentChild(Optional.empty())));
    p.send(sup, "lost");
    DeadLetter d = (DeadLetter) dead.fishForMessage(RuntimeFixtures.TIMEOUT, "the dead letter of 'lost'",
        m -> ((DeadLetter) m).message().equals("lost"));
    assertEquals(p.getRef(), d.sender());
    assertEquals(sup, d.recipient());
    assertEquals(new RestartCount(1), ask(p, sup, new GetRestartCount()));
  }

  @Test
  void aReplyWhileStoppedAnswersInsteadOfDeadLetters(ActorSystem sys) {
    TestProbe starts = new TestProbe(sys);
    TestProbe p = new TestProbe(sys);
    ActorRef sup = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(starts, false), "c", LONG, LONG, 0.0).withReplyWhileStopped("down")));
    starts.expectMsgClass(Started.class);
    sup.tell("boom", ActorRef.noSender());
    p.awaitCond(() -> ask(p, sup, new GetCurrentChild()).equals(new CurrentChild(Optional.empty())));
    p.send(sup, "hello?");
    p.expectMsg("down");
  }

  @Test
  void restartDelaysGrowExponentially(ActorSystem sys) {
    TestProbe starts = new TestProbe(sys);
    long min = Duration.ofMillis(100).toNanos();
    sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(starts, true), "c", Duration.ofNanos(min), LONG, 0.0)
            .withAutoReset(LONG)));
    List<Long> gaps = new ArrayList<>();
    long prev = starts.expectMsgClass(Started.class).nanos();
    for (int k = 0; k < 4; k++) {
      long next = starts.expectMsgClass(Started.class).nanos();
      gaps.add(next - prev);
      prev = next;
    }
    for (int k = 0; k < gaps.size(); k++) {
      assertTrue(gaps.get(k) >= min << k, "gap " + k + " shorter than " + (min << k) + " ns: " + gaps);
    }
    assertTrue(gaps.get(3) > gaps.get(0) && gaps.get(3) > gaps.get(1), "the delays did not grow: " + gaps);
  }

  @Test
  void theSupervisorStopsItselfAfterMaxNrOfRetries(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef sup = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(p, true), "c", Duration.ofMillis(10), Duration.ofMillis(40), 0.5)
            .withMaxNrOfRetries(2)
            .withAutoReset(LONG)));
    p.watch(sup);
    int startsSeen = 0;
    while (true) {
      Object m = p.expectMsgClass(Object.class);
      if (m instanceof Started) {
        startsSeen++;
      } else {
        assertEquals(sup, ((dev.troupe.actor.Terminated) m).actor());
        break;
      }
    }
    assertEquals(3, startsSeen, "the first child and two retries");
  }

  @Test
  void theFailureLineSaysTheChildIsRestartedAfterBackoffNotStopped(ActorSystem sys) {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor." + sys.name());
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      TestProbe p = new TestProbe(sys);
      ActorRef sup = sys.actorOf(BackoffSupervisor.props(
          BackoffOpts.onFailure(child(p, true), "c", Duration.ofMillis(10), Duration.ofMillis(40), 0.0)
              .withMaxNrOfRetries(2)));
      p.watch(sup);
      p.fishForMessage(RuntimeFixtures.TIMEOUT, "the supervisor's end", m -> m instanceof dev.troupe.actor.Terminated);

      List<String> lines = new ArrayList<>();
      synchronized (appender) {
        for (ILoggingEvent e : appender.list) {
          if (e.getMessage().startsWith("{} failed: ")) {
            lines.add(e.getFormattedMessage());
          }
        }
      }
      assertEquals(3, lines.size(), lines.toString());
      assertTrue(lines.get(0).endsWith("; restart after backoff of 10 ms (restart 1 of 2)"), lines.get(0));
      assertTrue(lines.get(1).endsWith("; restart after backoff of 20 ms (restart 2 of 2)"), lines.get(1));
      assertTrue(
          lines.get(2).endsWith("; stop (backoff restart limit of 2 reached; the backoff supervisor stops too)"),
          lines.get(2));
    } finally {
      logger.detachAppender(appender);
    }
  }

  @Test
  void onStopRecreatesAChildThatStopped(ActorSystem sys) {
    TestProbe starts = new TestProbe(sys);
    TestProbe p = new TestProbe(sys);
    ActorRef sup = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onStop(child(starts, false), "c", Duration.ofMillis(50), LONG, 0.2).withAutoReset(LONG)));
    ActorRef first = starts.expectMsgClass(Started.class).child();
    sup.tell("stop", ActorRef.noSender());
    ActorRef second = starts.expectMsgClass(Started.class).child();
    assertNotEquals(first, second, "a new child");
    assertEquals(new RestartCount(1), ask(p, sup, new GetRestartCount()));
    p.send(sup, "again");
    p.expectMsg("echo:again");
  }

  @Test
  void onFailureStopsTheSupervisorWhenTheChildStopsByItself(ActorSystem sys) {
    TestProbe starts = new TestProbe(sys);
    TestProbe p = new TestProbe(sys);
    ActorRef sup = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(starts, false), "c", Duration.ofMillis(10), LONG, 0.0)));
    starts.expectMsgClass(Started.class);
    p.watch(sup);
    sup.tell("stop", ActorRef.noSender());
    p.expectTerminated(sup);
  }

  @Test
  void theRetryCountResetsAfterAGoodRunOrOnReset(ActorSystem sys) {
    TestProbe starts = new TestProbe(sys);
    TestProbe p = new TestProbe(sys);
    ActorRef sup = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(starts, false), "c", Duration.ofMillis(20), LONG, 0.0)
            .withAutoReset(Duration.ofMillis(300))));
    starts.expectMsgClass(Started.class);
    sup.tell("boom", ActorRef.noSender());
    starts.expectMsgClass(Started.class);
    sup.tell("boom", ActorRef.noSender());
    starts.expectMsgClass(Started.class);
    RestartCount afterTwo = (RestartCount) ask(p, sup, new GetRestartCount());
    assertTrue(afterTwo.count() == 2 || afterTwo.count() == 0, "count " + afterTwo); // 0 if this box paused 300 ms
    p.awaitCond(() -> ask(p, sup, new GetRestartCount()).equals(new RestartCount(0)));

    ActorRef manual = sys.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(child(starts, false), "m", Duration.ofMillis(20), LONG, 0.0).withManualReset()));
    starts.expectMsgClass(Started.class);
    manual.tell("boom", ActorRef.noSender());
    starts.expectMsgClass(Started.class);
    assertEquals(new RestartCount(1), ask(p, manual, new GetRestartCount()));
    manual.tell(new BackoffSupervisor.Reset(), ActorRef.noSender());
    assertEquals(new RestartCount(0), ask(p, manual, new GetRestartCount()));
  }

  @Test
  void calculateDelayIsCappedJitteredAndNeverOverflows() {
    Duration min = Duration.ofMillis(100);
    Duration max = Duration.ofSeconds(10);
    assertEquals(Duration.ofMillis(100), BackoffSupervisor.calculateDelay(0, min, max, 0.0));
    assertEquals(Duration.ofMillis(800), BackoffSupervisor.calculateDelay(3, min, max, 0.0));
    assertEquals(max, BackoffSupervisor.calculateDelay(7, min, max, 0.0));
    assertEquals(max, BackoffSupervisor.calculateDelay(Integer.MAX_VALUE, min, max, 0.0));
    assertEquals(max, BackoffSupervisor.calculateDelay(63, Duration.ofNanos(1), max, 0.0));
    for (int i = 0; i < 1000; i++) {
      Duration d = BackoffSupervisor.calculateDelay(1, min, max, 0.5);
      assertTrue(d.compareTo(Duration.ofMillis(200)) >= 0 && d.compareTo(Duration.ofMillis(300)) <= 0, "jitter: " + d);
    }
    Duration huge = Duration.ofDays(365L * 1000);
    assertEquals(Duration.ofNanos(Long.MAX_VALUE), BackoffSupervisor.calculateDelay(1, huge, huge, 1.0));
  }

  @Test
  void badOptionsFailAtTheCall() {
    Props p = Props.create(Child.class, ActorRef.noSender(), false);
    Duration s = Duration.ofSeconds(1);
    assertThrows(IllegalArgumentException.class, () -> BackoffOpts.onFailure(p, "c", Duration.ZERO, s, 0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BackoffOpts.onStop(p, "c", s, Duration.ofMillis(1), 0));
    assertTrue(e.getMessage().contains("maxBackoff"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BackoffOpts.onFailure(p, "c", s, s, -0.1));
    assertThrows(IllegalArgumentException.class, () -> BackoffOpts.onFailure(p, "c", s, s, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> BackoffOpts.onFailure(p, "", s, s, 0));
    assertThrows(IllegalArgumentException.class, () -> BackoffOpts.onFailure(p, "c", s, s, 0).withMaxNrOfRetries(-2));
    assertThrows(IllegalArgumentException.class, () -> BackoffOpts.onFailure(p, "c", s, s, 0).withAutoReset(Duration.ZERO));
  }
}
