package dev.troupe.remote.internal.transport;

import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.remote.internal.config.RemoteSettings;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.unix.Errors;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;

/**
 * The TCP transport of one system, on Netty: one or two NIO or epoll event loops ({@link
 * EventLoops}, their threads named {@code <system>-remote-io-…}) that run the server channel, every accepted
 * connection and every outbound lane. Frames are length-prefixed ({@link Wire}); an accepted connection reads at most
 * {@code maximum-frame-size} per frame ({@code maximum-large-frame-size} once the handshake of a
 * large-message lane is accepted, see {@link #raiseFrameLimit}) and is closed on the first violation.
 *
 * <p>With {@code troupe.remote.tls.enabled = on}, an {@link SslHandler} ({@link TlsContexts}) is the
 * first handler of every connection, accepted or outbound, on both lanes; everything after it sees
 * only decrypted bytes. The handshake deadline sits after it, so it bounds the TLS handshake and
 * Troupe's handshake together. Accepted connections are capped ({@link InboundConnections}) and,
 * once handshaken, closed when idle for {@code inbound-idle-timeout}. Without TLS, an accepted connection that opens with a TLS record is
 * refused with a reason that says so ({@link TlsOnPlainPort}).
 */
public final class NettyTransport {
  /**
   * Frames an outbound connection reads: the handshake acknowledgement or refusal, then
   * acknowledgements of system messages and answers to heartbeats, all smaller.
   */
  private static final int ACK_FRAME_LIMIT = Wire.REFUSAL_MAX_BYTES;
  /** Linux's errno for an address in use, which Netty's native transport reports negated. */
  private static final int EADDRINUSE = 98;
  private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(512 * 1024, 2 * 1024 * 1024);

  private final InboundHost host;
  private final RemoteSettings settings;
  private final Drops drops;
  private final RateLimitedLog log;
  /** null when TLS is off. */
  private final TlsContexts tls;
  private final EventLoops loops;
  private final InboundConnections inboundConnections;
  private final Traffic traffic = new Traffic();
  private Channel server;
  /** Name lookups: one daemon thread at most, started on demand and gone after 10 s idle. */
  private final ThreadPoolExecutor resolver;

  /**
   * @throws dev.troupe.actor.ConfigurationException if TLS is on and its stores cannot be used
   *     (thrown before any network thread is started)
   */
  public NettyTransport(InboundHost host, String systemName, RemoteSettings settings, RateLimitedLog log, Drops drops) {
    this.host = host;
    this.settings = settings;
    this.drops = drops;
    this.log = log;
    this.tls = settings.tls().enabled() ? TlsContexts.create(settings.tls(), settings.handshakeTimeout()) : null;
    this.loops = new EventLoops(systemName, settings.eventLoopThreads(), settings.transport(), log);
    this.inboundConnections =
        new InboundConnections(settings.maximumInboundConnections(), settings.maximumInboundConnectionsPerHost(), log);
    this.resolver =
        new ThreadPoolExecutor(
            0, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new DefaultThreadFactory(systemName + "-remote-dns", true));
  }

  public RemoteSettings settings() {
    return settings;
  }

  public Drops drops() {
    return drops;
  }

  public RateLimitedLog log() {
    return log;
  }

  /** @return what went over the connections with each peer (the meters read it) */
  public Traffic traffic() {
    return traffic;
  }

  /** @return whether the caller runs on one of this transport's event loops */
  public boolean inEventLoop() {
    return loops.inEventLoop();
  }

  public EventLoop nextLoop() {
    return loops.next();
  }

  /**
   * Listens on {@code bind.hostname:bind.port}; accepted connections are read only after {@link
   * #startAccepting()}, when the system's actors exist.
   *
   * @return the bound port
   * @throws ConfigurationException if the address cannot be bound (the event loop is shut down)
   */
  public int bind() {
    String where = settings.bindHost() + ":" + settings.bindPort();
    ChannelFuture f;
    try {
      f =
          new ServerBootstrap()
              .group(loops.acceptor(), loops.inbound())
              .channelFactory(loops.serverChannels())
              .option(ChannelOption.AUTO_READ, false)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  pipeline(
                      settings.maximumFrameSize(),
                      settings.inboundIdleTimeout().toMillis(),
                      ch -> tls != null ? tls.forAccepted(ch.alloc()) : new TlsOnPlainPort(),
                      null, // the peer is known once its handshake is accepted
                      cell ->
                          new ChannelHandler[] {
                            new Traffic.Prepender(cell), // acknowledgements and answers to heartbeats: few frames
                            new InboundHandshakeHandler(host, settings.tls().verifyPeerOrigin(), settings.maximumLargeFrameSize()),
                            new EnvelopeDecoder(host::resolve, cell),
                            new InboundDispatcher(log, settings.inboundIdleTimeout().toMillis())
                          },
                      inboundConnections::admit))
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
              + (addressInUse(cause)
                  ? " (is another process or system using that port? set troupe.remote.canonical.port,"
                      + " or 0 for any free port)"
                  : "")
              + " [troupe.remote.bind.hostname / bind.port, defaulting to canonical.hostname / canonical.port]",
          cause);
    }
    server = f.channel();
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /**
   * @return whether {@code cause}, a failed bind, says the address is in use: the JDK's {@link
   *     java.net.BindException} (NIO), or the native error {@code EADDRINUSE} (epoll, Linux only)
   */
  static boolean addressInUse(Throwable cause) {
    return cause instanceof java.net.BindException
        || (cause instanceof Errors.NativeIoException n && n.expectedErr() == -EADDRINUSE);
  }

  /** @return the port the server channel listens on */
  public int boundPort() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Starts reading accepted connections. */
  public void startAccepting() {
    server.config().setAutoRead(true);
  }

  /**
   * Finds the socket address of {@code remote} and hands it to {@code then} on {@code loop}: at
   * once for an IP address, else after a name lookup on this system's resolver thread, so that a
   * slow DNS server never stalls an event loop (and every connection on it). Netty's resolver group
   * is not used, because it ties each loop's termination to Netty's process-wide {@code
   * GlobalEventExecutor} thread. {@code then} gets null when the name cannot be resolved.
   */
  public void resolve(Address remote, EventLoop loop, Consumer<InetSocketAddress> then) {
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

  /**
   * Opens the TCP connection of {@code lane} to {@code to}, the address of {@code target}, on
   * {@code loop}; the connection tells {@code listener} how its handshake and its life go.
   */
  public ChannelFuture connect(Lane lane, Address target, InetSocketAddress to, EventLoop loop, OutboundListener listener) {
    Wire.Handshake handshake = new Wire.Handshake(lane, host.address(), host.uid(), target);
    return new Bootstrap()
        .group(loop)
        .disableResolver()
        .channelFactory(loops.socketChannels())
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, settings.connectionTimeout().toMillis()))
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
        .handler(
            pipeline(
                ACK_FRAME_LIMIT,
                0,
                ch -> tls != null ? tls.forOutbound(ch.alloc(), to.getHostString(), to.getPort()) : null,
                target,
                cell ->
                    new ChannelHandler[] {
                      // writes whole frames, length included, and counts them
                      lane == Lane.LARGE
                          ? new EnvelopeEncoder(settings.maximumLargeFrameSize(), "maximum-large-frame-size", drops, cell)
                          : new EnvelopeEncoder(settings.maximumFrameSize(), "maximum-frame-size", drops, cell),
                      new OutboundHandshakeHandler(handshake, listener),
                      new OutboundConnectionHandler(listener, lane, log.logger())
                    },
                    ch -> true))
        .connect(to);
  }

  /**
   * A connection's pipeline, unless {@code admit} refuses (and closes) the connection: {@code
   * first} (TLS, or the check for TLS on a plain port; none when it gives null), the count of the
   * bytes it reads ({@link Traffic.Bytes}, for {@code peer}, or for the peer its handshake names
   * when {@code peer} is null), then closed if the
   * handshake is not done within {@code handshake-timeout} of the start ({@link HandshakeDeadline};
   * after the handshake, when {@code idleMillis} is not 0, if nothing is read for that long),
   * frames of at most {@code readLimit} bytes in, then {@code last} (whose first handler writes the
   * length-prefixed frames out; it gets the connection's {@link Traffic.Cell}, for the count of
   * its messages and of the bytes it writes).
   */
  private ChannelInitializer<SocketChannel> pipeline(
      int readLimit,
      long idleMillis,
      Function<SocketChannel, ChannelHandler> first,
      Address peer,
      Function<Traffic.Cell, ChannelHandler[]> last,
      Predicate<Channel> admit) {
    long timeout = settings.handshakeTimeout().toMillis();
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        if (!admit.test(ch)) {
          return;
        }
        ChannelHandler head = first.apply(ch);
        if (head != null) {
          ch.pipeline().addLast(head);
        }
        Traffic.Cell cell = new Traffic.Cell();
        // after TLS: it sees a read only once decrypted bytes come, so it bounds both handshakes
        ch.pipeline()
            .addLast(new Traffic.Bytes(traffic, cell, peer))
            .addLast(new HandshakeDeadline(timeout, idleMillis))
            .addLast(frameDecoder(readLimit))
            .addLast(last.apply(cell));
      }
    };
  }

  /**
   * @return the frame decoder of a connection that reads frames of at most {@code readLimit}
   *     bytes: a 4-byte length, then that many bytes, passed on without the length; a length above
   *     the limit (or negative) is an error at once, before anything is allocated for the frame
   */
  static LengthFieldBasedFrameDecoder frameDecoder(int readLimit) {
    return new LengthFieldBasedFrameDecoder(readLimit + 4, 0, 4, 0, 4, true);
  }

  /**
   * On the connection's loop, from its handshake handler once a large-message lane's handshake is
   * accepted: the connection's frame decoder gives way to one that reads frames of up to {@code
   * readLimit} bytes. Until then the connection was held to {@code maximum-frame-size} like any
   * other, so a peer that has not completed a handshake never gets the larger limit. Whatever the
   * old decoder had read beyond the handshake goes on to the new one.
   */
  static void raiseFrameLimit(ChannelPipeline pipeline, int readLimit) {
    ChannelHandlerContext old = pipeline.context(LengthFieldBasedFrameDecoder.class);
    if (old == null) {
      return; // a pipeline without framing (a test's): nothing to raise
    }
    pipeline.addAfter(old.name(), "large-frame-decoder", frameDecoder(readLimit));
    pipeline.remove(old.handler());
  }

  /** @return accepted connections open now, for tests */
  int inboundConnections() {
    return inboundConnections.open();
  }

  /** Logs at debug the protocol, cipher suite and peer certificate of a connection whose TLS handshake completed. */
  static void logTlsSession(Logger log, ChannelHandlerContext ctx, String direction) {
    SslHandler h = ctx.pipeline().get(SslHandler.class);
    if (!log.isDebugEnabled() || h == null) {
      return;
    }
    SSLSession s = h.engine().getSession();
    String peer;
    try {
      peer = s.getPeerPrincipal().getName();
    } catch (SSLPeerUnverifiedException e) {
      peer = "(none)";
    }
    log.debug("TLS connection {} {}: {}, {}, peer certificate {}", direction, ctx.channel().remoteAddress(), s.getProtocol(), s.getCipherSuite(), peer);
  }

  /**
   * Closes the server channel and every connection and stops the event loop, waiting at most
   * {@code shutdown-timeout} (unless called on the loop itself).
   */
  public void shutdown() {
    if (server != null) {
      server.close();
    }
    resolver.shutdownNow();
    if (!loops.shutdown(settings.shutdownTimeout())) {
      log.warn("the network threads did not stop within {}", settings.shutdownTimeout());
    }
  }
}
