package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.BackoffOpts;
import dev.troupe.pattern.BackoffSupervisor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/** The guide's chapters "Supervision" and "Death watch", compiled and run. */
@ExtendWith(ActorSystemExtension.class)
class GuideSnippetsFaultsTest {
  // tag::expected-failure[]
  static final class BadLine extends RuntimeException implements ExpectedFailure {
    BadLine(String line) {
      super("cannot parse '" + line + "'");
    }
  }
  // end::expected-failure[]

  /** Parses "key=value" lines and counts them; "count" answers the count. */
  static final class Parser extends AbstractActor {
    private int parsed;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("count", m -> getSender().tell(parsed, getSelf()))
          .matchEquals("corrupt", m -> { throw new IllegalStateException("state lost"); })
          .match(String.class, line -> {
            if (!line.contains("=")) {
              throw new BadLine(line);
            }
            parsed++;
          })
          .build();
    }
  }

  // tag::supervisor[]
  static final class Importer extends AbstractActor {
    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(
          3, Duration.ofMinutes(1),          // more than 3 restarts within a minute: stop instead
          DeciderBuilder
              .match(BadLine.class, e -> SupervisorStrategy.resume())     // skip the line, keep the count
              .orMatch(IllegalStateException.class, e -> SupervisorStrategy.restart()) // a fresh instance
              .orMatchAny(e -> SupervisorStrategy.escalate())           // let my own parent decide
              .build());
    }

    @Override
    public void preStart() {
      getContext().actorOf(Props.create(Parser.class), "parser");
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchAny(m -> getContext().findChild("parser").ifPresent(p -> p.forward(m, getContext())))
          .build();
    }
  }
  // end::supervisor[]

  // tag::watch[]
  record Watch(ActorRef worker) {}

  record WorkerGone(String name) {}

  static final class Foreman extends AbstractActor {
    private final ActorRef reportTo;

    Foreman(ActorRef reportTo) {
      this.reportTo = reportTo;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Watch.class, w -> getContext().watch(w.worker()))                   // Terminated when it stops
          .match(ActorRef.class, w -> getContext().watchWith(w, new WorkerGone(w.path().name()))) // or a message of yours
          .match(Terminated.class, t -> reportTo.tell("terminated: " + t.actor().path().name(), getSelf()))
          .match(WorkerGone.class, g -> reportTo.tell("gone: " + g.name(), getSelf()))
          .build();
    }
  }
  // end::watch[]

  @Test
  void theImporterResumesOnBadLinesRestartsOnLostStateAndStopsAfterTheLimit(ActorSystem system, TestKit kit) {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor." + system.name());
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    try {
      ActorRef importer = system.actorOf(Props.create(Importer.class), "importer");
      for (String line : List.of("a=1", "b=2", "garbage", "c=3", "count")) {
        kit.send(importer, line);
      }
      kit.expectMsg(3); // resumed: the bad line was skipped, the count kept
      kit.send(importer, "corrupt");
      kit.send(importer, "count");
      kit.expectMsg(0); // restarted: a fresh instance
      ActorRef parser = kit.awaitResult(system.actorSelection("/user/importer/parser").resolveOne(Duration.ofSeconds(3)));
      kit.watch(parser);
      for (int i = 0; i < 3; i++) {
        kit.send(importer, "corrupt"); // restarts 2, 3, then a 4th within the minute: stop
      }
      kit.expectTerminated(parser);

      List<String> lines = new ArrayList<>();
      synchronized (log) {
        for (ILoggingEvent e : log.list) {
          if (e.getFormattedMessage().contains(" failed: ")) {
            lines.add(e.getFormattedMessage());
            if (e.getFormattedMessage().contains("$BadLine: ")) {
              assertNull(e.getThrowableProxy(), "an expected failure: no stack trace");
            }
          }
        }
      }
      assertEquals(5, lines.size(), lines.toString());
      assertTrue(lines.get(0).endsWith("$BadLine: cannot parse 'garbage'; resume"), lines.get(0));
      assertTrue(lines.get(4).endsWith("state lost; stop (restart limit of 3 within 1 min reached)"), lines.get(4));
    } finally {
      logger.detachAppender(log);
    }
  }

  @Test
  void theForemanHearsWhenAWorkerStops(ActorSystem system, TestKit kit) {
    ActorRef foreman = system.actorOf(Props.create(Foreman.class, kit.getRef()));
    ActorRef first = system.actorOf(Props.create(Parser.class), "first");
    ActorRef second = system.actorOf(Props.create(Parser.class), "second");
    foreman.tell(new Watch(first), ActorRef.noSender());
    foreman.tell(second, ActorRef.noSender());
    // the watches are in place once the foreman has processed them; a watch of a stopped actor
    // is answered at once, so the order does not matter
    first.tell(PoisonPill.getInstance(), ActorRef.noSender());
    second.tell(PoisonPill.getInstance(), ActorRef.noSender());
    assertEquals(
        java.util.Set.of("terminated: first", "gone: second"),
        java.util.Set.copyOf(kit.receiveN(2)));
  }

  @Test
  void aBackoffSupervisorRecreatesItsFailedChildLater(ActorSystem system, TestKit kit) {
    // tag::backoff[]
    Props parser = Props.create(Parser.class);
    ActorRef supervisor = system.actorOf(BackoffSupervisor.props(
        BackoffOpts.onFailure(parser, "parser", Duration.ofMillis(100), Duration.ofSeconds(10), 0.2)
            .withMaxNrOfRetries(5)                 // then the supervisor stops itself
            .withAutoReset(Duration.ofSeconds(30)))); // a child that ran 30 s resets the count
    supervisor.tell("a=1", ActorRef.noSender());  // forwarded to the child, with its sender
    supervisor.tell("corrupt", ActorRef.noSender()); // the child fails: stopped, back in 100-120 ms
    // end::backoff[]
    kit.awaitCond(() -> {
      kit.send(supervisor, new BackoffSupervisor.GetRestartCount());
      return kit.expectMsgClass(BackoffSupervisor.RestartCount.class).count() == 1;
    });
    kit.awaitCond(() -> {
      kit.send(supervisor, "count");
      Object reply = kit.receiveOne(Duration.ofSeconds(1));
      return Integer.valueOf(0).equals(reply); // a new child: its count starts at zero
    });
  }
}
