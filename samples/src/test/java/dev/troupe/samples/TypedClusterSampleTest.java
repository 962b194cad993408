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
 * typed-cluster: a greeter on every member, listed by the receptionist of the first, greeted across
 * the wire with a typed reply-to ref, and gone from the listing when its member leaves (told through
 * the typed cluster's manager, heard through the front's cluster subscription).
 */
class TypedClusterSampleTest {
  private static final String NODE = "troupe://typed-cluster@127\\.0\\.0\\.1:\\d+";
  private static final Pattern MEMBER = Pattern.compile("member \\d listening at (" + NODE + ")");
  private static final Pattern GREETING = Pattern.compile("hello Ada, from the greeter on (" + NODE + ")");
  private static final Pattern LEFT = Pattern.compile("member (" + NODE + ") left; the receptionist lists 2 greeters: \\[(.*)\\]");

  @Test
  void everyMembersGreeterIsListedAndGreetedAndLeavesWithItsMember() {
    String out = Launcher.run(0, "typed-cluster", "--members", "3", "--name", "Ada");
    List<String> members = all(MEMBER, out);
    assertEquals(3, members.size(), out);
    assertTrue(out.contains("lists 3 greeters: " + new TreeSet<>(members)), "all three members' greeters listed:\n" + out);
    assertEquals(new TreeSet<>(members), new TreeSet<>(all(GREETING, out)), "one greeting from each member:\n" + out);

    Matcher left = LEFT.matcher(out);
    assertTrue(left.find(), out);
    assertEquals(members.get(2), left.group(1), "the last member left:\n" + out);
    assertTrue(out.contains("the front heard: member " + members.get(2) + " removed"),
        "the front's cluster subscription heard the removal:\n" + out);
    Set<String> rest = new TreeSet<>(members.subList(0, 2));
    assertEquals(String.join(", ", rest), left.group(2), "its greeter is gone from the listing:\n" + out);
  }

  @Test
  void aClusterOfOneIsAUsageError() {
    String out = Launcher.run(2, "typed-cluster", "--members", "1");
    assertTrue(out.contains("--members"), out);
  }

  private static List<String> all(Pattern p, String out) {
    List<String> found = new ArrayList<>();
    Matcher m = p.matcher(out);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }
}
