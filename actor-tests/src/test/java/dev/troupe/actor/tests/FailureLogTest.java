package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.AllForOneStrategy;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.Kill;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * What a supervisor logs about a child's failure: one line with the child's path, the exception
 * and the decision; the stack trace only when the failure is not an {@link ExpectedFailure}.
 */
class FailureLogTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** An expected failure: part of the actor's ordinary work. */
  static final class Rejected extends RuntimeException implements ExpectedFailure {
    private static final long serialVersionUID = 1L;

    Rejected(String message) {
      super(message);
    }
  }

  /** Throws what it is told to; answers anything else. */
  static final class Child extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(RuntimeException.class, e -> { throw e; })
          .matchAny(m -> getSender().tell(m, getSelf()))
          .build();
    }
  }

  private ListAppender<ILoggingEvent> appender;
  private Logger logger;
  private ActorSystem system;
  private TestKit kit;

  @BeforeEach
  void capture() {
    system = troupe.system();
    kit = new TestKit(system);
    logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor." + system.name());
    appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
  }

  @AfterEach
  void release() {
    logger.detachAppender(appender);
  }

  /** The failure lines logged so far (the appender appends under its own lock). */
  private List<ILoggingEvent> failureLines() {
    List<ILoggingEvent> out = new ArrayList<>();
    synchronized (appender) {
      for (ILoggingEvent e : appender.list) {
        if (e.getMessage().startsWith("{} failed: ")) {
          out.add(e);
        }
      }
    }
    return out;
  }

  /** Waits (bounded) until {@code n} failure lines were logged, and returns them. */
  private List<ILoggingEvent> awaitLines(int n) {
    kit.awaitCond(RuntimeFixtures.TIMEOUT, Duration.ofMillis(10), n + " failure lines: " + failureLines(),
        () -> failureLines().size() >= n);
    List<ILoggingEvent> lines = failureLines();
    assertEquals(n, lines.size(), lines.toString());
    return lines;
  }

  private ActorRef child(ActorRef parent, String name) {
    parent.tell(name, kit.getRef());
    return kit.expectMsgClass(ActorRef.class);
  }

  private ActorRef parent(SupervisorStrategy s) {
    return system.actorOf(TestActors.childMakerProps(Props.create(Child.class), s), "parent");
  }

  private static final SupervisorStrategy RESTART = new OneForOneStrategy(DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());

  @Test
  void anUnexpectedFailureIsOneErrorLineWithPathMessageAndDecisionAndItsStackTrace() {
    ActorRef c = child(parent(RESTART), "c");
    c.tell(new IllegalStateException("the disk is on fire"), ActorRef.noSender());

    ILoggingEvent line = awaitLines(1).get(0);
    assertEquals(Level.ERROR, line.getLevel());
    assertEquals(c.path() + " failed: java.lang.IllegalStateException: the disk is on fire; restart",
        line.getFormattedMessage());
    assertNotNull(line.getThrowableProxy(), "the stack trace comes with it");
    assertEquals("the disk is on fire", line.getThrowableProxy().getMessage());
  }

  @Test
  void anExpectedFailureIsOneWarnLineWithoutAStackTraceUpToTheRestartLimit() {
    SupervisorStrategy twice = new OneForOneStrategy(1, Duration.ofMinutes(1),
        DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
    ActorRef c = child(parent(twice), "c");
    kit.watch(c);
    c.tell(new Rejected("order 7 has no items"), ActorRef.noSender());
    c.tell(new Rejected("order 8 has no items"), ActorRef.noSender());
    kit.expectTerminated(c);

    List<ILoggingEvent> lines = awaitLines(2);
    for (ILoggingEvent line : lines) {
      assertEquals(Level.WARN, line.getLevel(), line.toString());
      assertNull(line.getThrowableProxy(), "no stack trace: " + line);
    }
    String rejected = FailureLogTest.class.getName() + "$Rejected";
    assertEquals(c.path() + " failed: " + rejected + ": order 7 has no items; restart", lines.get(0).getFormattedMessage());
    assertEquals(c.path() + " failed: " + rejected + ": order 8 has no items; stop (restart limit of 1 within 1 min reached)",
        lines.get(1).getFormattedMessage());
  }

  @Test
  void resumeAndStopAreNamed() {
    SupervisorStrategy s = new OneForOneStrategy(DeciderBuilder
        .match(ArithmeticException.class, e -> SupervisorStrategy.resume())
        .orMatchAny(e -> SupervisorStrategy.stop())
        .build());
    ActorRef c = child(parent(s), "c");
    kit.watch(c);
    c.tell(new ArithmeticException("/ by zero"), ActorRef.noSender());
    c.tell("still here", kit.getRef());
    kit.expectMsg("still here");
    c.tell(new UnsupportedOperationException("not today"), ActorRef.noSender());
    kit.expectTerminated(c);

    List<ILoggingEvent> lines = awaitLines(2);
    assertEquals(Level.WARN, lines.get(0).getLevel());
    assertTrue(lines.get(0).getFormattedMessage().endsWith("java.lang.ArithmeticException: / by zero; resume"), lines.get(0).toString());
    assertNotNull(lines.get(0).getThrowableProxy(), "unexpected: with its stack trace");
    assertEquals(Level.ERROR, lines.get(1).getLevel());
    assertTrue(lines.get(1).getFormattedMessage().endsWith("java.lang.UnsupportedOperationException: not today; stop"), lines.get(1).toString());
    assertNotNull(lines.get(1).getThrowableProxy());
  }

  @Test
  void anEscalationIsOneLineAndTheStackTraceComesWithTheFinalDecision() {
    ActorRef parent = parent(new OneForOneStrategy(DeciderBuilder.matchAny(e -> SupervisorStrategy.escalate()).build()));
    ActorRef c = child(parent, "c");
    c.tell(new IllegalStateException("too deep"), ActorRef.noSender());

    List<ILoggingEvent> lines = awaitLines(2); // the child's (escalate), then the parent's (restart, by /user)
    assertEquals(c.path() + " failed: java.lang.IllegalStateException: too deep; escalate (the supervisor fails with it)",
        lines.get(0).getFormattedMessage());
    assertNull(lines.get(0).getThrowableProxy(), "the trace comes once, with the final decision");
    assertEquals(parent.path() + " failed: java.lang.IllegalStateException: too deep; restart", lines.get(1).getFormattedMessage());
    assertNotNull(lines.get(1).getThrowableProxy());
  }

  @Test
  void aKillIsExpectedAndAnAllForOneDecisionCountsTheChildren() {
    ActorRef parent = parent(new AllForOneStrategy(SupervisorStrategy.defaultDecider()));
    ActorRef a = child(parent, "a");
    child(parent, "b");
    kit.watch(a);
    a.tell(Kill.getInstance(), ActorRef.noSender());
    kit.expectTerminated(a);

    ILoggingEvent line = awaitLines(1).get(0);
    assertEquals(Level.WARN, line.getLevel());
    assertEquals(a.path() + " failed: dev.troupe.actor.ActorKilledException: Kill; stop (all 2 children)", line.getFormattedMessage());
    assertNull(line.getThrowableProxy());
  }

  @Test
  void aStrategyWithLoggingOffLogsNothing() {
    ActorRef c = child(parent(new OneForOneStrategy(-1, null, DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build(), false)), "c");
    c.tell(new IllegalStateException("quiet"), ActorRef.noSender());
    c.tell("after", kit.getRef());
    kit.expectMsg("after"); // the restart happened: the failure was decided on
    assertEquals(List.of(), failureLines());
  }
}
