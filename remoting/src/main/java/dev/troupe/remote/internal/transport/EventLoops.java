package dev.troupe.remote.internal.transport;

import io.netty.channel.IoEventLoop;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The network threads of one system: one or two NIO event loops, each one thread named {@code
 * <system>-remote-io-…}. Loop 0 accepts connections; accepted connections are read on the last
 * loop; outbound lanes take turns over all of them.
 *
 * <p>Standalone loops rather than Netty's {@code MultiThreadIoEventLoopGroup}: the group
 * aggregates its children's termination through Netty's process-wide {@code GlobalEventExecutor},
 * whose thread (named after no system) would start on every system's termination.
 *
 * <p>Each loop's IO handler is {@linkplain GuardedIoHandler guarded}: an {@link Error} thrown
 * while it processes IO does not end its thread.
 */
public final class EventLoops {
  private final IoEventLoop[] loops;
  private final AtomicInteger turn = new AtomicInteger();

  /** @param log where an {@link Error} that a loop survived is reported ({@link GuardedIoHandler}) */
  public EventLoops(String systemName, int threads, RateLimitedLog log) {
    DefaultThreadFactory threadFactory = new DefaultThreadFactory(systemName + "-remote-io", true);
    loops = new IoEventLoop[threads];
    for (int i = 0; i < threads; i++) {
      loops[i] = new SingleThreadIoEventLoop(null, threadFactory, GuardedIoHandler.guard(NioIoHandler.newFactory(), log));
    }
  }

  /** @return the loop that accepts connections */
  IoEventLoop acceptor() {
    return loops[0];
  }

  /** @return the loop that reads accepted connections */
  IoEventLoop inbound() {
    return loops[loops.length - 1];
  }

  /** @return whether the caller runs on one of these loops */
  boolean inEventLoop() {
    for (IoEventLoop loop : loops) {
      if (loop.inEventLoop()) {
        return true;
      }
    }
    return false;
  }

  /** @return the next loop for an outbound lane, in turn */
  public IoEventLoop next() {
    return loops[Math.floorMod(turn.getAndIncrement(), loops.length)];
  }

  /**
   * Stops every loop once its queued tasks ran (their channels are closed), waiting at most
   * {@code timeout} unless called on one of them.
   *
   * @return false if a loop was still running after {@code timeout}
   */
  public boolean shutdown(Duration timeout) {
    for (IoEventLoop loop : loops) {
      loop.shutdownGracefully(0, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
    if (inEventLoop()) {
      return true; // cannot wait for the thread we are on
    }
    long deadline = System.nanoTime() + timeout.toNanos() + TimeUnit.SECONDS.toNanos(1);
    for (IoEventLoop loop : loops) {
      if (!loop.terminationFuture().awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        return false;
      }
    }
    return true;
  }
}
