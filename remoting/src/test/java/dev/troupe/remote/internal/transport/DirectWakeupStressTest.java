package dev.troupe.remote.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.IoEventLoop;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * No task handed to an idle NIO loop waits for a wake-up that never comes ({@link DirectWakeupNio}).
 * A loop with no scheduled task sleeps in its select until Netty's one-second purge interval, so a
 * lost wake-up shows as a task that waited about a second. Threads hand the loop tasks one at a
 * time, each waiting for its task to run before the next, with pauses of random length in between
 * so that the loop is caught busy, about to select and asleep in every mix: first one thread alone
 * (no other sender's wake-up can rescue a lost one), then several at once. No task may wait 900 ms
 * or more (far above a scheduling delay of a runnable thread, even on a loaded machine), and every
 * task must run within 10 s.
 */
class DirectWakeupStressTest {
  private static final long PHASE_NANOS = TimeUnit.SECONDS.toNanos(3);
  private static final long TASK_BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final long SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(900);

  @Test
  void everyTaskHandedToAnIdleOrBusyLoopRunsWithoutWaitingForTheSelectTimeout() throws Exception {
    IoEventLoop loop = new SingleThreadIoEventLoop(null, new DefaultThreadFactory("wakeup-stress", true), EventLoops.ioHandlers(false));
    try {
      hammer(loop, 1);
      hammer(loop, 6);
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
    assertTrue(loop.terminationFuture().await(5, TimeUnit.SECONDS), "the loop did not stop");
    assertEquals(true, loop.isTerminated());
  }

  private static void hammer(IoEventLoop loop, int senders) throws InterruptedException {
    AtomicReference<String> failure = new AtomicReference<>();
    AtomicInteger ran = new AtomicInteger();
    AtomicInteger slow = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(senders);
    long end = System.nanoTime() + PHASE_NANOS;
    {
      for (int s = 0; s < senders; s++) {
        int sender = s;
        Thread t =
            new Thread(
                () -> {
                  try {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    int round = 0;
                    while (System.nanoTime() < end && failure.get() == null) {
                      CountDownLatch taskRan = new CountDownLatch(1);
                      long start = System.nanoTime();
                      loop.execute(
                          () -> {
                            ran.incrementAndGet();
                            taskRan.countDown();
                          });
                      if (!taskRan.await(TASK_BOUND_NANOS, TimeUnit.NANOSECONDS)) {
                        failure.compareAndSet(null, "sender " + sender + "'s task of round " + round + " did not run within 10 s: a lost wake-up");
                        return;
                      }
                      if (System.nanoTime() - start >= SLOW_NANOS) {
                        slow.incrementAndGet();
                      }
                      round++;
                      switch (random.nextInt(4)) {
                        case 0 -> { } // at once: the loop is likely still busy
                        case 1 -> Thread.onSpinWait();
                        case 2 -> LockSupport.parkNanos(random.nextLong(1_000, 50_000));
                        default -> LockSupport.parkNanos(random.nextLong(50_000, 500_000)); // the loop has gone to sleep
                      }
                    }
                  } catch (InterruptedException e) {
                    failure.compareAndSet(null, "sender " + sender + " interrupted");
                  } finally {
                    done.countDown();
                  }
                },
                "wakeup-sender-" + s);
        t.setDaemon(true);
        t.start();
      }
      assertTrue(done.await(PHASE_NANOS + TASK_BOUND_NANOS + TimeUnit.SECONDS.toNanos(5), TimeUnit.NANOSECONDS), "the senders did not finish");
    }
    assertNull(failure.get());
    assertEquals(0, slow.get(), slow.get() + " of " + ran.get() + " tasks from " + senders + " sender(s) waited 900 ms or more: a lost wake-up, found by the select's timeout");
    assertTrue(ran.get() >= senders * 50, "only " + ran.get() + " tasks ran in 3 s");
  }
}
