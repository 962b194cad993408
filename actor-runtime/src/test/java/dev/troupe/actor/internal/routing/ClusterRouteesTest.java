package dev.troupe.actor.internal.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.routing.Routee;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Where a cluster-aware router's next routee goes, and what a member that goes takes with it. */
class ClusterRouteesTest {
  private static final Address A = Address.parse("troupe://sys@127.0.0.1:2551");
  private static final Address B = Address.parse("troupe://sys@127.0.0.1:2552");
  private static final Address C = Address.parse("troupe://sys@127.0.0.1:2553");

  /** A routee that is only an identity. */
  private record Fake(int n) implements Routee {
    @Override
    public void send(Object message, ActorRef sender) {}
  }

  private static ClusterRoutees pool(int perNode, int total) {
    return new ClusterRoutees(new DeploymentSections.ClusterSection("k", false, perNode, true, Set.of(), total), null);
  }

  /** Fills the caps as the router does; @return node -> routees added there */
  private static Map<Address, Integer> fill(ClusterRoutees c, List<Routee> added) {
    return fill(c, added, false);
  }

  private static Map<Address, Integer> fill(ClusterRoutees c, List<Routee> added, boolean group) {
    Map<Address, Integer> where = new TreeMap<>((x, y) -> x.toString().compareTo(y.toString()));
    for (Address n = c.nextNode(); n != null; n = c.nextNode()) {
      Routee r = new Fake(added.size());
      String path = group ? c.nextPath(n) : null;
      c.placed(n, r, path);
      added.add(r);
      where.merge(n, 1, Integer::sum);
    }
    return where;
  }

  @Test
  void routeesSpreadEvenlyUpToThePerNodeCapAndTheTotal() {
    ClusterRoutees c = pool(2, 5);
    List<Routee> added = new ArrayList<>();
    c.retain(List.of(A, B, C));
    assertEquals(Map.of(A, 2, B, 2, C, 1), fill(c, added), "one on each before a second anywhere; five in all");
    assertEquals(5, c.total());
  }

  @Test
  void aNodeThatGoesLosesItsRouteesAndNothingMovesBeyondTheCaps() {
    ClusterRoutees c = pool(2, 4);
    List<Routee> added = new ArrayList<>();
    c.retain(List.of(A, B, C));
    fill(c, added); // A 2, B 1, C 1
    List<Routee> gone = c.retain(List.of(B, C));
    assertEquals(2, gone.size(), "A's two routees");
    assertEquals(Map.of(B, 1, C, 1), fill(c, new ArrayList<>()), "B and C fill up to two each, four in all");
    assertNull(c.nextNode());
    assertEquals(4, c.total());
  }

  @Test
  void aRemovedRouteeFreesItsPlaceOnItsNode() {
    ClusterRoutees c = pool(1, 10);
    List<Routee> added = new ArrayList<>();
    c.retain(List.of(A, B));
    assertEquals(Map.of(A, 1, B, 1), fill(c, added));
    assertNull(c.nextNode(), "both nodes are full");
    c.removed(added.get(0)); // the routee on A (the first in address order)
    assertEquals(1, c.total());
    assertEquals(A, c.nextNode(), "A has room again");
  }

  @Test
  void aGroupLooksEachPathUpOncePerNodeWhateverThePerNodeCap() {
    ClusterRoutees c = new ClusterRoutees(
        new DeploymentSections.ClusterSection("k", false, 5, true, Set.of(), 100), List.of("/user/a", "/user/b"));
    c.retain(List.of(A, B));
    Map<Address, Integer> where = fill(c, new ArrayList<>(), true);
    assertEquals(Map.of(A, 2, B, 2), where, "two paths on each node");
  }
}
