package dev.troupe.remote.internal.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The queue of one connection's selections, with an executor the test runs by hand: nothing is
 * resolved on the submitting (event loop) thread, the order is kept, reading pauses at the bounds
 * and resumes at half, and a terminated dispatcher drops what waits, with the reason.
 */
class InboundSelectionsTest {
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
  private final List<Object> delivered = new ArrayList<>();
  private final List<String> dropped = new ArrayList<>();
  private final InboundSelections.Target target =
      new InboundSelections.Target() {
        @Override
        public void deliver(ActorSelectionMessage selection, ActorRef sender) {
          delivered.add(selection.message());
        }

        @Override
        public void dropped(ActorSelectionMessage selection, ActorRef sender, String why) {
          dropped.add(selection.message() + ": " + why);
        }
      };

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  private InboundSelections queue(int limit, long maxBytes) {
    return queue(tasks::add, limit, maxBytes);
  }

  private InboundSelections queue(Executor executor, int limit, long maxBytes) {
    return new InboundSelections(new ReadGate(channel), executor, limit, maxBytes, target);
  }

  private static ActorSelectionMessage selection(Object message) {
    return new ActorSelectionMessage(message, List.of("user", "*"));
  }

  private void runTasks() {
    for (Runnable r; (r = tasks.poll()) != null; ) {
      r.run();
    }
  }

  @Test
  void selectionsAreResolvedOnTheExecutorInTheOrderTheyArrived() {
    InboundSelections q = queue(1000, 1 << 20);
    for (int i = 0; i < 40; i++) {
      q.submit(selection(i), null, 10);
    }
    assertEquals(List.of(), delivered, "nothing is resolved on the submitting thread");
    assertEquals(1, tasks.size(), "one drain at a time");

    tasks.poll().run();
    assertEquals(InboundSelections.BATCH, delivered.size(), "a drain gives its thread back after a batch");
    assertEquals(1, tasks.size(), "and submits itself again");
    runTasks();

    assertEquals(IntStream.range(0, 40).boxed().toList(), delivered);
    assertEquals(0, q.waiting());
  }

  @Test
  void readingPausesAtTheLimitAndResumesAtHalf() {
    InboundSelections q = queue(4, 1 << 20);
    for (int i = 0; i < 3; i++) {
      q.submit(selection(i), null, 10);
    }
    assertTrue(channel.config().isAutoRead(), "below the limit");
    q.submit(selection(3), null, 10);
    assertFalse(channel.config().isAutoRead(), "at the limit the connection stops reading");
    q.submit(selection(4), null, 10); // a read already under way may still deliver frames
    assertEquals(5, q.waiting());

    runTasks();
    assertTrue(channel.config().isAutoRead(), "reading again once the queue drained");
    assertEquals(IntStream.range(0, 5).boxed().toList(), delivered);
  }

  @Test
  void readingPausesAtTheByteBound() {
    InboundSelections q = queue(1000, 1000);
    q.submit(selection("big-1"), null, 600);
    assertTrue(channel.config().isAutoRead());
    q.submit(selection("big-2"), null, 600);
    assertFalse(channel.config().isAutoRead(), "1200 bytes wait, above 1000");
    runTasks();
    assertTrue(channel.config().isAutoRead());
  }

  @Test
  void aTerminatedDispatcherDropsWhatWaitsWithTheReasonAndReadingGoesOn() {
    InboundSelections q =
        queue(
            r -> {
              throw new RejectedExecutionException("terminated");
            },
            1,
            1 << 20);
    q.submit(selection("late"), null, 10);
    assertEquals(List.of(), delivered);
    assertEquals(1, dropped.size());
    assertTrue(dropped.get(0).startsWith("late: the system terminates"), dropped.get(0));
    assertEquals(0, q.waiting());
    assertTrue(channel.config().isAutoRead());
  }
}
