package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.executors.TestSupport.RecordingThreadFactory;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AffinityPoolErrorHandlingTest {

  @Test
  void aThrowingTaskGoesToTheErrorHandlerAndTheWorkerRunsLaterTasks() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("errors");
    BlockingQueue<Throwable> errors = new ArrayBlockingQueue<>(10);
    BlockingQueue<Thread> handledOn = new ArrayBlockingQueue<>(10);
    AffinityPool pool =
        AffinityPool.builder()
            .parallelism(1)
            .threadFactory(threads)
            .errorHandler(
                t -> {
                  handledOn.add(Thread.currentThread());
                  errors.add(t);
                })
            .build();
    try {
      IllegalStateException boom = new IllegalStateException("boom");
      pool.execute(
          () -> {
            throw boom;
          });
      pool.execute(
          () -> {
            throw new AssertionError("an Error too");
          });
      BlockingQueue<Thread> ranOn = new ArrayBlockingQueue<>(1);
      pool.execute(() -> ranOn.add(Thread.currentThread()));

      assertSame(boom, errors.poll(5, TimeUnit.SECONDS), "first error handed to the handler");
      assertTrue(errors.poll(5, TimeUnit.SECONDS) instanceof AssertionError, "Errors as well");
      Thread worker = threads.threads.get(0);
      assertSame(worker, ranOn.poll(5, TimeUnit.SECONDS), "a later task ran on the same worker");
      assertSame(worker, handledOn.poll(), "handler called on the worker thread");
      assertTrue(worker.isAlive(), "worker still alive");
      assertEquals(2, pool.errorCount(), "errors counted");
      TestSupport.awaitTrue(
          Duration.ofSeconds(5),
          () -> "completed count " + pool.completedTaskCount() + ", failed tasks count as run",
          () -> pool.completedTaskCount() == 3);
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  @Test
  void anErrorHandlerThatThrowsDoesNotKillTheWorker() throws Exception {
    RecordingThreadFactory threads = new RecordingThreadFactory("bad-handler");
    AffinityPool pool =
        AffinityPool.builder()
            .parallelism(1)
            .threadFactory(threads)
            .errorHandler(
                t -> {
                  throw new IllegalStateException("handler fails too");
                })
            .build();
    try {
      pool.execute(
          () -> {
            throw new IllegalArgumentException("task fails");
          });
      CountDownLatch later = new CountDownLatch(1);
      pool.execute(later::countDown);
      assertTrue(later.await(5, TimeUnit.SECONDS), "a later task still ran");
      assertEquals(1, pool.errorCount(), "error counted");
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }

  @Test
  void byDefaultErrorsGoToTheWorkerThreadsUncaughtExceptionHandler() throws Exception {
    BlockingQueue<Throwable> uncaught = new ArrayBlockingQueue<>(1);
    RecordingThreadFactory threads =
        new RecordingThreadFactory("default-handler") {
          @Override
          public Thread newThread(Runnable r) {
            Thread t = super.newThread(r);
            t.setUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
            return t;
          }
        };
    AffinityPool pool = AffinityPool.builder().parallelism(1).threadFactory(threads).build();
    try {
      RuntimeException boom = new RuntimeException("to the UEH");
      pool.execute(
          () -> {
            throw boom;
          });
      assertSame(boom, uncaught.poll(5, TimeUnit.SECONDS), "uncaught-exception handler called");
      CountDownLatch later = new CountDownLatch(1);
      pool.execute(later::countDown);
      assertTrue(later.await(5, TimeUnit.SECONDS), "worker survived");
    } finally {
      TestSupport.shutdownAndVerify(pool, threads);
    }
  }
}
