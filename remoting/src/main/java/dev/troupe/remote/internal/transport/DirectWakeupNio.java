package dev.troupe.remote.internal.transport;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.io.IOException;
import java.net.ProtocolFamily;
import java.nio.channels.Channel;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;

/**
 * Netty's NIO IO handler, except that another thread wakes the loop by waking its selector
 * directly, which saves the loop one wake-up of itself per wake-up from outside.
 *
 * <p>Netty 4.2's {@code NioIoHandler} marks a wake-up from another thread in a flag before it wakes
 * the selector, and a loop that finds the flag set after its select wakes its own selector once
 * more (against a race of its own flag): the next select returns at once. Per message that arrives
 * at an idle loop, that is a second write to the selector's eventfd and an extra {@code epoll_wait}.
 * Here the flag is never set from outside; {@link java.nio.channels.Selector#wakeup()} alone is
 * enough, as the JDK keeps a wake-up that comes before or during a select for that select and
 * writes the eventfd only once until a select has seen it. A task queued before the wake-up still
 * ends the select, as the loop's context then says it cannot block.
 *
 * <p>The selector is reached through the {@link SelectorProvider} the handler opens it with, which
 * hands out the JDK's own selectors (so Netty's selected-key optimisation still applies) and notes
 * the latest one (Netty opens a new one when it rebuilds a broken selector).
 */
final class DirectWakeupNio implements IoHandler {
  private final IoHandler delegate;
  private final NotingProvider provider;
  private final ThreadAwareExecutor executor;

  private DirectWakeupNio(IoHandler delegate, NotingProvider provider, ThreadAwareExecutor executor) {
    this.delegate = delegate;
    this.provider = provider;
    this.executor = executor;
  }

  /** @return a factory of NIO handlers that other threads wake through the selector alone */
  static IoHandlerFactory factory() {
    return executor -> {
      NotingProvider provider = new NotingProvider(SelectorProvider.provider());
      IoHandler nio = NioIoHandler.newFactory(provider, DefaultSelectStrategyFactory.INSTANCE).newHandler(executor);
      return new DirectWakeupNio(nio, provider, executor);
    };
  }

  @Override
  public void wakeup() {
    if (!executor.isExecutorThread(Thread.currentThread())) {
      AbstractSelector selector = provider.latest;
      if (selector != null) {
        selector.wakeup(); // a closed selector ignores it
      }
    }
  }

  @Override
  public int run(IoHandlerContext context) {
    return delegate.run(context);
  }

  @Override
  public void initialize() {
    delegate.initialize();
  }

  @Override
  public void prepareToDestroy() {
    delegate.prepareToDestroy();
  }

  @Override
  public void destroy() {
    delegate.destroy();
  }

  @Override
  public IoRegistration register(IoHandle handle) throws Exception {
    return delegate.register(handle);
  }

  @Override
  public boolean isCompatible(Class<? extends IoHandle> handleType) {
    return delegate.isCompatible(handleType);
  }

  /** The platform's provider, noting the last selector it opened. */
  private static final class NotingProvider extends SelectorProvider {
    private final SelectorProvider platform;
    volatile AbstractSelector latest;

    NotingProvider(SelectorProvider platform) {
      this.platform = platform;
    }

    @Override
    public AbstractSelector openSelector() throws IOException {
      AbstractSelector s = platform.openSelector();
      latest = s;
      return s;
    }

    @Override
    public DatagramChannel openDatagramChannel() throws IOException {
      return platform.openDatagramChannel();
    }

    @Override
    public DatagramChannel openDatagramChannel(ProtocolFamily family) throws IOException {
      return platform.openDatagramChannel(family);
    }

    @Override
    public Pipe openPipe() throws IOException {
      return platform.openPipe();
    }

    @Override
    public ServerSocketChannel openServerSocketChannel() throws IOException {
      return platform.openServerSocketChannel();
    }

    @Override
    public SocketChannel openSocketChannel() throws IOException {
      return platform.openSocketChannel();
    }

    @Override
    public SocketChannel openSocketChannel(ProtocolFamily family) throws IOException {
      return platform.openSocketChannel(family);
    }

    @Override
    public ServerSocketChannel openServerSocketChannel(ProtocolFamily family) throws IOException {
      return platform.openServerSocketChannel(family);
    }

    @Override
    public Channel inheritedChannel() throws IOException {
      return platform.inheritedChannel();
    }
  }
}
