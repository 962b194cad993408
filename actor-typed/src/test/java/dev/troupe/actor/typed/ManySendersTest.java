package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Many threads telling one typed actor: nothing lost, each sender's order kept (bounded in count and time). */
class ManySendersTest {
  private static final int SENDERS = 8;
  private static final int PER_SENDER = 20_000;

  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("many");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private record Numbered(int sender, int seq) {}

  private record Result(long received, int outOfOrder) {}

  @Test
  void everyMessageArrivesInEachSendersOrder() throws Exception {
    Probe<Result> probe = new Probe<>(system);
    ActorRef<Numbered> counter = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Numbered>setup(ctx -> {
      int[] next = new int[SENDERS];
      long[] received = {0};
      int[] outOfOrder = {0};
      return Behaviors.receiveMessage(n -> {
        if (n.seq() != next[n.sender()]) {
          outOfOrder[0]++;
        }
        next[n.sender()] = n.seq() + 1;
        if (++received[0] == (long) SENDERS * PER_SENDER) {
          probe.ref().tell(new Result(received[0], outOfOrder[0]));
        }
        return Behaviors.same();
      });
    }));
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int s = 0; s < SENDERS; s++) {
      int sender = s;
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < PER_SENDER; i++) {
          counter.tell(new Numbered(sender, i));
        }
      }, "sender-" + s);
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(30));
    }
    Result r = (Result) probe.receive(java.time.Duration.ofSeconds(30));
    assertEquals(new Result((long) SENDERS * PER_SENDER, 0), r);
  }
}
