package dev.troupe.samples.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One account kept on disk across runs: each run recovers the balance from the file journal (and
 * its snapshots), applies the deposits and withdrawals given, and prints each outcome.
 */
@Command(name = "accounts", description = "an event-sourced account on the file journal: run it twice, it remembers")
public final class AccountsSample extends Sample {
  @Option(names = "--dir", paramLabel = "DIR", description = "where the journal and snapshots live (default ${DEFAULT-VALUE})")
  private Path dir = Path.of("accounts-data");

  @Option(names = "--account", paramLabel = "ID", description = "the account (default ${DEFAULT-VALUE})")
  private String account = "main";

  @Option(names = "--snapshot-every", paramLabel = "N", description = "a snapshot every N events (default ${DEFAULT-VALUE})")
  private int snapshotEvery = 100;

  @Option(names = "--deposit", paramLabel = "CENTS", description = "deposit this much; repeatable (default ${DEFAULT-VALUE})")
  private List<Long> deposits = new ArrayList<>();

  @Option(names = "--withdraw", paramLabel = "CENTS", description = "then withdraw this much; repeatable (default ${DEFAULT-VALUE})")
  private List<Long> withdrawals = new ArrayList<>();

  @Override
  protected int run(PrintStream out) throws Exception {
    atLeast("--snapshot-every", snapshotEvery, 1);
    for (long d : deposits) {
      positive("--deposit", d);
    }
    for (long w : withdrawals) {
      positive("--withdraw", w);
    }
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "accounts", config(dir));
    try {
      CompletableFuture<String> recovered = new CompletableFuture<>();
      ActorRef<String> log = system.systemActorOf(Behaviors.<String>receiveMessage(line -> {
        recovered.complete(line);
        return Behaviors.same();
      }), "log", dev.troupe.actor.typed.Props.empty());
      ActorRef<Account.Command> acct = system.systemActorOf(new Account(account, snapshotEvery, log), "account-" + account,
          dev.troupe.actor.typed.Props.empty());
      out.println("account " + account + ": " + recovered.get(15, TimeUnit.SECONDS)); // before any command's line
      for (long d : deposits) {
        Account.Outcome o = ask(system, acct, r -> new Account.Deposit(d, r));
        out.println("deposited " + d + ": balance " + o.balance());
      }
      for (long w : withdrawals) {
        Account.Outcome o = ask(system, acct, r -> new Account.Withdraw(w, r));
        out.println(o.accepted() ? "withdrew " + w + ": balance " + o.balance()
            : "refused to withdraw " + w + ": the balance is " + o.balance());
      }
      Account.Outcome last = ask(system, acct, r -> new Account.Deposit(0, r));
      out.println("account " + account + ": balance " + last.balance() + ", kept in " + dir.toAbsolutePath());
      return 0;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private void positive(String option, long value) {
    if (value < 1) {
      throw usageError(option + " must be at least 1 cent, was " + value);
    }
  }

  private static Account.Outcome ask(ActorSystem<Void> system, ActorRef<Account.Command> acct,
      java.util.function.Function<ActorRef<Account.Outcome>, Account.Command> command) throws Exception {
    return AskPattern.ask(acct, command::apply, Duration.ofSeconds(10), system.scheduler())
        .toCompletableFuture().get(15, TimeUnit.SECONDS);
  }

  /** The file journal and snapshot store under {@code dir}; the events bound to JSON. */
  static Config config(Path dir) {
    return ConfigFactory.parseString("""
            troupe.persistence.journal.plugin = "troupe.persistence.journal.file"
            troupe.persistence.snapshot-store.plugin = "troupe.persistence.snapshot-store.local"
            troupe.serialization.bindings { "dev.troupe.samples.persistence.Account$Event" = jackson-json }
            troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off
            """)
        .withValue("troupe.persistence.journal.file.dir", ConfigValueFactory.fromAnyRef(dir.resolve("journal").toString()))
        .withValue("troupe.persistence.snapshot-store.local.dir", ConfigValueFactory.fromAnyRef(dir.resolve("snapshots").toString()))
        .withFallback(ConfigFactory.load());
  }
}
