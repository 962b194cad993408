package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.jgroups.EngineFaults;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.remote.internal.association.FailureInjector;
import dev.troupe.remote.internal.provider.FailureInjectors;
import java.util.Collection;
import java.util.List;

/**
 * Network partitions between cluster nodes in one JVM, cutting both kinds of traffic between every
 * pair of nodes on different sides, and healing them.
 *
 * <p><b>The design.</b> All nodes share 127.0.0.1, so nothing below the nodes (a relay, a firewall
 * rule) can tell one source from another; each node is told instead whom it no longer hears, in
 * both of its parts:
 *
 * <ul>
 *   <li>the membership engine: JGroups' own {@code DISCARD} protocol, put into the running stack
 *       just above the transport, drops whatever comes from the other side's members ({@link
 *       EngineFaults}); heartbeats stop, so FD_ALL3 suspects, VERIFY_SUSPECT confirms, and each
 *       side installs a view without the other, exactly as after a cut cable;
 *   <li>remoting: its failure injector ({@code troupe.remote.advanced.failure-injector = on}, see
 *       {@link FailureInjector}) sends nothing to the other side's nodes, so that no down, leave
 *       announcement, death-watch heartbeat or leaving notice crosses: each side must decide on its
 *       own, as the downing policy says.
 * </ul>
 *
 * Each cut is applied on both sides, so neither hears the other. Healing lifts both and runs a
 * MERGE3 round at once on every live engine (announce everywhere, then check), instead of waiting
 * for MERGE3's timers.
 */
final class Partitions {
  /** Settings every node of a partition test needs. */
  static final String CONFIG = "troupe.remote.advanced.failure-injector = on\n";

  private Partitions() {}

  /** One node as a partition sees it: what to cut, captured while it runs. */
  record Node(ActorSystem system, UniqueAddress self, MembershipProvider engine, FailureInjector remoting,
      org.jgroups.Address engineAddress) {
    static Node of(ActorSystem s) {
      ClusterImpl c = (ClusterImpl) Cluster.get(s);
      FailureInjector f = FailureInjectors.of(c.provider.remote());
      if (f == null) {
        throw new IllegalStateException("troupe.remote.advanced.failure-injector is off on " + s.address());
      }
      EngineFaults.prepare(c.engine); // the engine's DISCARD goes in now, not while a cut is made
      return new Node(s, c.selfUniqueAddress(), c.engine, f, EngineFaults.address(c.engine));
    }

    @Override
    public String toString() {
      return self.toString();
    }
  }

  /** Cuts every pair of nodes, one of {@code a} and one of {@code b}, both ways: remoting first, then the engines. */
  static void cut(Collection<Node> a, Collection<Node> b) {
    for (Node x : a) {
      for (Node y : b) {
        x.remoting().blackhole(y.system().address());
        y.remoting().blackhole(x.system().address());
      }
    }
    List<org.jgroups.Address> as = a.stream().map(Node::engineAddress).toList();
    List<org.jgroups.Address> bs = b.stream().map(Node::engineAddress).toList();
    for (Node x : a) {
      EngineFaults.ignore(x.engine(), bs);
    }
    for (Node y : b) {
      EngineFaults.ignore(y.engine(), as);
    }
  }

  /** Lifts every cut of the {@code live} nodes, then runs one MERGE3 round on their engines. */
  static void heal(Collection<Node> live) {
    for (Node n : live) {
      n.remoting().restoreAll();
      EngineFaults.hearAll(n.engine());
    }
    mergeRound(live.stream().map(Node::engine).toList());
  }

  /** One MERGE3 round on these engines: each announces its view, then each coordinator checks. */
  static void mergeRound(Collection<MembershipProvider> engines) {
    for (MembershipProvider e : engines) {
      EngineFaults.announceView(e);
    }
    for (MembershipProvider e : engines) {
      EngineFaults.checkViews(e);
    }
  }
}
