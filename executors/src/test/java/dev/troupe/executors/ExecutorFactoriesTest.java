package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExecutorFactoriesTest {

  @Test
  void namedThreadFactoryNamesThreadsWithAPrefixAndACounterFromOne() {
    NamedThreadFactory f = new NamedThreadFactory("demo-dispatcher", true);
    Thread a = f.newThread(() -> {});
    Thread b = f.newThread(() -> {});
    assertEquals("demo-dispatcher-1", a.getName());
    assertEquals("demo-dispatcher-2", b.getName());
    assertTrue(a.isDaemon(), "daemon as asked");
    assertFalse(new NamedThreadFactory("x", false).newThread(() -> {}).isDaemon(), "non-daemon");
  }

  @Test
  void forkJoinPoolHasNamedThreadsTheModeAndTheHandler() throws Exception {
    Thread.UncaughtExceptionHandler handler = (t, e) -> {};
    ExecutorService es = ExecutorFactories.forkJoin(2, true, "fj-test", true, handler);
    try {
      ForkJoinPool fj = assertInstanceOf(ForkJoinPool.class, es);
      assertEquals(2, fj.getParallelism());
      assertTrue(fj.getAsyncMode(), "async mode");
      assertEquals(handler, fj.getUncaughtExceptionHandler());
      String name = es.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
      assertTrue(name.matches("fj-test-\\d+"), name);
      boolean daemon = es.submit(() -> Thread.currentThread().isDaemon()).get(5, TimeUnit.SECONDS);
      assertTrue(daemon, "daemon threads as asked");
    } finally {
      es.shutdown();
      assertTrue(es.awaitTermination(5, TimeUnit.SECONDS), "fork-join pool terminated");
    }
  }

  @Test
  void threadPoolWithABoundedQueueRejectsWhenFullAndUnboundedDoesNot() throws Exception {
    ExecutorService bounded =
        ExecutorFactories.threadPool(
            1, 1, Duration.ofSeconds(1), 1, new NamedThreadFactory("tp-test", true));
    CountDownLatch release = new CountDownLatch(1);
    try {
      ThreadPoolExecutor tpe = assertInstanceOf(ThreadPoolExecutor.class, bounded);
      assertInstanceOf(ArrayBlockingQueue.class, tpe.getQueue());
      assertEquals(1, tpe.getCorePoolSize());
      assertEquals(1, tpe.getMaximumPoolSize());
      assertEquals(1, tpe.getKeepAliveTime(TimeUnit.SECONDS));
      CountDownLatch started = new CountDownLatch(1);
      bounded.execute(
          () -> {
            started.countDown();
            try {
              release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      assertTrue(started.await(5, TimeUnit.SECONDS), "worker busy");
      bounded.execute(() -> {}); // fills the queue of 1
      assertThrows(RejectedExecutionException.class, () -> bounded.execute(() -> {}));
    } finally {
      release.countDown();
      bounded.shutdown();
      assertTrue(bounded.awaitTermination(5, TimeUnit.SECONDS), "terminated");
    }
    ExecutorService unbounded =
        ExecutorFactories.threadPool(
            2, 4, Duration.ZERO, 0, new NamedThreadFactory("tp-unbounded", true));
    try {
      ThreadPoolExecutor tpe = assertInstanceOf(ThreadPoolExecutor.class, unbounded);
      assertInstanceOf(LinkedBlockingQueue.class, tpe.getQueue());
      String name =
          unbounded.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
      assertTrue(name.startsWith("tp-unbounded-"), name);
    } finally {
      unbounded.shutdown();
      assertTrue(unbounded.awaitTermination(5, TimeUnit.SECONDS), "terminated");
    }
  }
}
