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
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Netty's NIO IO handler, except that another thread wakes the loop only while the loop waits (or
 * is about to wait) in its select, and then through the selector alone, as Netty's epoll handler
 * does with its eventfd.
 *
 * <p>Netty 4.2's {@code NioIoHandler} marks a wake-up from another thread in a flag before it wakes
 * the selector, and a loop that finds the flag set after its select wakes its own selector once
 * more (against a race of its own flag): the next select returns at once. Per message that arrives
 * at an idle loop, that is a second write to the selector's eventfd and an extra {@code epoll_wait}.
 * Here the flag is never set from outside. Instead the loop says when it may wait: each time the
 * handler asks whether it can block (right before each select) it first marks itself {@code
 * waiting}, then looks at its task queue; once a select returned (Netty then asks whether to report
 * the time of its IO, before it processes the selected keys) or the round is over, it is awake
 * again. A thread that queued a task wakes the selector only if it finds the loop waiting, and
 * takes the mark, so that one wake-up serves many senders. Either the loop sees the task before it
 * selects, or the sender sees the mark and its {@link java.nio.channels.Selector#wakeup()} ends
 * the select (the JDK keeps a wake-up that comes just before a select for that select). A loop
 * busy with IO or tasks is not woken at all: it looks at its tasks before it next selects.
 *
 * <p>The selector is reached through the {@link SelectorProvider} the handler opens it with, which
 * hands out the JDK's own selectors (so Netty's selected-key optimisation still applies) and notes
 * the latest one (Netty opens a new one when it rebuilds a broken selector).
 */
final class DirectWakeupNio implements IoHandler {
  private final IoHandler delegate;
  private final NotingProvider provider;
  private final ThreadAwareExecutor executor;
  /** True while the loop waits, or may be about to wait, in a select with no task seen. */
  private final AtomicBoolean waiting = new AtomicBoolean();
  // on the loop: the context the loop passes (always the same one) and its wrapper
  private IoHandlerContext lastContext;
  private Marking marking;

  private DirectWakeupNio(IoHandler delegate, NotingProvider provider, ThreadAwareExecutor executor) {
    this.delegate = delegate;
    this.provider = provider;
    this.executor = executor;
  }

  /** @return a factory of NIO handlers that other threads wake only while they wait */
  static IoHandlerFactory factory() {
    return executor -> {
      NotingProvider provider = new NotingProvider(SelectorProvider.provider());
      IoHandler nio = NioIoHandler.newFactory(provider, DefaultSelectStrategyFactory.INSTANCE).newHandler(executor);
      return new DirectWakeupNio(nio, provider, executor);
    };
  }

  @Override
  public void wakeup() {
    if (!executor.isExecutorThread(Thread.currentThread()) && waiting.get() && waiting.compareAndSet(true, false)) {
      AbstractSelector selector = provider.latest;
      if (selector != null) {
        selector.wakeup(); // a closed selector ignores it
      }
    }
  }

  @Override
  public int run(IoHandlerContext context) {
    if (context != lastContext) {
      marking = new Marking(context);
      lastContext = context;
    }
    try {
      return delegate.run(marking);
    } finally {
      waiting.set(false);
    }
  }

  /** The loop's context, marking the loop waiting before each look at its tasks, awake after a select. */
  private final class Marking implements IoHandlerContext {
    private final IoHandlerContext context;

    Marking(IoHandlerContext context) {
      this.context = context;
    }

    @Override
    public boolean canBlock() {
      waiting.set(true); // before the look at the tasks: a sender that queues after it sees the mark
      if (context.canBlock()) {
        return true;
      }
      waiting.set(false);
      return false;
    }

    @Override
    public long delayNanos(long currentTimeNanos) {
      return context.delayNanos(currentTimeNanos);
    }

    @Override
    public long deadlineNanos() {
      return context.deadlineNanos();
    }

    @Override
    public boolean shouldReportActiveIoTime() {
      waiting.set(false); // the select returned: the keys are processed, then the tasks run
      return context.shouldReportActiveIoTime();
    }

    @Override
    public void reportActiveIoTime(long activeNanos) {
      context.reportActiveIoTime(activeNanos);
    }
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
