package dev.troupe.actor.typed.javadsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The routing logics alone, on refs that only have a path: round-robin's wrap, the hash ring's moves. */
class RoutingLogicTest {
  private record Ref(ActorPath path) implements ActorRef<String> {
    @Override
    public void tell(String message) {}
  }

  @SuppressWarnings("unchecked")
  private static ActorRef<String>[] refs(int... ids) {
    ActorRef<String>[] rs = (ActorRef<String>[]) new ActorRef<?>[ids.length];
    for (int i = 0; i < ids.length; i++) {
      rs[i] = new Ref(ActorPath.fromString("troupe://sys/user/router/r" + ids[i]));
    }
    return rs;
  }

  @Test
  void roundRobinCyclesAndWrapsWhenRouteesGo() {
    RoutingLogic<String> rr = RoutingLogic.<String>roundRobin().create();
    ActorRef<String>[] three = refs(0, 1, 2);
    rr.routeesChanged(three);
    List<ActorRef<String>> picked = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      picked.add(rr.select("m", three));
    }
    assertEquals(List.of(three[0], three[1], three[2], three[0], three[1]), picked);
    ActorRef<String>[] one = refs(7);
    rr.routeesChanged(one); // its next index (2) is past the end now
    assertEquals(one[0], rr.select("m", one));
    assertEquals(one[0], rr.select("m", one));
  }

  @Test
  void theRingMovesOnlyTheKeysOfARouteeThatGoesAndSpreadsTheRest() {
    ActorRef<String>[] five = refs(0, 1, 2, 3, 4);
    RoutingLogic<String> ring = RoutingLogic.<String>consistentHashing(10, m -> m).create();
    ring.routeesChanged(five);
    Map<String, ActorRef<String>> before = new HashMap<>();
    Map<ActorRef<String>, Integer> load = new HashMap<>();
    for (int k = 0; k < 1000; k++) {
      ActorRef<String> r = ring.select("key-" + k, five);
      before.put("key-" + k, r);
      load.merge(r, 1, Integer::sum);
    }
    assertEquals(5, load.size(), "every routee owns keys: " + load);
    load.values().forEach(n -> assertTrue(n >= 50, "each of five routees owns at least 50 of 1000 keys: " + load));

    ActorRef<String>[] four = refs(0, 1, 3, 4); // r2 goes
    ring.routeesChanged(four);
    int moved = 0;
    for (Map.Entry<String, ActorRef<String>> e : before.entrySet()) {
      ActorRef<String> now = ring.select(e.getKey(), four);
      if (e.getValue().equals(five[2])) {
        assertNotEquals(five[2], now);
        moved++;
      } else {
        assertEquals(e.getValue(), now, "a key of a routee that stayed keeps it: " + e.getKey());
      }
    }
    assertEquals(load.get(five[2]), moved, "exactly the keys of the routee that went moved");
  }

  @Test
  void twoRingsOfTheSameRouteesInAnyOrderAgreeAndANullKeyIsNotRouted() {
    ActorRef<String>[] rs = refs(0, 1, 2, 3);
    List<ActorRef<String>> shuffled = new ArrayList<>(List.of(rs));
    Collections.reverse(shuffled);
    @SuppressWarnings("unchecked")
    ActorRef<String>[] other = shuffled.toArray((ActorRef<String>[]) new ActorRef<?>[0]);
    RoutingLogic<String> a = RoutingLogic.<String>consistentHashing(3, m -> m.isEmpty() ? null : m).create();
    RoutingLogic<String> b = RoutingLogic.<String>consistentHashing(3, m -> m.isEmpty() ? null : m).create();
    a.routeesChanged(rs);
    b.routeesChanged(other);
    for (int k = 0; k < 200; k++) {
      assertEquals(a.select("k" + k, rs), b.select("k" + k, other), "key k" + k);
    }
    assertNull(a.select("", rs), "a message without key has no routee");
  }
}
