package dev.troupe.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.testkit.TestKit;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A persistent actor on the file journal and snapshot store: what one system stored, a second system
 * on the same directories recovers (the snapshot, then the events after it), as after a restart of
 * the process.
 */
class PersistentActorOnFilesTest {
  @TempDir
  Path dir;

  public record Deposit(long amount) {}

  public record Deposited(long amount) {}

  enum Balance { INSTANCE }

  static final class Account extends AbstractPersistentActor {
    private long balance;

    @Override
    public String persistenceId() {
      return "account/42"; // a slash: the file's name is derived, never a path
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder()
          .match(SnapshotOffer.class, o -> balance = (Long) o.snapshot())
          .match(Deposited.class, e -> balance += e.amount())
          .build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Deposit.class, d -> persist(new Deposited(d.amount()), e -> {
            balance += e.amount();
            if (lastSequenceNr() == 50) {
              saveSnapshot(balance);
            }
            getSender().tell(balance, getSelf());
          }))
          .matchEquals(Balance.INSTANCE, b -> getSender().tell(balance + "@" + lastSequenceNr(), getSelf()))
          .match(SaveSnapshotSuccess.class, s -> {})
          .build();
    }
  }

  private Config config() {
    return ConfigFactory.parseString("""
        troupe.persistence.journal.plugin = "troupe.persistence.journal.file"
        troupe.persistence.snapshot-store.plugin = "troupe.persistence.snapshot-store.local"
        troupe.serialization.bindings { "dev.troupe.persistence.PersistentActorOnFilesTest$Deposited" = jackson-json }
        """)
        .withValue("troupe.persistence.journal.file.dir", ConfigValueFactory.fromAnyRef(dir.resolve("journal").toString()))
        .withValue("troupe.persistence.snapshot-store.local.dir", ConfigValueFactory.fromAnyRef(dir.resolve("snapshots").toString()))
        .withFallback(ConfigFactory.load());
  }

  @Test
  void aSecondSystemOnTheSameDirectoriesRecoversTheState() {
    ActorSystem first = ActorSystem.create("files-1", config());
    long expected = 0;
    try {
      TestKit kit = new TestKit(first);
      ActorRef account = first.actorOf(Props.create(Account.class, Account::new));
      for (int i = 1; i <= 80; i++) {
        expected += i;
        kit.send(account, new Deposit(i));
        assertEquals(expected, kit.expectMsgClass(Duration.ofSeconds(10), Long.class));
      }
    } finally {
      TestKit.shutdownActorSystem(first); // closes the journal's files
    }

    ActorSystem second = ActorSystem.create("files-2", config());
    try {
      TestKit kit = new TestKit(second);
      ActorRef account = second.actorOf(Props.create(Account.class, Account::new));
      kit.send(account, Balance.INSTANCE);
      assertEquals(expected + "@80", kit.expectMsgClass(Duration.ofSeconds(10), String.class));
    } finally {
      TestKit.shutdownActorSystem(second);
    }
  }
}
