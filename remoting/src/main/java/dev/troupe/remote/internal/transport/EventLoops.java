package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.remote.internal.config.RemoteSettings.Transport;
import io.netty.channel.ChannelFactory;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The network threads of one system: one or two event loops, each one thread named {@code
 * <system>-remote-io-…}. Loop 0 accepts connections; accepted connections are read on the last
 * loop; outbound lanes take turns over all of them.
 *
 * <p>The loops run Netty's NIO transport or its native epoll one ({@code
 * troupe.remote.advanced.transport}); the channels of the connections and of the server come from
 * here, of the kind that the loops serve. NIO loops are woken by other threads through their
 * selector alone ({@link DirectWakeupNio}); epoll loops write their eventfd only while they wait.
 *
 * <p>Standalone loops rather than Netty's {@code MultiThreadIoEventLoopGroup}: the group
 * aggregates its children's termination through Netty's process-wide {@code GlobalEventExecutor},
 * whose thread (named after no system) would start on every system's termination.
 *
 * <p>Each loop's IO handler is {@linkplain GuardedIoHandler guarded}: an {@link Error} thrown
 * while it processes IO does not end its thread.
 */
public final class EventLoops {
  private static final String KEY = "troupe.remote.advanced.transport";

  private final IoEventLoop[] loops;
  private final AtomicInteger turn = new AtomicInteger();
  private final boolean epoll;

  /** NIO loops. */
  public EventLoops(String systemName, int threads, RateLimitedLog log) {
    this(systemName, threads, Transport.NIO, log);
  }

  /**
   * @param transport the transport; {@code AUTO} is epoll when {@link Epoll#isAvailable()}, else NIO
   * @param log where an {@link Error} that a loop survived is reported ({@link GuardedIoHandler})
   * @throws ConfigurationException if {@code transport} is {@code EPOLL} and epoll cannot be used
   *     here (before any thread is started)
   */
  public EventLoops(String systemName, int threads, Transport transport, RateLimitedLog log) {
    this.epoll = useEpoll(transport);
    DefaultThreadFactory threadFactory = new DefaultThreadFactory(systemName + "-remote-io", true);
    IoHandlerFactory handlers = GuardedIoHandler.guard(ioHandlers(epoll), log);
    loops = new IoEventLoop[threads];
    for (int i = 0; i < threads; i++) {
      loops[i] = new SingleThreadIoEventLoop(null, threadFactory, handlers);
    }
  }

  /** @return whether {@code transport} means epoll here */
  static boolean useEpoll(Transport transport) {
    return switch (transport) {
      case NIO -> false;
      case AUTO -> Epoll.isAvailable();
      case EPOLL -> {
        if (!Epoll.isAvailable()) {
          Throwable cause = Epoll.unavailabilityCause();
          throw new ConfigurationException(
              "invalid configuration value at '" + KEY + "': epoll, but Netty's native epoll transport cannot be used"
                  + " here (it needs Linux and io.netty:netty-transport-native-epoll of Netty's version, with the"
                  + " classifier of this machine, on the class path): " + cause,
              cause);
        }
        yield true;
      }
    };
  }

  /** @return the factory of unguarded IO handlers of the transport */
  static IoHandlerFactory ioHandlers(boolean epoll) {
    return epoll ? EpollIoHandler.newFactory() : DirectWakeupNio.factory();
  }

  /** @return whether the loops run the epoll transport (else NIO) */
  boolean epoll() {
    return epoll;
  }

  /** @return the factory of outbound connections' channels, of the loops' transport */
  ChannelFactory<SocketChannel> socketChannels() {
    return epoll ? EpollSocketChannel::new : NioSocketChannel::new;
  }

  /**
   * @return the factory of the server channel, of the loops' transport; the NIO one is {@linkplain
   *     GuardedServerSocketChannel guarded}, epoll's stays open after a failed accept as it is
   */
  ChannelFactory<ServerChannel> serverChannels() {
    return epoll ? EpollServerSocketChannel::new : GuardedServerSocketChannel::new;
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
