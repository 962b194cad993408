package dev.troupe.remote.internal.transport;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;

/**
 * An event loop's IO handler (NIO or epoll, see {@link EventLoops}) that survives an {@link Error}
 * thrown while it processes IO. Netty's handlers let an {@code Error} (an {@code OutOfMemoryError} under a flood, a {@code
 * StackOverflowError}) that escapes a channel's IO processing out of its loop, which ends the
 * loop's thread: every connection on it, and the server channel on the accepting loop, would go
 * deaf for good. Here it is logged (rate-limited) and the loop goes on with its next round; the
 * channel whose processing threw is closed by its own pipeline where Netty reports it there.
 */
final class GuardedIoHandler implements IoHandler {
  private final IoHandler delegate;
  private final RateLimitedLog log;

  private GuardedIoHandler(IoHandler delegate, RateLimitedLog log) {
    this.delegate = delegate;
    this.log = log;
  }

  /** @return a factory of handlers made by {@code factory}, each guarded */
  static IoHandlerFactory guard(IoHandlerFactory factory, RateLimitedLog log) {
    return new IoHandlerFactory() {
      @Override
      public IoHandler newHandler(io.netty.util.concurrent.ThreadAwareExecutor executor) {
        return new GuardedIoHandler(factory.newHandler(executor), log);
      }

      @Override
      public boolean isChangingThreadSupported() {
        return factory.isChangingThreadSupported();
      }
    };
  }

  @Override
  public int run(IoHandlerContext context) {
    try {
      return delegate.run(context);
    } catch (Error e) {
      try {
        log.warn("the network thread {} survived an error in its IO processing: {}", Thread.currentThread().getName(), e.toString());
      } catch (Throwable logging) { // NOPMD: the log line is best effort; the loop must go on
        // out of memory again, most likely: nothing left to say it with
      }
      return 0;
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
  public void wakeup() {
    delegate.wakeup();
  }

  @Override
  public boolean isCompatible(Class<? extends IoHandle> handleType) {
    return delegate.isCompatible(handleType);
  }
}
