package dev.troupe.cluster.internal.membership;

import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.Member;

/**
 * Decides, on one node, which side of a partition stays: a pure function of the last stable view's
 * counted members and this node's side ({@link Partition}). Every node of one side computes the same
 * decision from the same view; the strategies' promise is that the sides' decisions fit together
 * (for all but {@code off} and {@code down-all}: exactly one side stays, or none when no side
 * qualifies). The {@link MembershipState} asks only when some counted or joining member is
 * unreachable and members and reachability have been unchanged for {@code stable-after}.
 */
sealed interface DowningStrategy {
  /**
   * @param partition the counted members and this node's side; at least one member is unreachable
   * @return the decision for this node's side
   */
  DowningDecision decide(Partition partition);

  /**
   * @param downing the configured strategy
   * @return the strategy
   */
  static DowningStrategy of(ClusterSettings.Downing downing) {
    return switch (downing.strategy()) {
      case KEEP_MAJORITY -> new KeepMajority();
      case STATIC_QUORUM -> new StaticQuorum(downing.quorumSize());
      case KEEP_OLDEST -> new KeepOldest(downing.downIfAlone());
      case DOWN_ALL -> new DownAll();
      case OFF -> new Off();
    };
  }

  /**
   * The side with more than half of the counted members stays. On a tie (an even split), the side
   * that holds the counted member with the lowest {@link dev.troupe.cluster.UniqueAddress} stays.
   */
  record KeepMajority() implements DowningStrategy {
    @Override
    public DowningDecision decide(Partition p) {
      int twice = 2 * p.reachableCount();
      if (twice > p.size()) {
        return DowningDecision.DOWN_UNREACHABLE;
      }
      if (twice < p.size()) {
        return DowningDecision.DOWN_SELF_SIDE;
      }
      return p.reachable().contains(p.lowestAddress())
          ? DowningDecision.DOWN_UNREACHABLE
          : DowningDecision.DOWN_SELF_SIDE;
    }
  }

  /**
   * A side stays when it holds at least {@code quorumSize} counted members. With a quorum of more
   * than half of the cluster at most one side stays; none does when no side has the quorum.
   *
   * @param quorumSize at least 1
   */
  record StaticQuorum(int quorumSize) implements DowningStrategy {
    public StaticQuorum {
      if (quorumSize < 1) {
        throw new IllegalArgumentException("quorum-size must be at least 1, was " + quorumSize);
      }
    }

    @Override
    public DowningDecision decide(Partition p) {
      return p.reachableCount() >= quorumSize ? DowningDecision.DOWN_UNREACHABLE : DowningDecision.DOWN_SELF_SIDE;
    }
  }

  /**
   * The side with the oldest counted member stays. With {@code downIfAlone}, an oldest member cut off
   * alone from at least two others goes instead and the others stay (so that one lost node cannot
   * take the whole cluster down).
   *
   * @param downIfAlone {@code troupe.cluster.downing.keep-oldest.down-if-alone}
   */
  record KeepOldest(boolean downIfAlone) implements DowningStrategy {
    @Override
    public DowningDecision decide(Partition p) {
      Member oldest = p.oldest();
      boolean oldestHere = p.isReachable(oldest);
      boolean oldestAlone =
          p.size() > 2 && (oldestHere ? p.reachableCount() == 1 : p.unreachableCount() == 1);
      boolean stay = oldestHere != (downIfAlone && oldestAlone);
      return stay ? DowningDecision.DOWN_UNREACHABLE : DowningDecision.DOWN_SELF_SIDE;
    }
  }

  /** Every side downs itself: a partition, or one unreachable member, ends the whole cluster. */
  record DownAll() implements DowningStrategy {
    @Override
    public DowningDecision decide(Partition p) {
      return DowningDecision.DOWN_SELF_SIDE;
    }
  }

  /** No automatic downing: unreachable members stay until downed by hand ({@code Cluster.down}). */
  record Off() implements DowningStrategy {
    @Override
    public DowningDecision decide(Partition p) {
      return DowningDecision.NOTHING;
    }
  }
}
