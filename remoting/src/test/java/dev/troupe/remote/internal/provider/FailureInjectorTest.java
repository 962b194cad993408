package dev.troupe.remote.internal.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.PoisonPill;
import dev.troupe.remote.internal.association.FailureInjector;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code troupe.remote.advanced.failure-injector}: off, there is no injector; on, a blackholed
 * node gets nothing this node sends (user messages and system messages alike) until it is restored,
 * and the other direction is untouched. Loss is shown by order, not by waiting: a message sent
 * while cut would have arrived before the one sent after the heal, on the same lane.
 */
@Timeout(60)
class FailureInjectorTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final String BASE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n";
  private final List<ActorSystem> systems = new ArrayList<>();

  @AfterEach
  void stop() {
    systems.forEach(TestKit::shutdownActorSystem);
  }

  private ActorSystem start(String name, String extra) {
    ActorSystem s = ActorSystem.create(name, ConfigFactory.parseString(BASE + extra));
    systems.add(s);
    return s;
  }

  static FailureInjector injector(ActorSystem s) {
    return FailureInjectors.of(((RuntimeSystem) s).provider());
  }

  @Test
  void offByDefaultThereIsNoInjector() {
    assertNull(injector(start("plain", "")));
  }

  @Test
  void aMalformedValueNamesTheKey() {
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> start("bad", "troupe.remote.advanced.failure-injector = sometimes"));
    assertTrue(e.getMessage().contains("troupe.remote.advanced.failure-injector"), e.getMessage());
  }

  @Test
  void aBlackholedNodeGetsNothingUntilRestoredAndTheOtherDirectionStillFlows() {
    String on = "troupe.remote.advanced.failure-injector = on";
    ActorSystem a = start("cutter", on);
    ActorSystem b = start("cut", on);
    FailureInjector cutter = injector(a);
    assertNotNull(cutter);
    TestKit onA = new TestKit(a);
    TestKit onB = new TestKit(b);
    ActorRef toB = ((RuntimeSystem) a).provider().resolveActorRef(onB.getRef().path());
    ActorRef toA = ((RuntimeSystem) b).provider().resolveActorRef(onA.getRef().path());
    toB.tell("before", onA.getRef());
    onB.expectMsg(WAIT, "before");

    cutter.blackhole(b.address());
    assertEquals(Set.of(b.address()), cutter.blackholed());
    toB.tell("lost", onA.getRef());
    toB.tell(PoisonPill.getInstance(), onA.getRef()); // would stop the probe
    toA.tell("the other way", onB.getRef()); // only one direction is cut
    onA.expectMsg(WAIT, "the other way");

    cutter.restore(b.address());
    toB.tell("after", onA.getRef());
    onB.expectMsg(WAIT, "after"); // same lane, so "lost" would have come first had it been sent
    toB.tell("still alive", onA.getRef());
    onB.expectMsg(WAIT, "still alive");
  }
}
