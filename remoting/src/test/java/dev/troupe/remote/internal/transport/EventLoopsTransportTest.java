package dev.troupe.remote.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.remote.internal.config.RemoteSettings.Transport;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.Errors;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The choice of transport of {@link EventLoops} ({@code troupe.remote.advanced.transport}) and the
 * wake-up of its NIO loops from other threads ({@link DirectWakeupNio}).
 */
class EventLoopsTransportTest {
  private static final RateLimitedLog LOG = new RateLimitedLog(LoggerFactory.getLogger(EventLoopsTransportTest.class), 1_000_000_000L, 10);

  @Test
  void nioIsNioAndAutoIsEpollWhereverEpollCanBeUsed() {
    assertFalse(EventLoops.useEpoll(Transport.NIO));
    assertEquals(Epoll.isAvailable(), EventLoops.useEpoll(Transport.AUTO));
    EventLoops loops = new EventLoops("nio-choice", 1, Transport.NIO, LOG);
    try {
      assertFalse(loops.epoll());
      assertTrue(loops.socketChannels().newChannel() instanceof NioSocketChannel);
      assertTrue(loops.serverChannels().newChannel() instanceof GuardedServerSocketChannel);
    } finally {
      assertTrue(loops.shutdown(Duration.ofSeconds(10)));
    }
  }

  @Test
  void epollWhereItCannotBeUsedFailsAtStartNamingTheKeyAndTheCause() {
    assumeFalse(Epoll.isAvailable(), "Netty's native epoll library is on this class path");
    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> new EventLoops("epoll-choice", 1, Transport.EPOLL, LOG));
    assertTrue(e.getMessage().contains("'troupe.remote.advanced.transport'"), e.getMessage());
    assertTrue(e.getMessage().contains(String.valueOf(Epoll.unavailabilityCause())), e.getMessage());
  }

  @Test
  void aBindToAPortInUseIsToldApartOnNio() {
    assertTrue(NettyTransport.addressInUse(new java.net.BindException("Address already in use")));
    assertFalse(NettyTransport.addressInUse(new java.io.IOException("other")));
  }

  /** Runs where Netty's native library is loaded (the native-epoll profile): its errors need it. */
  @Test
  void aBindToAPortInUseIsToldApartOnEpoll() {
    assumeTrue(Epoll.isAvailable(), "Netty's native epoll library is not on this class path");
    assertTrue(
        NettyTransport.addressInUse(new Errors.NativeIoException("bind(..) failed with error(-98): Address already in use", -98)));
    assertFalse(
        NettyTransport.addressInUse(new Errors.NativeIoException("bind(..) failed with error(-13): Permission denied", -13)));
  }

  private static ThreadAwareExecutor loopOn(Thread loopThread) {
    return new ThreadAwareExecutor() {
      @Override
      public boolean isExecutorThread(Thread thread) {
        return thread == loopThread;
      }

      @Override
      public void execute(Runnable command) {
        throw new UnsupportedOperationException();
      }
    };
  }

  /** A round with nothing to do, whose select waits until {@code delay} from now unless woken. */
  private static IoHandlerContext idleRound(long delay) {
    return new IoHandlerContext() {
      @Override
      public boolean canBlock() {
        return true;
      }

      @Override
      public long delayNanos(long currentTimeNanos) {
        return delay;
      }

      @Override
      public long deadlineNanos() {
        return System.nanoTime() + delay;
      }
    };
  }

  /**
   * A wake-up that comes while the loop is not waiting (it runs its tasks, say, and will look at
   * its queue before it selects again) writes nothing to its selector: the next idle round sleeps
   * until its deadline.
   */
  @Test
  void aLoopThatIsNotWaitingIsNotWoken() throws Exception {
    IoHandler handler = EventLoops.ioHandlers(false).newHandler(loopOn(Thread.currentThread()));
    handler.initialize();
    try {
      long delay = TimeUnit.MILLISECONDS.toNanos(400);
      handler.run(idleRound(TimeUnit.MILLISECONDS.toNanos(1))); // a first round, then the loop runs its tasks
      Thread sender = new Thread(handler::wakeup);
      sender.start();
      sender.join();
      long start = System.nanoTime();
      handler.run(idleRound(delay));
      long slept = System.nanoTime() - start;
      assertTrue(
          slept >= delay / 2,
          "an idle round after a wake-up between rounds returned after " + TimeUnit.NANOSECONDS.toMillis(slept)
              + " ms, before its deadline of " + TimeUnit.NANOSECONDS.toMillis(delay) + " ms: the busy loop was woken");
    } finally {
      handler.prepareToDestroy();
      handler.destroy();
    }
  }

  /**
   * A loop woken by another thread while it selects, with a task queued, does not wake itself as
   * well: its next round sleeps until its deadline instead of returning at once. The handler is
   * driven by this thread, standing for the loop's, so that the wake-up lands exactly between the
   * handler's last look at the task queue and its select.
   */
  @Test
  void aLoopWokenFromOutsideDoesNotWakeItselfAgain() throws Exception {
    IoHandler handler = EventLoops.ioHandlers(false).newHandler(loopOn(Thread.currentThread()));
    handler.initialize();
    AtomicBoolean taskQueued = new AtomicBoolean();
    AtomicInteger looks = new AtomicInteger();
    long delay = TimeUnit.MILLISECONDS.toNanos(400);
    IoHandlerContext firstRound =
        new IoHandlerContext() {
          @Override
          public boolean canBlock() {
            // the first look decides to select, the second is the last before the select: another
            // thread queues a task and wakes the loop just after it
            if (looks.incrementAndGet() == 2) {
              Thread sender =
                  new Thread(
                      () -> {
                        taskQueued.set(true);
                        handler.wakeup();
                      });
              sender.start();
              try {
                sender.join();
              } catch (InterruptedException e) {
                throw new AssertionError(e);
              }
              return true;
            }
            return !taskQueued.get();
          }

          @Override
          public long delayNanos(long currentTimeNanos) {
            return delay;
          }

          @Override
          public long deadlineNanos() {
            return System.nanoTime() + delay;
          }
        };
    try {
      handler.run(firstRound);
      assertTrue(taskQueued.get(), "the sender ran during the round");

      // the task ran; the next round has nothing to do and should sleep until its deadline
      IoHandlerContext idle = idleRound(delay);
      long idleStart = System.nanoTime();
      handler.run(idle);
      long slept = System.nanoTime() - idleStart;
      assertTrue(
          slept >= delay / 2,
          "an idle round after a wake-up from outside returned after " + TimeUnit.NANOSECONDS.toMillis(slept)
              + " ms, before its deadline of " + TimeUnit.NANOSECONDS.toMillis(delay) + " ms: the loop had woken itself");
    } finally {
      handler.prepareToDestroy();
      handler.destroy();
    }
  }
}
