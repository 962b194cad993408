package dev.troupe.cluster.routing;

import dev.troupe.actor.Props;
import dev.troupe.routing.Group;
import java.util.Objects;

/**
 * A group whose routees are looked up on the cluster's members, built in code: the local group's
 * kind (round-robin, broadcast, ...) with each path of the settings looked up once on every member
 * they allow. The same router as a deployment section with {@code cluster.enabled = on} (see
 * {@code docs/cluster-routers.md}); a section at the router's path with {@code cluster.enabled =
 * on} wins over these settings.
 *
 * <pre>{@code
 * List<String> paths = List.of("/user/statsWorker");
 * ActorRef workers = system.actorOf(
 *     new ClusterRouterGroup(new ConsistentHashingGroup(paths), new ClusterRouterGroupSettings(100, paths, true, Set.of()))
 *         .props(),
 *     "workerRouter");
 * }</pre>
 */
public final class ClusterRouterGroup {
  private final Group local;
  private final ClusterRouterGroupSettings settings;

  /**
   * @param local the routing logic and router dispatcher; its paths must be the settings' paths
   * @param settings where the routees are looked up
   * @throws IllegalArgumentException if the local group's paths are not the settings'
   */
  public ClusterRouterGroup(Group local, ClusterRouterGroupSettings settings) {
    this.local = Objects.requireNonNull(local, "local");
    this.settings = Objects.requireNonNull(settings, "settings");
    if (!local.paths().equals(settings.routeesPaths())) {
      throw new IllegalArgumentException("the local group's paths " + local.paths() + " must be the settings' routees"
          + " paths " + settings.routeesPaths());
    }
  }

  /** @return the local group */
  public Group local() {
    return local;
  }

  /** @return where the routees are looked up */
  public ClusterRouterGroupSettings settings() {
    return settings;
  }

  /** @return the router's props, for {@code actorOf} */
  public Props props() {
    return local.props().withDeploy(settings.deploy());
  }

  @Override
  public String toString() {
    return "ClusterRouterGroup(" + local + ", " + settings + ")";
  }
}
