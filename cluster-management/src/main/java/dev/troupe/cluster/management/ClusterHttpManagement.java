package dev.troupe.cluster.management;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.cluster.Cluster;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small HTTP endpoint for operating a cluster member, started by {@link #get} (or with the
 * system, listed in {@code troupe.extensions}) and stopped when the system terminates:
 *
 * <ul>
 *   <li>{@code GET /cluster/members}: this member's view as JSON ({@code selfNode}, {@code leader},
 *       {@code oldest}, {@code members} with {@code node}, {@code nodeUid}, {@code status}, {@code
 *       roles}, and {@code unreachable}); {@code GET /cluster/members/<address>}: one member;
 *   <li>{@code GET /cluster/shards/<type>}: this member's region of a sharded type, its shards and
 *       how many entities each runs (asked of the region, which answers within 5 s);
 *   <li>{@code GET /health/ready}: 200 while this member is {@code Up} (a readiness probe), else
 *       503; {@code GET /health/alive}: 200 until the system terminates or this member is downed or
 *       removed (a liveness probe), else 503;
 *   <li>with {@code read-only = off} only: {@code PUT /cluster/members/<address>} with the form body
 *       {@code operation=leave} or {@code operation=down}, and {@code DELETE
 *       /cluster/members/<address>} (leave).
 * </ul>
 *
 * <p>An address in a path may be URL-encoded. Each request is answered from the member's published
 * view or by handing a command to the cluster, on the endpoint's one IO thread, which never waits.
 * What a client can cost is bounded: a request line of at most 4 KiB, headers of at most 8 KiB, a
 * body of at most 16 KiB (413 beyond), 16 requests waiting for their answers on one connection
 * (answers keep the requests' order; more close the connection), {@code max-connections}
 * connections (more are closed as they open), and {@code idle-timeout} without a complete request; a malformed request gets 400 and its
 * connection is closed, and other connections are served on.
 */
public final class ClusterHttpManagement implements Extension {
  /** The extension's id; {@link #get} is the short way to it. */
  public static final ExtensionId<ClusterHttpManagement> ID = ClusterHttpManagement::new;

  /** The longest request line the endpoint reads. */
  static final int MAX_INITIAL_LINE = 4096;

  /** The most header bytes the endpoint reads. */
  static final int MAX_HEADERS = 8192;

  /** The longest request body the endpoint reads. */
  static final int MAX_BODY = 16 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(ClusterHttpManagement.class);

  private final ClusterHttpManagementSettings settings;
  private final EventLoopGroup group;
  private final Channel server;
  private final InetSocketAddress bound;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private ClusterHttpManagement(ActorSystem system) {
    settings = ClusterHttpManagementSettings.create(system);
    Cluster cluster = Cluster.get(system); // fails at once on a system that is no cluster member
    Routes routes = new Routes(system, cluster, settings.readOnly(), () -> system.getWhenTerminated().toCompletableFuture().isDone());
    group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(system.name() + "-cluster-management", true),
        NioIoHandler.newFactory());
    ConnectionLimit limit = new ConnectionLimit(settings.maxConnections());
    long idleMillis = settings.idleTimeout().toMillis();
    try {
      server = new ServerBootstrap()
          .group(group)
          .channel(NioServerSocketChannel.class)
          .option(ChannelOption.SO_REUSEADDR, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(limit)
                  .addLast(new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS))
                  .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, 8192))
                  .addLast(new HttpObjectAggregator(MAX_BODY))
                  .addLast(new RequestHandler(routes));
            }
          })
          .bind(settings.hostname(), settings.port())
          .syncUninterruptibly()
          .channel();
    } catch (Exception e) { // Netty rethrows the bind's checked exception (e.g. BindException) unchecked
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw new IllegalStateException("cluster management could not listen on " + settings.hostname() + ":"
          + settings.port() + " (troupe.cluster.management.http.hostname and .port): " + e, e);
    }
    bound = (InetSocketAddress) server.localAddress();
    LOG.info("cluster management of {} listens on http://{}:{}/ ({})", system.name(), bound.getHostString(),
        bound.getPort(), settings.readOnly() ? "read-only" : "leave and down allowed");
    system.getWhenTerminated().whenComplete((t, e) -> stop());
  }

  /**
   * Starts the endpoint of {@code system} on first use (binding its port), and returns it.
   *
   * @param system a cluster member ({@code troupe.actor.provider = cluster})
   * @return its endpoint
   * @throws IllegalStateException if the port cannot be bound, or the system is no cluster member
   * @throws dev.troupe.actor.ConfigurationException if a setting is malformed, naming its key
   */
  public static ClusterHttpManagement get(ActorSystem system) {
    return system.registerExtension(ID);
  }

  /** @return the address the endpoint listens on (the port chosen when {@code port = 0}) */
  public InetSocketAddress boundAddress() {
    return bound;
  }

  /** @return the settings it runs with */
  public ClusterHttpManagementSettings settings() {
    return settings;
  }

  /** Closes the endpoint (its connections too); done anyway when the system terminates. */
  public void stop() {
    if (stopped.compareAndSet(false, true)) {
      server.close();
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }
  }
}
