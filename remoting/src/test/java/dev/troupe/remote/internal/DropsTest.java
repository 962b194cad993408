package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.remote.internal.DeploymentMessages.DeployRequest;
import dev.troupe.testkit.ActorSystemExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** The warning of a dropped message says what was dropped, from whom, to where, and why. */
class DropsTest {
  /** Does nothing: a parent to name. */
  static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @RegisterExtension static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass("");

  private static List<String> linesOf(ListAppender<ILoggingEvent> appender) {
    List<String> out = new ArrayList<>();
    synchronized (appender) {
      for (ILoggingEvent e : appender.list) {
        out.add(e.getFormattedMessage());
      }
    }
    return out;
  }

  /** Drops on {@code system}'s event stream that log to a logger of their own, into {@code appender}. */
  private static Drops drops(ActorSystem system, String name, ListAppender<ILoggingEvent> appender) {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.remote.DropsTest." + name);
    appender.start();
    logger.addAppender(appender);
    return new Drops(system.eventStream(), new RateLimitedLog(logger, 1_000_000_000L, 10), (ref, why) -> false);
  }

  @Test
  void aDroppedDeploymentSaysWhoDeployedWhatWhere() {
    ActorSystem system = TROUPE.system();
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    Drops drops = drops(system, "deploy", appender);
    InternalActorRef parent = (InternalActorRef) system.actorOf(Props.create(Idle.class), "master");
    ActorPath path = ActorPath.fromString("troupe://workers@127.0.0.1:2552/remote/jobs@127.0.0.1:2551/user/master/w1");
    DeployRequest request = new DeployRequest(path, parent, "com.example.Worker", List.of(), null, null);

    drops.dropped(request, "no incarnation of troupe://workers@127.0.0.1:2552 could be reached", null, parent);

    List<String> lines = linesOf(appender);
    assertEquals(1, lines.size(), lines.toString());
    String line = lines.get(0);
    assertFalse(line.contains("null"), line);
    assertTrue(line.startsWith("dropped the request to deploy com.example.Worker as /remote/jobs@127.0.0.1:2551/user/master/w1"
        + " (a child of " + parent.path() + ") on troupe://workers@127.0.0.1:2552: no incarnation"), line);
  }

  @Test
  void aDroppedMessageWithoutSenderSaysSo() {
    ActorSystem system = TROUPE.system();
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    Drops drops = drops(system, "nosender", appender);
    ActorRef to = system.actorOf(Props.create(Idle.class), "to");

    drops.dropped("hello", "too large", null, to);

    List<String> lines = linesOf(appender);
    assertEquals(List.of("dropped message [java.lang.String] from no sender to " + to + ": too large"), lines);
  }
}
