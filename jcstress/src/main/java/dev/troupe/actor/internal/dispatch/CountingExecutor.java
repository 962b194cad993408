package dev.troupe.actor.internal.dispatch;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** An executor that only counts hand-offs: the test decides who runs the mailbox. */
final class CountingExecutor extends AbstractExecutorService {
  final AtomicInteger executions = new AtomicInteger();

  @Override
  public void execute(Runnable command) {
    executions.incrementAndGet();
  }

  @Override
  public void shutdown() {}

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }
}
