package dev.troupe.micrometer;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.internal.sharding.ShardingHooks;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Locale;

/**
 * The cluster's meters, read from the state the cluster core publishes ({@link Cluster#state()},
 * a field read per gauge): members by status and the members this node cannot reach; and the
 * shards this node handed over to other members (sharding's count). Loaded only
 * when {@code troupe-cluster} is present and the system's provider is the cluster's (this class
 * names the cluster's types).
 */
final class ClusterMeters {
  /** The statuses a member of {@link CurrentClusterState#members()} can have (removed ones are not there). */
  static final List<MemberStatus> STATUSES =
      List.of(MemberStatus.JOINING, MemberStatus.UP, MemberStatus.LEAVING, MemberStatus.EXITING, MemberStatus.DOWN);

  private final TroupeMetrics binder;
  private final Tags tags;
  private final Cluster cluster;
  private final ActorSystem system;

  private ClusterMeters(TroupeMetrics binder, Tags tags, Cluster cluster, ActorSystem system) {
    this.binder = binder;
    this.tags = tags;
    this.cluster = cluster;
    this.system = system;
  }

  /**
   * Call only when the cluster module is present ({@link TroupeMetrics} checks first, so that this
   * class is never loaded without it).
   *
   * @return the meters of {@code system}'s cluster, or null when the system's provider is not the
   *     cluster's
   */
  static ClusterMeters of(TroupeMetrics binder, ActorSystem system, Tags tags) {
    try {
      return new ClusterMeters(binder, tags, Cluster.get(system), system);
    } catch (ConfigurationException notACluster) {
      return null;
    }
  }

  void registerIn(MeterRegistry r) {
    for (MemberStatus s : STATUSES) {
      binder.register(
          r,
          Gauge.builder("troupe.cluster.members", this, m -> m.count(s))
                  .description("members of the cluster with the status, as this node sees it")
                  .tags(tags.and("status", s.name().toLowerCase(Locale.ROOT)))
              ::register);
    }
    binder.register(
        r,
        Gauge.builder("troupe.cluster.unreachable", this, m -> m.cluster.state().unreachable().size())
                .description("members this node cannot reach now")
                .tags(tags)
            ::register);
    binder.register(
        r,
        FunctionCounter.builder(
                "troupe.cluster.sharding.handovers", system, ShardingHooks::handOffs)
            .description("shards this node's regions handed over to another member (a new view placed them there)")
            .tags(tags)
            ::register);
  }

  private double count(MemberStatus status) {
    int n = 0;
    for (Member m : cluster.state().members()) {
      if (m.status() == status) {
        n++;
      }
    }
    return n;
  }
}
