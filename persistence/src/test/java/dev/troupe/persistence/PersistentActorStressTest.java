package dev.troupe.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many persistent actors, commands from many threads, failures and restarts in between: every
 * acknowledged event is stored once, in each sender's order, and recovery gives the same state. A
 * crash waits in the stash while an event is being stored (so no acknowledgement is lost to a
 * restart) and commands stashed when it restarts the actor are handled by the recovered
 * incarnation.
 */
class PersistentActorStressTest {
  private ActorSystem system;

  @BeforeEach
  void start() {
    system = ActorSystem.create("persistent-stress", ConfigFactory.parseString("""
        troupe.persistence.replay-batch-size = 16
        controlled { class = "dev.troupe.persistence.ControlledJournal" }
        """).withFallback(ConfigFactory.load()));
  }

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  record Append(int sender, int seq) {}

  record Appended(int sender, int seq) {}

  enum Crash { INSTANCE }

  enum Dump { INSTANCE }

  /** Keeps, per sender, the sequence it appended; acknowledges each append once stored. */
  static final class Log extends AbstractPersistentActor {
    private final String id;
    private final Map<Integer, List<Integer>> bySender = new HashMap<>();

    Log(String id) {
      this.id = id;
    }

    @Override
    public String persistenceId() {
      return id;
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().match(Appended.class, this::apply).build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Append.class, c -> persist(new Appended(c.sender(), c.seq()), e -> {
            apply(e);
            getSender().tell(e, getSelf());
          }))
          .matchEquals(Crash.INSTANCE, c -> {
            throw new IllegalStateException("crash on purpose");
          })
          .matchEquals(Dump.INSTANCE, d -> getSender().tell(copy(), getSelf()))
          .build();
    }

    private void apply(Appended e) {
      bySender.computeIfAbsent(e.sender(), k -> new ArrayList<>()).add(e.seq());
    }

    private Map<Integer, List<Integer>> copy() {
      Map<Integer, List<Integer>> m = new HashMap<>();
      bySender.forEach((k, v) -> m.put(k, List.copyOf(v)));
      return m;
    }
  }

  @Test
  void everyAcknowledgedEventIsStoredOnceInOrderAcrossCrashesAndRecovery() throws Exception {
    int actors = 8;
    int threads = 6;
    int perThread = 300;
    List<ActorRef> logs = new ArrayList<>();
    for (int i = 0; i < actors; i++) {
      String id = "log-" + i;
      logs.add(system.actorOf(Props.create(Log.class, () -> new Log(id))));
    }
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Void>> senders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int sender = t;
      senders.add(CompletableFuture.runAsync(() -> {
        try {
          go.await();
          for (int seq = 0; seq < perThread; seq++) {
            for (ActorRef log : logs) {
              // ask: one append at a time per (sender, log), so acknowledged order is the sender's order
              Object ack = Patterns.ask(log, new Append(sender, seq), Duration.ofSeconds(10)).toCompletableFuture().get(15, TimeUnit.SECONDS);
              assertEquals(new Appended(sender, seq), ack);
            }
            if (sender == 0 && seq % 50 == 25) {
              logs.get(seq % actors).tell(Crash.INSTANCE, ActorRef.noSender()); // a restart mid-stream
            }
          }
        } catch (Exception e) {
          throw new IllegalStateException("sender " + sender + " failed", e);
        }
      }));
    }
    go.countDown();
    CompletableFuture.allOf(senders.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

    List<Integer> expected = new ArrayList<>();
    for (int seq = 0; seq < perThread; seq++) {
      expected.add(seq);
    }
    TestProbe probe = new TestProbe(system);
    for (int i = 0; i < actors; i++) {
      assertAllInOrder(probe, logs.get(i), threads, expected, "live " + i);
      probe.watch(logs.get(i));
      system.stop(logs.get(i));
      probe.expectMsgClass(Terminated.class);
      String id = "log-" + i;
      ActorRef recovered = system.actorOf(Props.create(Log.class, () -> new Log(id)));
      assertAllInOrder(probe, recovered, threads, expected, "recovered " + i);
    }
  }

  @SuppressWarnings("unchecked")
  private static void assertAllInOrder(TestProbe probe, ActorRef log, int threads, List<Integer> expected, String which) {
    probe.send(log, Dump.INSTANCE);
    Map<Integer, List<Integer>> dump = probe.expectMsgClass(Duration.ofSeconds(10), Map.class);
    assertEquals(threads, dump.size(), which + ": every sender's events");
    for (int s = 0; s < threads; s++) {
      assertEquals(expected, dump.get(s), which + ", sender " + s + ": each event once, in order");
    }
  }
}
