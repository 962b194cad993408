package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * sharded-counters: counters spread over three cluster nodes in one JVM (loopback, JGroups engine),
 * each answer naming its host; the third node leaves and its counters answer from the other two.
 */
class ShardedCountersSampleTest {
  private static final Pattern READ = Pattern.compile("read {6}(c\\d+) via node-\\d -> (\\d+) on (node-\\d)");
  private static final Pattern INCREMENT = Pattern.compile("increment (c\\d+) via node-\\d -> (\\d+) on (node-\\d)");

  record Read(String counter, long count, String node) {}

  private static List<Read> reads(String out) {
    List<Read> reads = new ArrayList<>();
    Matcher m = READ.matcher(out);
    while (m.find()) {
      reads.add(new Read(m.group(1), Long.parseLong(m.group(2)), m.group(3)));
    }
    return reads;
  }

  @Test
  void countersSpreadOverTheNodesAndTheLeavingNodesCountersMoveToTheOthers() {
    String out = Launcher.run(0, "sharded-counters", "--nodes", "3", "--counters", "8", "--increments", "2");
    assertTrue(out.contains("cluster of 3 nodes up"), out);
    List<Read> reads = reads(out);
    assertEquals(16, reads.size(), "one read per counter before and after the leave:\n" + out);
    List<Read> before = reads.subList(0, 8);
    List<Read> after = reads.subList(8, 16);
    Set<String> hosts = new HashSet<>();
    for (Read r : before) {
      assertEquals(2, r.count(), "two increments before the read: " + r);
      hosts.add(r.node());
    }
    assertTrue(hosts.size() >= 2, "8 counters spread over more than one node:\n" + out);
    int moved = 0;
    for (int i = 0; i < 8; i++) {
      Read was = before.get(i);
      Read now = after.get(i);
      assertEquals(was.counter(), now.counter());
      assertFalse(now.node().equals("node-3"), "no counter on the node that left: " + now);
      if (was.node().equals("node-3")) {
        moved++;
        assertEquals(2, now.count(), "a moved counter starts again on its new node (state is the entity's): " + now);
        assertTrue(out.contains("moved " + was.counter() + ": node-3 -> " + now.node()), out);
      } else {
        assertEquals(was.node(), now.node(), "a counter that was not on the leaving node stays: " + now);
        assertEquals(4, now.count(), "it kept its count: " + now);
      }
    }
    assertTrue(out.contains(moved + " of 8 counters moved off node-3"), out);
    Matcher m = INCREMENT.matcher(out);
    int increments = 0;
    while (m.find()) {
      increments++;
    }
    assertEquals(32, increments, "every increment answered once:\n" + out);
  }

  @Test
  void itHasHelpAndRejectsAClusterOfOne() {
    assertTrue(Launcher.run(0, "sharded-counters", "--help").contains("--counters"));
    assertTrue(Launcher.run(2, "sharded-counters", "--nodes", "1").contains("--nodes"));
  }

  @Test
  void aNodeOfItsOwnRefusesTheDemosOptionsAndABadSeedBeforeItStarts() {
    String out = Launcher.run(Launcher.USAGE_ERROR, "sharded-counters", "--port", "0", "--counters", "4");
    assertTrue(out.contains("--counters is an option of the one-JVM demo; with --port or --seed this process is one node"),
        out);
    out = Launcher.run(Launcher.USAGE_ERROR, "sharded-counters", "--seed", "not-an-address");
    assertTrue(out.contains("--seed 'not-an-address' is not a troupe://counters@host:port address"), out);
    out = Launcher.run(Launcher.USAGE_ERROR, "sharded-counters", "--seed", "troupe://cluster@127.0.0.1:2551");
    assertTrue(out.contains("names system 'cluster'; the counters' nodes are 'counters'"), out);
    out = Launcher.run(Launcher.USAGE_ERROR, "sharded-counters", "--port", "70000");
    assertTrue(out.contains("--port must be <= 65535, got 70000"), out);
    out = Launcher.run(Launcher.USAGE_ERROR, "sharded-counters", "--host", "127.0.0.1");
    assertTrue(out.contains("--host is an option of a node of its own; give --port or --seed with it"), out);
  }
}
