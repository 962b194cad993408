package dev.troupe.cluster.internal.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Placement as a pure function: the same owner everywhere, a fair share each, minimal movement. */
class PlacementTest {
  static final int SHARDS = 1000;

  static UniqueAddress node(int i) {
    return new UniqueAddress(Address.remote("sys", "127.0.0." + i, 2552), 1000L + i);
  }

  static List<UniqueAddress> nodes(int n) {
    List<UniqueAddress> l = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      l.add(node(i));
    }
    return l;
  }

  static Map<String, UniqueAddress> place(List<UniqueAddress> members) {
    Placement p = new Placement(members);
    Map<String, UniqueAddress> m = new HashMap<>();
    for (int s = 0; s < SHARDS; s++) {
      m.put(Integer.toString(s), p.owner(Integer.toString(s)));
    }
    return m;
  }

  @Test
  void everyNodeComputesTheSameOwnerWhateverTheOrderOfItsList() {
    List<UniqueAddress> members = nodes(5);
    Map<String, UniqueAddress> expected = place(members);
    Random r = new Random(7);
    for (int i = 0; i < 20; i++) {
      List<UniqueAddress> shuffled = new ArrayList<>(members);
      Collections.shuffle(shuffled, r);
      assertEquals(expected, place(shuffled), "order " + shuffled);
    }
    // fixed values: the function must not change between versions (nodes of different versions agree)
    assertEquals(node(3), Placement.owner("0", members));
    assertEquals(node(3), Placement.owner("customer-42", members));
  }

  @Test
  void noMembersNoOwner() {
    assertNull(Placement.owner("1", List.of()));
    assertTrue(new Placement(List.of()).isEmpty());
  }

  @Test
  void anotherIncarnationAtTheSameAddressIsAnotherMember() {
    List<UniqueAddress> a = List.of(node(1), node(2), node(3));
    List<UniqueAddress> b = List.of(node(1), node(2), new UniqueAddress(node(3).address(), 99));
    Map<String, UniqueAddress> pa = place(a);
    Map<String, UniqueAddress> pb = place(b);
    int differ = 0;
    for (String s : pa.keySet()) {
      if (pa.get(s).equals(node(3)) != pb.get(s).address().equals(node(3).address())) {
        differ++;
      }
    }
    assertTrue(differ > 0, "the uid takes part in the weights");
  }

  @ParameterizedTest(name = "{0} members")
  @ValueSource(ints = {3, 4, 5, 6, 7})
  void eachMemberGetsAFairShare(int n) {
    Map<UniqueAddress, Integer> counts = new HashMap<>();
    place(nodes(n)).values().forEach(o -> counts.merge(o, 1, Integer::sum));
    double mean = (double) SHARDS / n;
    assertEquals(n, counts.size(), "every member owns shards: " + counts);
    for (Map.Entry<UniqueAddress, Integer> e : counts.entrySet()) {
      assertTrue(e.getValue() >= mean * 0.8 && e.getValue() <= mean * 1.2,
          e.getKey() + " owns " + e.getValue() + " of " + SHARDS + " shards, expected " + mean + " +- 20%: " + counts);
    }
  }

  @ParameterizedTest(name = "{0} members, one joins")
  @ValueSource(ints = {3, 4, 5, 6})
  void aJoiningMemberTakesOnlyItsShare(int n) {
    Map<String, UniqueAddress> before = place(nodes(n));
    Map<String, UniqueAddress> after = place(nodes(n + 1));
    int moved = 0;
    for (String s : before.keySet()) {
      if (!before.get(s).equals(after.get(s))) {
        moved++;
        assertEquals(node(n + 1), after.get(s), "shard " + s + " moved between two old members");
      }
    }
    double share = (double) SHARDS / (n + 1);
    assertTrue(moved >= share * 0.8 && moved <= share * 1.2, moved + " shards moved, expected about " + share);
  }

  @ParameterizedTest(name = "{0} members, one leaves")
  @ValueSource(ints = {4, 5, 6, 7})
  void aLeavingMembersShardsAloneMove(int n) {
    List<UniqueAddress> all = nodes(n);
    UniqueAddress leaving = all.get(1);
    List<UniqueAddress> rest = new ArrayList<>(all);
    rest.remove(leaving);
    Map<String, UniqueAddress> before = place(all);
    Map<String, UniqueAddress> after = place(rest);
    Map<UniqueAddress, Integer> gained = new HashMap<>();
    for (String s : before.keySet()) {
      if (before.get(s).equals(leaving)) {
        gained.merge(after.get(s), 1, Integer::sum);
      } else {
        assertEquals(before.get(s), after.get(s), "shard " + s + " of a staying member moved");
      }
    }
    assertEquals(n - 1, gained.size(), "the leaver's shards spread over all the others: " + gained);
  }
}
