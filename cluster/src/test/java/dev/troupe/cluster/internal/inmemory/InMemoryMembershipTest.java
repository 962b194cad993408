package dev.troupe.cluster.internal.inmemory;

import static dev.troupe.cluster.internal.Recorder.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.internal.Recorder;
import dev.troupe.cluster.internal.Recorder.Report;
import dev.troupe.cluster.internal.Recorder.Suspected;
import dev.troupe.cluster.internal.Recorder.Unsuspected;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/** The in-memory engine: formation, leave, crash, suspicion, partition and heal, through its test hooks. */
@Timeout(30)
class InMemoryMembershipTest {
  private static final String THREAD = "troupe-cluster-in-memory-";
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final List<MembershipProvider> engines = new ArrayList<>();
  private String cluster;

  @AfterEach
  void closeAll() {
    engines.forEach(MembershipProvider::close);
    assertEquals(List.of(), InMemoryCluster.members(cluster), "a group with no live node is forgotten");
  }

  private record Node(UniqueAddress address, MembershipProvider engine, Recorder recorder, String endpoint) {}

  private Node join(int i, List<String> seeds) throws Exception {
    return join(Contexts.node(cluster, 25520 + i, 100 + i), seeds);
  }

  private Node join(UniqueAddress self, List<String> seeds) throws Exception {
    MembershipProvider e = new InMemoryProviderFactory().create(Contexts.context(self, Set.of("r"), ""));
    engines.add(e);
    Recorder rec = new Recorder(THREAD);
    String endpoint = e.join(seeds, rec);
    return new Node(self, e, rec, endpoint);
  }

  private List<Node> form(TestInfo test, int count) throws Exception {
    cluster = "mem-" + test.getTestMethod().orElseThrow().getName();
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      nodes.add(join(i, nodes.isEmpty() ? List.of() : List.of(nodes.get(0).endpoint())));
    }
    List<UniqueAddress> all = nodes.stream().map(Node::address).toList();
    for (Node n : nodes) {
      n.recorder().awaitLastView("of all " + count, v -> nodes(v).equals(all), WAIT);
    }
    return nodes;
  }

  private static List<UniqueAddress> addresses(Node... nodes) {
    return List.of(nodes).stream().map(Node::address).toList();
  }

  @Test
  void nodesFormOneViewInTheSameOrderEverywhere(TestInfo test) throws Exception {
    List<Node> nodes = form(test, 3);
    MembershipView reference = nodes.get(0).recorder().lastView();
    for (Node n : nodes) {
      assertEquals(reference, n.recorder().lastView(), "same members, order and version everywhere");
      assertTrue(nodes(n.recorder().views().get(0)).contains(n.address()), "the first view holds the node");
      n.recorder().assertPromisesKept();
    }
    assertEquals(Set.of("r"), reference.members().get(1).roles());
  }

  @Test
  void aLeaveIsAViewWithoutTheNodeAndNoSuspicion(TestInfo test) throws Exception {
    List<Node> nodes = form(test, 3);
    Node leaver = nodes.get(1);
    int heard = leaver.recorder().reports().size();
    leaver.engine().leave();
    for (Node n : List.of(nodes.get(0), nodes.get(2))) {
      n.recorder().awaitLastView("without the leaver", v -> nodes(v).equals(addresses(nodes.get(0), nodes.get(2))), WAIT);
      assertFalse(n.recorder().reports().contains(new Suspected(leaver.address())));
      n.recorder().assertPromisesKept();
    }
    assertEquals(heard, leaver.recorder().reports().size(), "the leaver hears nothing more");
  }

  @Test
  void aCrashIsASuspicionThenAViewWithoutTheNode(TestInfo test) throws Exception {
    List<Node> nodes = form(test, 4);
    Node crashed = nodes.get(1);
    long formed = nodes.get(0).recorder().lastView().version();
    InMemoryCluster.crash(cluster, crashed.address());
    nodes.get(3).engine().close(); // close() is a crash too
    List<UniqueAddress> left = addresses(nodes.get(0), nodes.get(2));
    for (Node n : List.of(nodes.get(0), nodes.get(2))) {
      n.recorder().awaitLastView("without the crashed nodes", v -> nodes(v).equals(left), WAIT);
      List<Report> r = n.recorder().reports();
      int suspected = r.indexOf(new Suspected(crashed.address()));
      int dropped = indexOfFirstView(r, v -> v.version() > formed);
      assertTrue(suspected >= 0 && suspected < dropped, "suspected, then dropped: " + r);
      assertTrue(r.contains(new Suspected(nodes.get(3).address())), "a close() is seen as a crash");
      n.recorder().assertPromisesKept();
    }
    assertEquals(left, InMemoryCluster.members(cluster));
    assertThrows(IllegalArgumentException.class, () -> InMemoryCluster.crash(cluster, crashed.address()));
  }

  @Test
  void suspicionsComeAndGoWithoutChangingTheView(TestInfo test) throws Exception {
    List<Node> nodes = form(test, 3);
    long version = nodes.get(0).recorder().lastView().version();
    UniqueAddress target = nodes.get(2).address();
    InMemoryCluster.suspect(cluster, target);
    InMemoryCluster.unsuspect(cluster, target);
    for (Node n : nodes.subList(0, 2)) {
      awaitReport(n.recorder(), new Unsuspected(target));
      List<Report> r = n.recorder().reports();
      assertTrue(r.indexOf(new Suspected(target)) < r.indexOf(new Unsuspected(target)), r.toString());
      assertEquals(version, n.recorder().lastView().version(), "the view stays");
    }
    assertFalse(nodes.get(2).recorder().reports().contains(new Suspected(target)), "a node never suspects itself");
  }

  @Test
  void aPartitionSplitsTheGroupAndAHealJoinsItAgain(TestInfo test) throws Exception {
    List<Node> nodes = form(test, 3);
    Node a = nodes.get(0);
    Node b = nodes.get(1);
    Node c = nodes.get(2);
    InMemoryCluster.partition(cluster, List.of(Set.of(a.address(), b.address())));

    a.recorder().awaitLastView("of {a, b}", v -> nodes(v).equals(addresses(a, b)), WAIT);
    b.recorder().awaitLastView("of {a, b}", v -> nodes(v).equals(addresses(a, b)), WAIT);
    c.recorder().awaitLastView("of {c}", v -> nodes(v).equals(addresses(c)), WAIT);
    assertTrue(a.recorder().reports().contains(new Suspected(c.address())));
    assertTrue(c.recorder().reports().contains(new Suspected(a.address())));
    assertTrue(c.recorder().reports().contains(new Suspected(b.address())));

    // a node that joins through c lands on c's side, and only c's side hears of it
    Node d = join(3, List.of(c.endpoint()));
    c.recorder().awaitLastView("of {c, d}", v -> nodes(v).equals(addresses(c, d)), WAIT);
    assertEquals(addresses(a, b), nodes(a.recorder().lastView()), "the other side hears nothing of d");

    long before = c.recorder().lastView().version();
    InMemoryCluster.heal(cluster);
    List<UniqueAddress> all = addresses(a, b, c, d);
    for (Node n : List.of(a, b, c, d)) {
      MembershipView healed = n.recorder().awaitLastView("of all, healed", v -> nodes(v).equals(all), WAIT);
      assertTrue(healed.healed(), "a heal is reported as one");
      assertTrue(healed.version() > before);
      n.recorder().assertPromisesKept();
    }
  }

  @Test
  void aRejoinWithANewUidIsANewMember(TestInfo test) throws Exception {
    List<Node> nodes = form(test, 2);
    UniqueAddress old = nodes.get(1).address();
    InMemoryCluster.crash(cluster, old);
    UniqueAddress reborn = new UniqueAddress(old.address(), 777);
    Node again = join(reborn, List.of(nodes.get(0).endpoint()));
    List<UniqueAddress> expected = List.of(nodes.get(0).address(), reborn);
    nodes.get(0).recorder().awaitLastView("with the new incarnation", v -> nodes(v).equals(expected), WAIT);
    again.recorder().awaitLastView("with the new incarnation", v -> nodes(v).equals(expected), WAIT);
  }

  @Test
  void badEndpointsAreRefused(TestInfo test) throws Exception {
    cluster = "mem-" + test.getTestMethod().orElseThrow().getName();
    MembershipProvider e = new InMemoryProviderFactory().create(Contexts.context(Contexts.node(cluster, 1, 1), Set.of(), ""));
    engines.add(e);
    for (String bad : List.of("", "in-memory:", "in-memory:x", "in-memory:0", "127.0.0.1:2552")) {
      IllegalArgumentException thrown =
          assertThrows(IllegalArgumentException.class, () -> e.join(List.of(bad), new Recorder(THREAD)), bad);
      assertTrue(thrown.getMessage().contains("'" + bad + "'"), thrown.getMessage());
    }
    ConnectException none = assertThrows(ConnectException.class, () -> e.join(List.of("in-memory:42"), new Recorder(THREAD)));
    assertTrue(none.getMessage().contains("in-memory:42"), none.getMessage());
  }

  private static int indexOfFirstView(List<Report> reports, java.util.function.Predicate<MembershipView> p) {
    for (int i = 0; i < reports.size(); i++) {
      if (reports.get(i) instanceof Recorder.ViewReport v && p.test(v.view())) {
        return i;
      }
    }
    return -1;
  }

  private static void awaitReport(Recorder rec, Report expected) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    synchronized (rec) {
      while (!rec.reports().contains(expected)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no " + expected + " within " + WAIT + ": " + rec.reports());
        }
        rec.wait(Math.max(1, left / 1_000_000));
      }
    }
  }
}
