package dev.troupe.cluster.internal.membership;

import dev.troupe.actor.Address;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipView;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Nodes, views, settings and event renderings for the membership tests. */
final class Fixtures {
  private Fixtures() {}

  static final Duration STABLE_AFTER = Duration.ofSeconds(7);

  /** Node {@code i}: troupe://sys@127.0.0.1:(2550+i), uid 1000+i. */
  static UniqueAddress node(int i) {
    return incarnation(i, 1000 + i);
  }

  /** Node {@code i}'s address with another uid (a restarted node). */
  static UniqueAddress incarnation(int i, long uid) {
    return new UniqueAddress(Address.remote("sys", "127.0.0.1", 2550 + i), uid);
  }

  static MembershipView view(long version, UniqueAddress... members) {
    return view(version, false, List.of(members));
  }

  static MembershipView view(long version, boolean healed, List<UniqueAddress> members) {
    return new MembershipView(
        version, members.stream().map(m -> new EngineMember(m, Set.of("r" + m.address().port().orElse(0) % 2))).toList(),
        healed);
  }

  static ClusterSettings.Downing downing(ClusterSettings.Strategy strategy) {
    return new ClusterSettings.Downing(strategy, STABLE_AFTER, 0, true);
  }

  static ClusterSettings.Downing staticQuorum(int quorum) {
    return new ClusterSettings.Downing(ClusterSettings.Strategy.STATIC_QUORUM, STABLE_AFTER, quorum, true);
  }

  static ClusterSettings.Downing keepOldest(boolean downIfAlone) {
    return new ClusterSettings.Downing(ClusterSettings.Strategy.KEEP_OLDEST, STABLE_AFTER, 0, downIfAlone);
  }

  static long seconds(double s) {
    return (long) (s * 1_000_000_000L);
  }

  /** Events as short text, e.g. {@code Up(1)}, {@code Removed(2,EXITING)}, {@code Leader(1)}. */
  static String render(List<ClusterEvent> events) {
    return events.stream().map(Fixtures::render).collect(Collectors.joining(" "));
  }

  static String render(ClusterEvent e) {
    if (e instanceof ClusterEvent.MemberRemoved r) {
      return "Removed(" + n(r.member().uniqueAddress()) + "," + r.previousStatus() + ")";
    }
    if (e instanceof ClusterEvent.MemberEvent m) {
      String kind = m.getClass().getSimpleName().replace("Member", "");
      return kind + "(" + n(m.member().uniqueAddress()) + ")";
    }
    if (e instanceof ClusterEvent.UnreachableMember u) {
      return "Unreachable(" + n(u.member().uniqueAddress()) + ")";
    }
    if (e instanceof ClusterEvent.ReachableMember r) {
      return "Reachable(" + n(r.member().uniqueAddress()) + ")";
    }
    if (e instanceof ClusterEvent.LeaderChanged l) {
      return "Leader(" + l.leader().map(a -> String.valueOf(a.port().orElse(0) - 2550)).orElse("-") + ")";
    }
    return e.toString();
  }

  /** Node number, with the uid when it is not the node's first incarnation: {@code 2} or {@code 2#7}. */
  static String n(UniqueAddress ua) {
    int i = ua.address().port().orElse(0) - 2550;
    return ua.uid() == 1000 + i ? String.valueOf(i) : i + "#" + ua.uid();
  }

  static UniqueAddress[] nodes(int... is) {
    return Arrays.stream(is).mapToObj(Fixtures::node).toArray(UniqueAddress[]::new);
  }
}
