package dev.troupe.cluster.internal.jgroups;

import static dev.troupe.cluster.internal.Recorder.nodes;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.internal.Recorder;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jgroups.JChannel;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.TP;
import org.jgroups.stack.ProtocolStack;

/**
 * Measures the JGroups engine with the default settings ({@code heartbeat-interval = 1s},
 * {@code acceptable-heartbeat-pause = 5s}, reference.conf's {@code troupe.cluster.jgroups}), five
 * engines in one JVM on loopback, several rounds:
 *
 * <ul>
 *   <li>formation: from the first {@code join} until all five hold the view of five;
 *   <li>join: from a node's {@code join} call until every node's view holds it;
 *   <li>closed socket: from a {@code close()} (the process's sockets close, as when it is killed)
 *       until every survivor's view lacks it;
 *   <li>silence: from the moment a node's traffic is dropped (a DISCARD under its stack: no socket
 *       closes, as with a frozen process or a cut cable) until every other node's view lacks it.
 * </ul>
 *
 * Not a test: run it by hand, e.g. after {@code mvn -pl cluster -am test-compile}, with the test
 * class path: {@code java -cp ... dev.troupe.cluster.internal.jgroups.JGroupsMeasure [rounds]}.
 */
public final class JGroupsMeasure {
  private static final int NODES = 5;
  private static final Duration MAX = Duration.ofSeconds(60);

  private JGroupsMeasure() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    List<Long> formation = new ArrayList<>();
    List<Long> join = new ArrayList<>();
    List<Long> closed = new ArrayList<>();
    List<Long> silent = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      List<MembershipProvider> engines = new ArrayList<>();
      List<Recorder> recorders = new ArrayList<>();
      List<UniqueAddress> nodes = new ArrayList<>();
      List<String> endpoints = new ArrayList<>();
      try {
        String system = "measure" + round;
        long t0 = System.nanoTime();
        for (int i = 0; i < NODES; i++) {
          UniqueAddress self = Contexts.node(system, 25520 + i, 1 + i);
          MembershipContext c =
              new MembershipContext(self, Set.of(), system, Duration.ofSeconds(1), Duration.ofSeconds(5), Contexts.clusterConfig(""));
          MembershipProvider e = new JGroupsProviderFactory().create(c);
          Recorder rec = new Recorder("troupe-cluster-jgroups-");
          long joinStart = System.nanoTime();
          endpoints.add(e.join(endpoints.isEmpty() ? List.of() : List.of(endpoints.get(0)), rec));
          engines.add(e);
          recorders.add(rec);
          nodes.add(self);
          for (Recorder r : recorders) {
            r.awaitView("holding " + self, v -> nodes(v).contains(self), MAX);
          }
          if (i > 0) {
            join.add(ms(joinStart));
          }
        }
        formation.add(ms(t0));

        // closed socket: the youngest closes
        UniqueAddress victim = nodes.get(NODES - 1);
        long t1 = System.nanoTime();
        engines.get(NODES - 1).close();
        for (Recorder r : recorders.subList(0, NODES - 1)) {
          r.awaitLastView("without " + victim, v -> !nodes(v).contains(victim), MAX);
        }
        closed.add(ms(t1));

        // silence: the next youngest goes quiet without closing anything
        UniqueAddress quiet = nodes.get(NODES - 2);
        JChannel ch = ((JGroupsMembershipProvider) engines.get(NODES - 2)).channel();
        long t2 = System.nanoTime();
        ch.getProtocolStack().insertProtocol(new DISCARD().discardAll(true).setAddress(ch.getAddress()), ProtocolStack.Position.ABOVE, TP.class);
        for (Recorder r : recorders.subList(0, NODES - 2)) {
          r.awaitLastView("without " + quiet, v -> !nodes(v).contains(quiet), MAX);
        }
        silent.add(ms(t2));
      } finally {
        engines.forEach(MembershipProvider::close);
      }
      System.out.printf("round %d: formation %d ms, joins %s ms, closed socket %d ms, silence %d ms%n",
          round + 1, formation.get(round), join.subList(round * (NODES - 1), (round + 1) * (NODES - 1)), closed.get(round), silent.get(round));
    }
    System.out.println("five engines, loopback, defaults (heartbeat 1 s, pause 5 s), " + rounds + " rounds; median / max in ms:");
    System.out.println("  formation of 5                " + stats(formation));
    System.out.println("  a join seen by every node     " + stats(join));
    System.out.println("  closed socket -> dropped      " + stats(closed));
    System.out.println("  silent node -> dropped        " + stats(silent));
  }

  private static long ms(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }

  private static String stats(List<Long> values) {
    long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
    return v[v.length / 2] + " / " + v[v.length - 1] + "  " + Arrays.toString(v);
  }
}
