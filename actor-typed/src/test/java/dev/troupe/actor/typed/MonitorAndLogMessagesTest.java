package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@code Behaviors.monitor} and {@code Behaviors.logMessages}: the wrapped behaviour handles every
 * message as it would alone (its state, the behaviours it returns, its stop and {@code PostStop});
 * the monitor gets copies of one class only; the log has each message and signal at debug level.
 */
class MonitorAndLogMessagesTest {
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("monitor");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  interface Command {}

  record Add(int n) implements Command {}

  record Get(ActorRef<Integer> replyTo) implements Command {}

  record Done() implements Command {}

  /** A counter that becomes a new behaviour on each Add and stops on Done, reporting PostStop. */
  static Behavior<Command> counter(int n, ActorRef<Object> events) {
    return Behaviors.receive(Command.class)
        .onMessage(Add.class, a -> counter(n + a.n(), events))
        .onMessage(Get.class, g -> {
          g.replyTo().tell(n);
          return Behaviors.same();
        })
        .onMessage(Done.class, d -> Behaviors.stopped())
        .onSignal(PostStop.class, s -> {
          events.tell("post stop at " + n);
          return Behaviors.same();
        })
        .build();
  }

  private <T> ActorRef<T> spawn(Behavior<T> behavior) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), behavior);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theMonitorGetsCopiesOfItsClassAndTheBehaviourRunsAsAlone() {
    Probe<Object> events = new Probe<>(system);
    Probe<Command> copies = new Probe<>(system);
    Class<Command> onlyAdds = (Class<Command>) (Class<?>) Add.class;
    ActorRef<Command> c = spawn(Behaviors.monitor(onlyAdds, copies.ref(), counter(0, events.ref())));
    Probe<Integer> answers = new Probe<>(system);
    c.tell(new Add(2));
    c.tell(new Add(3)); // handled by the behaviour the first Add returned: still monitored
    c.tell(new Get(answers.ref()));
    answers.expect(5);
    copies.expect(new Add(2));
    copies.expect(new Add(3));
    copies.expectNothing(Duration.ofMillis(100)); // not the Get
    c.tell(new Done());
    events.expect("post stop at 5");
  }

  @Test
  void logMessagesLogsEachMessageAndSignalAtDebug() {
    Logger root = (Logger) LoggerFactory.getLogger(Behavior.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    Level before = root.getLevel();
    root.addAppender(appender);
    root.setLevel(Level.DEBUG);
    try {
      Probe<Object> events = new Probe<>(system);
      ActorRef<Command> c = spawn(Behaviors.logMessages(counter(0, events.ref())));
      Probe<Integer> answers = new Probe<>(system);
      c.tell(new Add(7));
      c.tell(new Get(answers.ref()));
      answers.expect(7);
      c.tell(new Done());
      events.expect("post stop at 7");
      // each line was written before the message that the probes got after it was handled
      String log = String.join("\n", appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
      assertTrue(log.contains("received message: Add[n=7]"), log);
      assertTrue(log.contains("received message: Done[]"), log);
      assertTrue(log.contains("received signal: PostStop"), log);
      assertTrue(log.contains(c.path().toString()), log);
    } finally {
      root.detachAppender(appender);
      root.setLevel(before);
    }
  }

  @Test
  void nullArgumentsAreRefused() {
    assertThrows(NullPointerException.class, () -> Behaviors.monitor(null, system.deadLetters(), Behaviors.empty()));
    assertThrows(NullPointerException.class, () -> Behaviors.monitor(String.class, null, Behaviors.empty()));
    assertThrows(NullPointerException.class, () -> Behaviors.monitor(String.class, system.deadLetters(), null));
    assertThrows(NullPointerException.class, () -> Behaviors.logMessages(null));
  }
}
