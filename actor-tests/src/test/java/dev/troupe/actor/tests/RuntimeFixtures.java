package dev.troupe.actor.tests;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.troupe.actor.ActorContext;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** What the runtime's behaviour tests share: their time bound, and code run inside an actor. */
final class RuntimeFixtures {
  private RuntimeFixtures() {}

  /** How long these tests wait for a message, a reply or a condition. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** Gives the test kits {@link #TIMEOUT} as their default wait. */
  static final String CONFIG = "troupe.test.single-expect-default = " + TIMEOUT.toSeconds() + "s";

  private static final AtomicInteger SYSTEM_COUNTER = new AtomicInteger();

  /** A unique, valid system name, for a test that creates a system itself. */
  static String uniqueName(String prefix) {
    return prefix + "-" + SYSTEM_COUNTER.incrementAndGet();
  }

  /** Runs a function inside an actor, with its context, and replies with the result (or the exception). */
  record InContext(Function<ActorContext, Object> body) {}

  /** Executes {@link InContext} messages; anything else is unhandled. */
  static final class ContextActor extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message instanceof InContext c) {
        Object result;
        try {
          result = c.body().apply(getContext());
        } catch (RuntimeException e) {
          result = e;
        }
        getSender().tell(result == null ? "null" : result, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  /** Runs {@code body} in {@code actor} (a {@link ContextActor}) and returns what it returned or threw. */
  static Object inContext(TestKit kit, ActorRef actor, Function<ActorContext, Object> body) {
    return kit.awaitResult(Patterns.ask(actor, new InContext(body), TIMEOUT));
  }

  /**
   * Collects the events of one logger from its creation until {@link #detach()}, each with the MDC
   * it was logged with (logback would read the MDC lazily, on the reading thread, otherwise).
   */
  static final class LogCapture extends AppenderBase<ILoggingEvent> {
    private final List<ILoggingEvent> events = new ArrayList<>();
    private final Logger logger;

    LogCapture(org.slf4j.Logger logger) {
      this.logger = (Logger) logger;
      start();
      this.logger.addAppender(this);
    }

    @Override
    protected synchronized void append(ILoggingEvent e) {
      e.prepareForDeferredProcessing();
      events.add(e);
    }

    /** @return the events so far */
    synchronized List<ILoggingEvent> snapshot() {
      return List.copyOf(events);
    }

    void detach() {
      logger.detachAppender(this);
    }
  }
}
