package dev.troupe.remote.internal.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorPath;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One inbound lane with an executor the test runs by hand (and, in the stress test, a real pool):
 * nothing is delivered on the submitting thread, order is kept, runs give their thread back after a
 * batch and an empty lane schedules nothing; a full lane holds back the connections that fed it
 * and lets them go at half; a failed delivery loses only its own message; a terminated executor
 * drops what waits, with the reason.
 */
class InboundLaneTest {
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final EmbeddedChannel other = new EmbeddedChannel();
  private final ReadGate gate = new ReadGate(channel);
  private final ReadGate otherGate = new ReadGate(other);
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
  private final Queue<Object> delivered = new ConcurrentLinkedQueue<>();
  private final List<String> dropped = new ArrayList<>();

  /** A message on the lane: a value, its size, its connection. */
  private record Msg(Object value, int size, ReadGate gate) implements InboundLane.Item {}

  private final InboundLane.Target<Msg> target =
      new InboundLane.Target<>() {
        @Override
        public void deliver(Msg m) {
          if ("boom".equals(m.value())) {
            throw new IllegalStateException("boom");
          }
          delivered.add(m.value());
        }

        @Override
        public void dropped(Msg m, String why) {
          dropped.add(m.value() + ": " + why);
        }
      };

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    other.finishAndReleaseAll();
  }

  private InboundLane<Msg> lane(int limit, long maxBytes) {
    return new InboundLane<>(tasks::add, limit, maxBytes, target);
  }

  private Msg msg(Object value) {
    return new Msg(value, 10, gate);
  }

  private void runTasks() {
    for (Runnable r; (r = tasks.poll()) != null; ) {
      r.run();
    }
  }

  @Test
  void messagesAreDeliveredOnTheExecutorInOrderABatchARun() {
    InboundLane<Msg> lane = lane(10_000, 1 << 20);
    int n = InboundLane.BATCH * 2 + 5;
    for (int i = 0; i < n; i++) {
      lane.submit(msg(i));
    }
    assertTrue(delivered.isEmpty(), "nothing is delivered on the submitting thread");
    assertEquals(1, tasks.size(), "one run at a time");

    tasks.poll().run();
    assertEquals(InboundLane.BATCH, delivered.size(), "a run gives its thread back after a batch");
    assertEquals(1, tasks.size(), "and schedules itself again");
    runTasks();

    assertEquals(IntStream.range(0, n).boxed().toList(), List.copyOf(delivered));
    assertEquals(0, lane.waiting());
    assertFalse(lane.scheduled(), "an empty lane has no run scheduled");
    lane.submit(msg("again"));
    assertEquals(1, tasks.size(), "the next message schedules a run again");
    runTasks();
    assertFalse(lane.scheduled());
  }

  @Test
  void aFullLaneHoldsBackTheConnectionsThatFedItAndLetsThemGoAtHalf() {
    InboundLane<Msg> lane = lane(4, 1 << 20);
    lane.submit(msg(0));
    lane.submit(new Msg(1, 10, otherGate));
    lane.submit(msg(2));
    assertTrue(channel.config().isAutoRead(), "below the limit");
    lane.submit(msg(3));
    assertFalse(channel.config().isAutoRead(), "at the limit the connection that fed it stops reading");
    assertTrue(other.config().isAutoRead(), "a connection that sent nothing at the limit reads on");
    lane.submit(new Msg(4, 10, otherGate)); // a read already under way may hand over more
    assertFalse(other.config().isAutoRead(), "it too, once it feeds the full lane");
    lane.submit(msg(5));
    assertEquals(2, lane.heldConnections(), "each connection held once");

    runTasks();
    assertTrue(channel.config().isAutoRead(), "reading again once the lane drained");
    assertTrue(other.config().isAutoRead());
    assertEquals(0, lane.heldConnections());
    assertEquals(IntStream.range(0, 6).boxed().toList(), List.copyOf(delivered), "nothing lost");
  }

  @Test
  void readingPausesAtTheByteBound() {
    InboundLane<Msg> lane = lane(1000, 1000);
    lane.submit(new Msg("big-1", 600, gate));
    assertTrue(channel.config().isAutoRead());
    lane.submit(new Msg("big-2", 600, gate));
    assertFalse(channel.config().isAutoRead(), "1200 bytes wait, above 1000");
    runTasks();
    assertTrue(channel.config().isAutoRead());
  }

  @Test
  void aConnectionHeldByItsSelectionsToo() {
    InboundLane<Msg> lane = lane(2, 1 << 20);
    gate.hold(); // its selection queue is full
    lane.submit(msg(0));
    lane.submit(msg(1));
    assertEquals(1, lane.heldConnections());
    runTasks();
    assertFalse(channel.config().isAutoRead(), "the lane drained, the selections did not: the connection still waits");
    gate.release();
    assertTrue(channel.config().isAutoRead());
  }

  @Test
  void aFailedDeliveryIsDroppedAndTheNextMessageIsDelivered() {
    InboundLane<Msg> lane = lane(100, 1 << 20);
    lane.submit(msg("boom"));
    lane.submit(msg("after"));
    runTasks();
    assertEquals(List.of("after"), List.copyOf(delivered));
    assertEquals(1, dropped.size());
    assertTrue(dropped.get(0).startsWith("boom: delivery failed"), dropped.get(0));
  }

  @Test
  void aTerminatedExecutorDropsWhatWaitsWithTheReasonAndReadingGoesOn() {
    InboundLane<Msg> lane =
        new InboundLane<>(
            r -> {
              throw new RejectedExecutionException("terminated");
            },
            1,
            1 << 20,
            target);
    lane.submit(msg("late"));
    assertTrue(delivered.isEmpty());
    assertEquals(1, dropped.size());
    assertTrue(dropped.get(0).startsWith("late: the system terminates"), dropped.get(0));
    assertEquals(0, lane.waiting());
    assertFalse(lane.scheduled());
    assertTrue(channel.config().isAutoRead(), "nothing waits: the connection reads");
  }

  @Test
  void theLaneOfAPathIgnoresTheUidAndSpreadsPaths() {
    ActorPath p = ActorPath.fromString("troupe://b@127.0.0.1:1/user/r-1");
    ActorPath withUid = ActorPath.fromString("troupe://b@127.0.0.1:1/user/r-1#42");
    assertEquals(InboundLanes.index(p.hashCode(), 4), InboundLanes.index(withUid.hashCode(), 4));
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < 64; i++) {
      used.add(InboundLanes.index(ActorPath.fromString("troupe://b@127.0.0.1:1/user/r-" + i).hashCode(), 4));
    }
    assertEquals(4, used.size(), "64 recipients use every lane");
    assertNotEquals(-1, InboundLanes.index(Integer.MIN_VALUE, 3));
  }

  /**
   * Many event loops, one lane, a real pool: each producer's messages arrive in its order, none is
   * lost, and once all are delivered no run remains scheduled. Bounded: 4 producers x 20,000.
   */
  @Test
  void manyProducersKeepTheirOrderAndNothingIsLost() throws Exception {
    int producers = 4;
    int each = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    ExecutorService loops = Executors.newFixedThreadPool(producers);
    try {
      int[] next = new int[producers];
      AtomicReference<String> failure = new AtomicReference<>();
      CountDownLatch all = new CountDownLatch(producers * each);
      InboundLane<Msg> lane =
          new InboundLane<>(
              pool,
              256,
              1 << 20,
              new InboundLane.Target<>() {
                @Override
                public void deliver(Msg m) { // one run at a time: no lock needed for next[]
                  int[] pv = (int[]) m.value();
                  if (next[pv[0]] != pv[1]) {
                    failure.compareAndSet(null, "producer " + pv[0] + ": expected " + next[pv[0]] + ", got " + pv[1]);
                  }
                  next[pv[0]] = pv[1] + 1;
                  all.countDown();
                }

                @Override
                public void dropped(Msg m, String why) {
                  failure.compareAndSet(null, "dropped: " + why);
                }
              });
      for (int p = 0; p < producers; p++) {
        int id = p;
        ReadGate g = new ReadGate(new EmbeddedChannel());
        loops.execute(
            () -> {
              for (int i = 0; i < each; i++) {
                lane.submit(new Msg(new int[] {id, i}, 8, g));
              }
            });
      }
      assertTrue(all.await(30, TimeUnit.SECONDS), "not all delivered within 30 s: " + all.getCount() + " missing");
      assertEquals(null, failure.get());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (lane.scheduled() && System.nanoTime() < deadline) {
        Thread.onSpinWait(); // the last run sets the lane idle just after its last delivery
      }
      assertFalse(lane.scheduled(), "no run scheduled once everything is delivered");
      assertEquals(0, lane.waiting());
      assertEquals(0, lane.heldConnections(), "every connection held was let go");
    } finally {
      loops.shutdownNow();
      pool.shutdownNow();
    }
  }
}
