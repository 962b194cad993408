package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * typed-sharding: counters sharded over three members, incremented from every member through entity
 * refs, each read back from the first member with one increment per member, on a member of the
 * cluster.
 */
class TypedShardingSampleTest {
  private static final String NODE = "troupe://typed-sharding@127\\.0\\.0\\.1:\\d+";
  private static final Pattern MEMBER = Pattern.compile("member \\d listening at (" + NODE + ")");
  private static final Pattern COUNT = Pattern.compile("(counter-\\d+) = (\\d+), on (" + NODE + ")");

  @Test
  void everyCounterHasOneIncrementFromEachMemberAndLivesOnAMember() {
    String out = Launcher.run(0, "typed-sharding", "--members", "3", "--counters", "8");
    List<String> members = new ArrayList<>();
    Matcher m = MEMBER.matcher(out);
    while (m.find()) {
      members.add(m.group(1));
    }
    assertEquals(3, members.size(), out);
    assertTrue(out.contains("24 increments answered"), out);
    Set<String> ids = new TreeSet<>();
    Matcher c = COUNT.matcher(out);
    while (c.find()) {
      ids.add(c.group(1));
      assertEquals("3", c.group(2), "one increment from each member: " + c.group());
      assertTrue(members.contains(c.group(3)), "a counter lives on a member: " + c.group());
    }
    assertEquals(8, ids.size(), "every counter answered:\n" + out);
  }

  @Test
  void aClusterOfOneIsAUsageError() {
    String out = Launcher.run(2, "typed-sharding", "--members", "1");
    assertTrue(out.contains("--members"), out);
  }
}
