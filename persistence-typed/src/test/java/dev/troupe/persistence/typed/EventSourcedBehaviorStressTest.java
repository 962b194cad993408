package dev.troupe.persistence.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehavior;
import dev.troupe.persistence.typed.javadsl.RetentionCriteria;
import dev.troupe.testkit.typed.ActorTestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Many event-sourced actors, asks from many threads, crashes (restarted by a supervisor) and
 * snapshots in between: every acknowledged event is in the state once, in each sender's order,
 * and a new actor per id recovers the same state.
 */
class EventSourcedBehaviorStressTest {
  private final ActorTestKit kit = ActorTestKit.create("typed-persistence-stress",
      ConfigFactory.parseString("troupe.persistence.replay-batch-size = 16"));

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  sealed interface Command {}

  record Append(int sender, int seq, ActorRef<Integer> replyTo) implements Command {}

  record Dump(ActorRef<Map<Integer, List<Integer>>> replyTo) implements Command {}

  record Crash() implements Command {}

  record Appended(int sender, int seq) {}

  /** Per sender, the sequence it appended; the state is copied on each event (snapshots hold it). */
  static final class Log extends EventSourcedBehavior<Command, Appended, Map<Integer, List<Integer>>> {
    Log(String id) {
      super(PersistenceId.of("Log", id));
    }

    @Override
    public Map<Integer, List<Integer>> emptyState() {
      return Map.of();
    }

    @Override
    public CommandHandler<Command, Appended, Map<Integer, List<Integer>>> commandHandler() {
      return newCommandHandlerBuilder().forAnyState()
          .onCommand(Append.class, (s, c) -> Effect().persist(new Appended(c.sender(), c.seq()))
              .thenReply(c.replyTo(), after -> c.seq()))
          .onCommand(Dump.class, (s, c) -> Effect().reply(c.replyTo(), s))
          .onCommand(Crash.class, c -> {
            throw new IllegalStateException("crash on purpose");
          })
          .build();
    }

    @Override
    public EventHandler<Map<Integer, List<Integer>>, Appended> eventHandler() {
      return newEventHandlerBuilder().forAnyState().onEvent(Appended.class, (s, e) -> {
        Map<Integer, List<Integer>> next = new HashMap<>(s);
        List<Integer> seqs = new ArrayList<>(next.getOrDefault(e.sender(), List.of()));
        seqs.add(e.seq());
        next.put(e.sender(), List.copyOf(seqs));
        return Map.copyOf(next);
      }).build();
    }

    @Override
    public RetentionCriteria retentionCriteria() {
      return RetentionCriteria.snapshotEvery(97, 2);
    }
  }

  @Test
  void everyAcknowledgedEventIsAppliedOnceInOrderAcrossCrashesAndRecovery() throws Exception {
    int actors = 6;
    int threads = 6;
    int perThread = 200;
    List<ActorRef<Command>> logs = new ArrayList<>();
    for (int i = 0; i < actors; i++) {
      logs.add(kit.spawn(Behaviors.supervise(new Log("l" + i)).onFailure(IllegalStateException.class, SupervisorStrategy.restart())));
    }
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Void>> senders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int sender = t;
      senders.add(CompletableFuture.runAsync(() -> {
        try {
          go.await();
          for (int seq = 0; seq < perThread; seq++) {
            int s = seq;
            for (ActorRef<Command> log : logs) {
              Integer ack = AskPattern.<Command, Integer>ask(log, r -> new Append(sender, s, r), Duration.ofSeconds(10),
                  kit.system().scheduler()).toCompletableFuture().get(15, TimeUnit.SECONDS);
              assertEquals(s, ack);
            }
            if (sender == 0 && seq % 40 == 20) {
              logs.get(seq % actors).tell(new Crash()); // restarted: recovers, the commands behind it wait
            }
          }
        } catch (Exception e) {
          throw new IllegalStateException("sender " + sender + " failed", e);
        }
      }));
    }
    go.countDown();
    CompletableFuture.allOf(senders.toArray(CompletableFuture[]::new)).get(90, TimeUnit.SECONDS);

    List<Integer> expected = new ArrayList<>();
    for (int seq = 0; seq < perThread; seq++) {
      expected.add(seq);
    }
    for (int i = 0; i < actors; i++) {
      assertAll(logs.get(i), threads, expected, "live " + i);
      kit.stop(logs.get(i));
      assertAll(kit.spawn(new Log("l" + i)), threads, expected, "recovered " + i);
    }
  }

  private void assertAll(ActorRef<Command> log, int threads, List<Integer> expected, String which) throws Exception {
    Map<Integer, List<Integer>> dump = AskPattern.<Command, Map<Integer, List<Integer>>>ask(log, Dump::new,
        Duration.ofSeconds(10), kit.system().scheduler()).toCompletableFuture().get(15, TimeUnit.SECONDS);
    assertEquals(threads, dump.size(), which + ": every sender's events");
    for (int s = 0; s < threads; s++) {
      assertEquals(expected, dump.get(s), which + ", sender " + s + ": each event once, in order");
    }
  }
}
