package dev.troupe.remote.internal;

import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The TCP transport of one system, on Netty: one or two NIO event loops ({@link EventLoops}, their
 * threads named {@code <system>-remote-io-…}) that run the server channel, every accepted
 * connection and every outbound lane. Frames are length-prefixed ({@link Wire}); an accepted connection reads at most
 * {@code maximum-frame-size} per frame and is closed on the first violation.
 */
final class NettyTransport {
  /** Name of the handler that closes a connection whose handshake does not come in time. */
  static final String HANDSHAKE_TIMEOUT = "handshake-timeout";
  /** Frames an outbound connection reads: only the handshake acknowledgement. */
  private static final int ACK_FRAME_LIMIT = 60;
  private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(512 * 1024, 2 * 1024 * 1024);

  private final RemoteActorRefProvider provider;
  private final RemoteSettings settings;
  private final RateLimitedLog log;
  private final EventLoops loops;
  private Channel server;
  /** Name lookups: one daemon thread at most, started on demand and gone after 10 s idle. */
  private final ThreadPoolExecutor resolver;

  NettyTransport(RemoteActorRefProvider provider, String systemName, RemoteSettings settings, RateLimitedLog log) {
    this.provider = provider;
    this.settings = settings;
    this.log = log;
    this.loops = new EventLoops(systemName, settings.eventLoopThreads());
    this.resolver =
        new ThreadPoolExecutor(
            0, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new DefaultThreadFactory(systemName + "-remote-dns", true));
  }

  RemoteSettings settings() {
    return settings;
  }

  Drops drops() {
    return provider.drops();
  }

  RateLimitedLog log() {
    return log;
  }

  /** @return whether the caller runs on one of this transport's event loops */
  boolean inEventLoop() {
    return loops.inEventLoop();
  }

  EventLoop nextLoop() {
    return loops.next();
  }

  /**
   * Listens on {@code bind.hostname:bind.port}; accepted connections are read only after {@link
   * #startAccepting()}, when the system's actors exist.
   *
   * @return the bound port
   * @throws ConfigurationException if the address cannot be bound (the event loop is shut down)
   */
  int bind() {
    String where = settings.bindHost() + ":" + settings.bindPort();
    ChannelFuture f;
    try {
      f =
          new ServerBootstrap()
              .group(loops.acceptor(), loops.inbound())
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.AUTO_READ, false)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(pipeline(settings.maximumFrameSize(), () -> new ChannelHandler[] {new InboundConnectionHandler(provider, log)}))
              .bind(new InetSocketAddress(settings.bindHost(), settings.bindPort()));
    } catch (RuntimeException e) {
      shutdown();
      throw new ConfigurationException("cannot listen on " + where + " (troupe.remote.bind / troupe.remote.canonical): " + e, e);
    }
    if (!f.awaitUninterruptibly(settings.connectionTimeout().toMillis()) || !f.isSuccess()) {
      Throwable cause = f.cause();
      shutdown();
      throw new ConfigurationException(
          "cannot listen on " + where + ": " + (cause == null ? "timed out" : cause.getMessage())
              + (cause instanceof java.net.BindException
                  ? " (is another process or system using that port? set troupe.remote.canonical.port,"
                      + " or 0 for any free port)"
                  : "")
              + " [troupe.remote.bind.hostname / bind.port, defaulting to canonical.hostname / canonical.port]",
          cause);
    }
    server = f.channel();
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** @return the port the server channel listens on */
  int boundPort() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Starts reading accepted connections. */
  void startAccepting() {
    server.config().setAutoRead(true);
  }

  /**
   * Finds the socket address of {@code remote} and hands it to {@code then} on {@code loop}: at
   * once for an IP address, else after a name lookup on this system's resolver thread, so that a
   * slow DNS server never stalls an event loop (and every connection on it). Netty's resolver group
   * is not used, because it ties each loop's termination to Netty's process-wide {@code
   * GlobalEventExecutor} thread. {@code then} gets null when the name cannot be resolved.
   */
  void resolve(Address remote, EventLoop loop, Consumer<InetSocketAddress> then) {
    String host = remote.host().orElseThrow();
    int port = remote.port().orElseThrow();
    byte[] ip = NetUtil.createByteArrayFromIpAddressString(host);
    if (ip != null) {
      try {
        then.accept(new InetSocketAddress(InetAddress.getByAddress(host, ip), port));
      } catch (UnknownHostException cannotHappen) { // a literal address of the right length
        then.accept(null);
      }
      return;
    }
    resolver.execute(
        () -> {
          InetSocketAddress to = new InetSocketAddress(host, port); // the lookup, off the event loop
          try {
            loop.execute(() -> then.accept(to.isUnresolved() ? null : to));
          } catch (RejectedExecutionException terminated) {
            // the system is shut down: nothing to connect
          }
        });
  }

  /** Opens the TCP connection of {@code lane} to {@code to}, on its event loop. */
  ChannelFuture connect(OutboundLane lane, InetSocketAddress to) {
    return new Bootstrap()
        .group(lane.loop())
        .disableResolver()
        .channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, settings.connectionTimeout().toMillis()))
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
        .handler(
            pipeline(
                ACK_FRAME_LIMIT,
                () ->
                    new ChannelHandler[] {
                      new EnvelopeEncoder(settings.maximumFrameSize(), provider.drops()),
                      new OutboundConnectionHandler(lane)
                    }))
        .connect(to);
  }

  /**
   * A connection's pipeline: closed if the handshake does not come within {@code
   * handshake-timeout}, frames of at most {@code readLimit} bytes in, length-prefixed frames out,
   * then {@code last}.
   */
  private ChannelInitializer<SocketChannel> pipeline(int readLimit, Supplier<ChannelHandler[]> last) {
    long timeout = settings.handshakeTimeout().toMillis();
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        ch.pipeline()
            .addLast(HANDSHAKE_TIMEOUT, new ReadTimeoutHandler(timeout, TimeUnit.MILLISECONDS))
            .addLast(new LengthFieldBasedFrameDecoder(readLimit + 4, 0, 4, 0, 4, true))
            .addLast(new LengthFieldPrepender(4))
            .addLast(last.get());
      }
    };
  }

  ByteBuf handshake(ByteBufAllocator alloc, OutboundLane lane) {
    return Wire.encodeHandshake(
        alloc, new Wire.Handshake(lane.lane(), provider.address(), provider.uid(), lane.association().remote));
  }

  /**
   * Closes the server channel and every connection and stops the event loop, waiting at most
   * {@code shutdown-timeout} (unless called on the loop itself).
   */
  void shutdown() {
    if (server != null) {
      server.close();
    }
    resolver.shutdownNow();
    if (!loops.shutdown(settings.shutdownTimeout())) {
      log.warn("the network threads did not stop within {}", settings.shutdownTimeout());
    }
  }
}
