package dev.troupe.cluster.singleton;

import dev.troupe.actor.Props;
import dev.troupe.cluster.internal.singleton.ProxyActor;

/**
 * Sends to the cluster's singleton wherever it runs: start one on any node and send it the
 * singleton's messages; they are forwarded with their sender.
 *
 * <pre>{@code
 * ActorRef boss = system.actorOf(ClusterSingletonProxy.props("/user/boss",
 *     ClusterSingletonProxySettings.create(system)), "bossProxy");
 * }</pre>
 *
 * <p>The proxy finds the singleton on the oldest {@code Up} member with the role, at the manager's
 * path there. While the singleton is unknown or moving it holds messages, at most {@link
 * ClusterSingletonProxySettings#bufferSize()} (beyond that the oldest is dropped and published as a
 * {@link dev.troupe.remote.Dropped} event on the event stream), and delivers them in order once the
 * singleton runs again. A graceful hand-over loses no message sent through the proxy; a crash loses
 * what the crashed instance had not processed.
 *
 * <p>The proxy needs the cluster: created on an actor system without it, it fails when it starts.
 */
public final class ClusterSingletonProxy {
  private ClusterSingletonProxy() {}

  /**
   * @param singletonManagerPath the managers' path within each node, e.g. {@code /user/boss}
   * @param settings the proxy's settings (its singleton name and role must match the managers')
   * @return props of a proxy
   * @throws IllegalArgumentException if the path is not an absolute path of valid names
   */
  public static Props props(String singletonManagerPath, ClusterSingletonProxySettings settings) {
    return ProxyActor.props(singletonManagerPath, settings, null);
  }
}
