package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * A dispatcher whose every thread is stuck in one actor's turn says so: one WARN line naming the
 * dispatcher, each thread, the actor it runs and where it blocks, once per starved stretch; a
 * dispatcher with a thread still free says nothing.
 */
class DispatcherStarvationTest {
  private static final String CONFIG =
      RuntimeFixtures.CONFIG + "\n"
          + "two-threads {\n"
          + "  executor = affinity-pool-executor\n"
          + "  affinity-pool-executor { parallelism-min = 2, parallelism-max = 2 }\n"
          + "  starvation-warning-after = 200ms\n"
          + "}\n";

  @RegisterExtension
  final ActorSystemExtension troupe = ActorSystemExtension.perMethod(CONFIG);

  private RuntimeFixtures.LogCapture capture;

  /** Blocks in its turn until the test releases it (bounded, so a failed test cannot hang it). */
  static final class Blocker extends AbstractActor {
    private final CountDownLatch release;

    Blocker(CountDownLatch release) {
      this.release = release;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("block", m -> {
            getSender().tell("blocking", getSelf());
            release.await(20, TimeUnit.SECONDS);
            getSender().tell("released", getSelf());
          })
          .build();
    }
  }

  @BeforeEach
  void capture() {
    capture = new RuntimeFixtures.LogCapture(LoggerFactory.getLogger("dev.troupe.actor." + troupe.system().name()));
  }

  @AfterEach
  void release() {
    capture.detach();
  }

  private List<ILoggingEvent> starvationWarnings() {
    return capture.snapshot().stream().filter(e -> e.getFormattedMessage().contains("is starved")).toList();
  }

  @Test
  void everyThreadBlockedInAnActorGivesOneWarningNamingTheActorsAndWhereTheyBlock() {
    ActorSystem system = troupe.system();
    TestKit kit = new TestKit(system);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef a = system.actorOf(Props.create(Blocker.class, release).withDispatcher("two-threads"), "blocker-a");
    ActorRef b = system.actorOf(Props.create(Blocker.class, release).withDispatcher("two-threads"), "blocker-b");
    a.tell("block", kit.getRef());
    b.tell("block", kit.getRef());
    assertEquals(List.of("blocking", "blocking"), kit.receiveN(2));
    try {
      kit.awaitCond(Duration.ofSeconds(10), () -> !starvationWarnings().isEmpty());
    } finally {
      release.countDown();
    }
    assertEquals(List.of("released", "released"), kit.receiveN(2));

    List<ILoggingEvent> warnings = starvationWarnings();
    assertEquals(1, warnings.size(), "one warning for the starved stretch: " + warnings);
    ILoggingEvent w = warnings.get(0);
    String text = w.getFormattedMessage();
    assertEquals(Level.WARN, w.getLevel());
    assertTrue(text.startsWith("dispatcher two-threads is starved: all 2 of its threads"), text);
    assertTrue(text.contains(a.path().toString()) && text.contains(b.path().toString()), "names both actors: " + text);
    assertTrue(text.contains("(" + Blocker.class.getName() + ")"), "names the actor class: " + text);
    assertTrue(text.contains("CountDownLatch.await"), "shows where they block: " + text);
    assertTrue(text.contains("virtual-thread-executor"), "says what to do: " + text);
  }

  @Test
  void aDispatcherWithAThreadStillFreeIsNotStarved() {
    ActorSystem system = troupe.system();
    TestKit kit = new TestKit(system);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef a = system.actorOf(Props.create(Blocker.class, release).withDispatcher("two-threads"), "lonely-blocker");
    ActorRef echo = system.actorOf(TestActors.echoActorProps().withDispatcher("two-threads"), "echo");
    a.tell("block", kit.getRef());
    kit.expectMsg("blocking");
    try {
      // the other thread keeps serving: ten round trips spread over five thresholds
      for (int i = 0; i < 10; i++) {
        echo.tell(i, kit.getRef());
        kit.expectMsg(i);
        kit.expectNoMessage(Duration.ofMillis(100));
      }
    } finally {
      release.countDown();
    }
    kit.expectMsg("released");
    assertEquals(List.of(), starvationWarnings(), "one thread of two was blocked for 1 s (5 thresholds)");
  }
}
