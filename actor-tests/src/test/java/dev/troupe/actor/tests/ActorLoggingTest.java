package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Logging;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * An actor's logger: SLF4J under the actor's class name, the MDC keys {@code troupeSource}, {@code
 * troupeActorSystem} and {@code troupeSender} present while a line is logged and gone afterwards,
 * and a disabled level that neither formats nor touches the MDC.
 */
class ActorLoggingTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Counts its renderings: a disabled level must not render an argument. */
  static final class Counted {
    final AtomicInteger renderings = new AtomicInteger();

    @Override
    public String toString() {
      renderings.incrementAndGet();
      return "counted";
    }
  }

  /** The MDC keys an actor's logger sets. */
  private static final List<String> KEYS = List.of("troupeSource", "troupeActorSystem", "troupeSender");

  /** Logs at the level it is told and answers with the MDC keys seen on its thread afterwards. */
  static final class Talker extends AbstractActor {
    record Say(String level, Object arg) {}

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Say.class, s -> {
            LoggingAdapter log = getContext().getLog();
            switch (s.level()) {
              case "debug" -> log.debug("debug {}", s.arg());
              case "info" -> log.info("info {}", s.arg());
              case "warning" -> log().warning("warning {}", s.arg());
              case "error" -> log.error("error {}", s.arg());
              default -> log.error(new IllegalStateException("cause"), "error-with-cause {}", s.arg());
            }
            getSender().tell(mdcKeys(), getSelf());
          })
          .matchEquals("same?", m -> getSender().tell(
              getContext().getLog() == getContext().getLog() && log() == getContext().getLog(), getSelf()))
          .matchEquals("pekko's way?", m -> getSender().tell(
              Logging.getLogger(getContext().getSystem(), this) == log() && Logging.getLogger(this) == log(), getSelf()))
          .matchEquals("sentinel", m -> {
            // a disabled level must leave an MDC value of the same key alone: it never puts or removes
            MDC.put("troupeSource", "sentinel");
            getContext().getLog().debug("not logged {}", m);
            String after = MDC.get("troupeSource");
            MDC.remove("troupeSource");
            getSender().tell(after == null ? "removed" : after, getSelf());
          })
          .build();
    }

    private static Map<String, String> mdcKeys() {
      Map<String, String> out = new HashMap<>();
      for (String k : KEYS) {
        if (MDC.get(k) != null) {
          out.put(k, MDC.get(k));
        }
      }
      return out;
    }
  }

  private RuntimeFixtures.LogCapture capture;
  private Logger logger;
  private ActorSystem system;
  private TestKit kit;

  @BeforeEach
  void attach() {
    system = troupe.system();
    kit = new TestKit(system);
    logger = (Logger) LoggerFactory.getLogger(Talker.class);
    logger.setLevel(Level.INFO);
    capture = new RuntimeFixtures.LogCapture(logger);
  }

  @AfterEach
  void detach() {
    capture.detach();
    logger.setLevel(null);
  }

  private ILoggingEvent awaitEvent(int n) {
    kit.awaitCond(RuntimeFixtures.TIMEOUT, java.time.Duration.ofMillis(10), n + " events: " + capture.snapshot(),
        () -> capture.snapshot().size() >= n);
    return capture.snapshot().get(n - 1);
  }

  @Test
  void aLineCarriesTheActorsPathTheSystemAndTheSenderInTheMdcOnlyWhileItIsLogged() {
    ActorRef talker = system.actorOf(Props.create(Talker.class), "talker");
    Counted arg = new Counted();
    talker.tell(new Talker.Say("info", arg), kit.getRef());

    Map<?, ?> afterwards = kit.expectMsgClass(Map.class);
    assertEquals(Map.of(), afterwards, "the MDC keys are removed after the line");
    ILoggingEvent e = awaitEvent(1);
    assertEquals(Talker.class.getName(), e.getLoggerName(), "named after the actor's class");
    assertEquals(Level.INFO, e.getLevel());
    assertEquals("info counted", e.getFormattedMessage());
    Map<String, String> mdc = e.getMDCPropertyMap();
    assertEquals(talker.path().toString(), mdc.get("troupeSource"));
    assertEquals(system.name(), mdc.get("troupeActorSystem"));
    assertEquals(kit.getRef().path().toString(), mdc.get("troupeSender"));
  }

  @Test
  void aMessageWithoutASenderLogsNoSenderKey() {
    ActorRef talker = system.actorOf(Props.create(Talker.class));
    talker.tell(new Talker.Say("warning", "x"), ActorRef.noSender());
    ILoggingEvent e = awaitEvent(1);
    assertEquals(Level.WARN, e.getLevel());
    assertFalse(e.getMDCPropertyMap().containsKey("troupeSender"), e.getMDCPropertyMap().toString());
    assertEquals(talker.path().toString(), e.getMDCPropertyMap().get("troupeSource"));
  }

  @Test
  void anErrorWithACauseKeepsTheThrowable() {
    ActorRef talker = system.actorOf(Props.create(Talker.class));
    talker.tell(new Talker.Say("cause", "y"), kit.getRef());
    ILoggingEvent e = awaitEvent(1);
    assertEquals("error-with-cause y", e.getFormattedMessage());
    assertEquals("cause", e.getThrowableProxy().getMessage());
  }

  @Test
  void aDisabledLevelNeitherRendersArgumentsNorTouchesTheMdc() {
    ActorRef talker = system.actorOf(Props.create(Talker.class));
    Counted arg = new Counted();
    talker.tell(new Talker.Say("debug", arg), kit.getRef());
    assertEquals(Map.of(), kit.expectMsgClass(Map.class));
    talker.tell("sentinel", kit.getRef());
    assertEquals("sentinel", kit.expectMsgClass(String.class), "the disabled debug call left the MDC alone");
    talker.tell(new Talker.Say("error", "z"), kit.getRef()); // a later, enabled line: the debug one was not logged
    kit.expectMsgClass(Map.class);
    ILoggingEvent only = awaitEvent(1);
    assertEquals("error z", only.getFormattedMessage());
    assertEquals(1, capture.snapshot().size(), capture.snapshot().toString());
    assertEquals(0, arg.renderings.get(), "the debug argument was never rendered");
  }

  @Test
  void pekkosLoggingGetLoggerGivesAnActorItsOwnLoggerAndOtherSourcesOneNamedAfterThem() {
    ActorRef talker = system.actorOf(Props.create(Talker.class));
    talker.tell("pekko's way?", kit.getRef());
    assertTrue(kit.expectMsgClass(Boolean.class), "Logging.getLogger(system, this) in an actor is its log()");

    // a class names the logger; so does a string; any other object, by its class
    Logging.getLogger(system, Talker.class).info("by class {}", 1);
    Logging.getLogger(system, Talker.class.getName()).warning("by name {}", 2);
    RuntimeFixtures.LogCapture other = new RuntimeFixtures.LogCapture((Logger) LoggerFactory.getLogger(StringBuilder.class));
    try {
      Logging.getLogger(system, new StringBuilder()).error("by object {}", 3);
      assertEquals(List.of("by object 3"), other.snapshot().stream().map(ILoggingEvent::getFormattedMessage).toList());
    } finally {
      other.detach();
    }
    ILoggingEvent byClass = awaitEvent(1);
    ILoggingEvent byName = awaitEvent(2);
    assertEquals(Talker.class.getName(), byClass.getLoggerName());
    assertEquals("by class 1", byClass.getFormattedMessage());
    assertEquals(Talker.class.getName(), byName.getLoggerName());
    assertEquals(Level.WARN, byName.getLevel());
    assertEquals(2, capture.snapshot().size(), capture.snapshot().toString());
    assertFalse(byClass.getMDCPropertyMap().containsKey("troupeSource"), "not an actor's line");
    assertThrows(NullPointerException.class, () -> Logging.getLogger(system, null));
    assertThrows(NullPointerException.class, () -> Logging.getLogger(null, "x"));
  }

  @Test
  void theLoggerIsCreatedOncePerActor() {
    ActorRef talker = system.actorOf(Props.create(Talker.class));
    talker.tell("same?", kit.getRef());
    assertTrue(kit.expectMsgClass(Boolean.class));
    assertNull(MDC.get("troupeSource"), "the test thread's MDC is untouched");
  }
}
