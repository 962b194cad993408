package dev.troupe.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The module's descriptor, its configuration's checks, and the timer base class. */
class PersistenceModuleTest {
  @Test
  void onlyTheApiTheSpiAndTheQueriesAreExported() throws Exception {
    Path where = Path.of(Persistence.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor d = ModuleFinder.of(where).find("dev.troupe.persistence").orElseThrow().descriptor();
    assertEquals(Set.of("dev.troupe.persistence", "dev.troupe.persistence.spi", "dev.troupe.persistence.state",
            "dev.troupe.persistence.journal",
            "dev.troupe.persistence.query",
            "dev.troupe.persistence.query.javadsl", "dev.troupe.persistence.query.polling"),
        d.exports().stream().map(Exports::source).collect(Collectors.toSet()));
    assertTrue(d.opens().isEmpty(), "nothing is opened");
  }

  @Test
  void malformedSettingsAreRefusedNamingTheKey() {
    for (String bad : new String[] {"troupe.persistence.replay-batch-size = 0", "troupe.persistence.replay-batch-size = many"}) {
      ActorSystem system = ActorSystem.create("persistence-bad", ConfigFactory.parseString(bad).withFallback(ConfigFactory.load()));
      try {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> Persistence.get(system), bad);
        assertTrue(e.getMessage().contains("troupe.persistence.replay-batch-size"), e.getMessage());
      } finally {
        TestKit.shutdownActorSystem(system);
      }
    }
    ActorSystem system = ActorSystem.create("persistence-plugins", ConfigFactory.parseString("""
        troupe.persistence.journal.plugin = ""
        no-class { dir = "x" }
        not-a-journal { class = "java.lang.String" }
        """).withFallback(ConfigFactory.load()));
    try {
      Persistence p = Persistence.get(system);
      assertTrue(assertThrows(ConfigurationException.class, () -> p.journalFor("")).getMessage()
          .contains("troupe.persistence.journal.plugin is empty"));
      assertTrue(assertThrows(ConfigurationException.class, () -> p.journalFor("no-class")).getMessage()
          .contains("\"class\""));
      assertTrue(assertThrows(ConfigurationException.class, () -> p.journalFor("not-a-journal")).getMessage()
          .contains("is no dev.troupe.persistence.spi.Journal"));
      assertTrue(p.snapshotStoreFor("") == p.snapshotStoreFor("troupe.persistence.snapshot-store.inmem"),
          "the default store is the one at its path: one instance per plugin");
    } finally {
      TestKit.shutdownActorSystem(system);
    }
  }

  /** Ticks every 20 ms, persisting each tick; a tick waits in the stash while one is written. */
  static final class Ticker extends AbstractPersistentActorWithTimers {
    private final ActorRef probe;
    private int ticks;

    Ticker(ActorRef probe) {
      this.probe = probe;
    }

    @Override
    public String persistenceId() {
      return "ticker";
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().matchEquals("tick", t -> ticks++).matchAny(m -> {}).build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("start", s -> getTimers().startTimerWithFixedDelay("t", "tick", Duration.ofMillis(20)))
          .matchEquals("tick", t -> persist("tick", e -> {
            ticks++;
            if (ticks == 3) {
              getTimers().cancel("t");
              probe.tell("three ticks stored, the timer cancelled: " + lastSequenceNr(), getSelf());
            }
          }))
          .build();
    }
  }

  @Test
  void timersDeliverCommandsThatArePersistedLikeAnyOther() {
    ActorSystem system = ActorSystem.create("persistence-timers");
    try {
      TestProbe probe = new TestProbe(system);
      ActorRef ticker = system.actorOf(Props.create(Ticker.class, () -> new Ticker(probe.getRef())));
      ticker.tell("start", ActorRef.noSender());
      probe.expectMsg(Duration.ofSeconds(5), "three ticks stored, the timer cancelled: 3");
      probe.expectNoMessage(Duration.ofMillis(100));
    } finally {
      TestKit.shutdownActorSystem(system);
    }
  }
}
