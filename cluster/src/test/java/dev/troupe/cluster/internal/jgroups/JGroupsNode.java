package dev.troupe.cluster.internal.jgroups;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A JGroups engine alone in a JVM, for tests that kill it: {@code JGroupsNode <system> <port> <uid>
 * [seed-endpoint]}. Prints {@code ENDPOINT <endpoint>} once joined and {@code VIEW <version>
 * <node>,<node>...} for each view; exits by itself after two minutes.
 */
public final class JGroupsNode {
  public static final String ENDPOINT = "ENDPOINT ";
  public static final String VIEW = "VIEW ";

  private JGroupsNode() {}

  public static void main(String[] args) throws Exception {
    UniqueAddress self = Contexts.node(args[0], Integer.parseInt(args[1]), Long.parseLong(args[2]));
    List<String> seeds = args.length > 3 ? List.of(args[3]) : List.of();
    MembershipProvider engine = new JGroupsProviderFactory().create(Contexts.context(self, Set.of(), ""));
    String endpoint =
        engine.join(
            seeds,
            new MembershipListener() {
              @Override
              public void viewChanged(MembershipView view) {
                String nodes = view.members().stream().map(EngineMember::node).map(UniqueAddress::toString).collect(Collectors.joining(","));
                System.out.println(VIEW + view.version() + " " + nodes);
                System.out.flush();
              }

              @Override
              public void suspected(UniqueAddress member) {}

              @Override
              public void unsuspected(UniqueAddress member) {}
            });
    System.out.println(ENDPOINT + endpoint);
    System.out.flush();
    Thread.sleep(120_000); // killed by the test long before; never outlives it by more than this
    engine.close();
  }
}
