package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.samples.ClusterNodeSampleTest.Node;
import dev.troupe.testkit.ChildJvm;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * sharded-counters one node per process, as the README runs it across terminals: each node the real
 * launcher ({@link Main}) in its own JVM on 127.0.0.1, driven through its standard input. Three
 * nodes count; the founder (which runs the tally singleton) is killed with SIGKILL, its counters
 * answer again from the survivors (from 0) and the singleton starts on one survivor; a fourth node
 * joins through the younger survivor (not the engine's coordinator) and takes a share of the counters, which start again on it while the
 * others keep their counts; the singleton runs on exactly one node throughout.
 */
@Timeout(240)
class ShardedCountersNodesTest {
  private static final Pattern ADDRESS = Pattern.compile("^node (troupe://counters@127\\.0\\.0\\.1:\\d+)$");
  private static final Pattern ANSWER =
      Pattern.compile("^(\\S+) = (\\d+) \\(hosted on (troupe://counters@127\\.0\\.0\\.1:\\d+)\\)$");
  private static final Pattern TALLY =
      Pattern.compile("^tally = (\\d+) increments \\(the singleton runs on (troupe://counters@127\\.0\\.0\\.1:\\d+)\\)$");
  private static final Pattern TALLY_STARTS = Pattern.compile("^\\S+ tally singleton starts on this node");
  /** Names per batch of increments: about 20 of the sample's 30 shards, so each node likely hosts some. */
  private static final int BATCH = 30;
  /** How long the tally may take to hear every increment (they reach it on their own path). */
  private static final Duration TALLY_WAIT = Duration.ofSeconds(30);

  private final List<Terminal> terminals = new ArrayList<>();

  /** One node's process, its output and its input, and how far the test has read its output. */
  static final class Terminal {
    final Node node;
    final String address;
    private final PrintWriter in;
    int read;

    Terminal(Node node, String address) {
      this.node = node;
      this.address = address;
      this.in = new PrintWriter(new OutputStreamWriter(node.process.getOutputStream(), StandardCharsets.UTF_8), true);
    }

    void type(String line) {
      in.println(line);
    }

    /** @return the matcher of the next line from {@link #read} on that {@code pattern} matches; moves past it */
    Matcher next(Pattern pattern, String what) throws InterruptedException {
      int i = node.await(pattern, read, what);
      read = i + 1;
      Matcher m = pattern.matcher(node.line(i));
      assertTrue(m.find());
      return m;
    }

    /** @return whether the node printed a line that {@code pattern} finds something in */
    boolean printed(Pattern pattern) {
      return pattern.matcher(node.printed()).find();
    }
  }

  /** A counter's last answer. */
  record Count(long count, String host) {}

  private Terminal start(String name, String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("sharded-counters"));
    all.addAll(List.of(args));
    Process p = ChildJvm.builder(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
            Main.class, all.toArray(String[]::new))
        .redirectErrorStream(true)
        .start();
    Node node = new Node(name, p);
    int i = node.await(ADDRESS, 0, "its address line");
    Matcher m = ADDRESS.matcher(node.line(i));
    assertTrue(m.find());
    Terminal t = new Terminal(node, m.group(1));
    terminals.add(t);
    return t;
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Terminal t : terminals) {
      t.node.process.destroyForcibly();
    }
    for (Terminal t : terminals) {
      t.node.process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static Pattern memberEvent(String event, String address) {
    return Pattern.compile("^\\S+ " + event + " " + Pattern.quote(address) + "(\\s|$)");
  }

  private static void awaitMembers(Terminal at, Terminal... members) throws InterruptedException {
    for (Terminal m : members) {
      at.node.await(memberEvent("MemberUp", m.address), 0, "MemberUp " + m.address);
    }
  }

  /**
   * Increments each counter once through {@code via} and checks each answer against the counter's
   * last one: on the same host it counts on; on another host it starts again from 0, which only a
   * counter whose host died, or a counter that moved to {@code joiner}, may do.
   *
   * @return the counters this batch found on each host
   */
  private static Map<String, Set<String>> incrementAll(Terminal via, List<String> names, Map<String, Count> counts,
      String dead, String joiner) throws InterruptedException {
    via.type("inc " + String.join(" ", names));
    Map<String, Set<String>> byHost = new HashMap<>();
    for (String name : names) {
      String line = via.next(Pattern.compile("^" + Pattern.quote(name) + "(: | = )"), "the answer to inc " + name).group();
      line = via.node.line(via.read - 1);
      Matcher m = ANSWER.matcher(line);
      if (!m.matches()) {
        fail("no count for " + name + ": " + line + "\nthe node printed:\n" + via.node.printed());
      }
      Count now = new Count(Long.parseLong(m.group(2)), m.group(3));
      Count was = counts.get(name);
      if (was == null) {
        assertEquals(1, now.count(), "a new counter counts from 0: " + m.group());
      } else if (was.host().equals(now.host())) {
        assertEquals(was.count() + 1, now.count(), "a counter that stayed counts on: " + m.group());
      } else {
        assertTrue(was.host().equals(dead) || now.host().equals(joiner),
            "a counter moves only off a dead node or onto the joiner: " + name + " was on " + was.host() + ", "
                + m.group());
        assertEquals(1, now.count(), "a moved counter starts again from 0 (state is the entity's): " + m.group());
      }
      counts.put(name, now);
      byHost.computeIfAbsent(now.host(), h -> new TreeSet<>()).add(name);
    }
    return byHost;
  }

  private static List<String> names(int from, int count) {
    List<String> names = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      names.add("c" + i);
    }
    return names;
  }

  /** Asks {@code via} for the tally until it has counted {@code increments}; @return where it runs. */
  private static String awaitTally(Terminal via, long increments) throws InterruptedException {
    long deadline = System.nanoTime() + TALLY_WAIT.toNanos();
    while (true) {
      via.type("tally");
      Matcher m = via.next(TALLY, "the tally's answer");
      long counted = Long.parseLong(m.group(1));
      assertTrue(counted <= increments, "the tally counts each increment once: " + m.group() + ", sent " + increments);
      if (counted == increments) {
        return m.group(2);
      }
      if (System.nanoTime() > deadline) {
        fail("the tally counted " + counted + " of " + increments + " increments within " + TALLY_WAIT);
      }
      Thread.sleep(200);
    }
  }

  @Test
  void countersSurviveAKilledNodeAndAFourthNodeTakesAShareWhileTheTallyRunsOnOneNode() throws Exception {
    Terminal a = start("a", "--port", "0");
    a.node.await(TALLY_STARTS, 0, "the tally starting on the founder");
    Terminal b = start("b", "--seed", a.address);
    Terminal c = start("c", "--seed", a.address);
    for (Terminal t : List.of(a, b, c)) {
      awaitMembers(t, a, b, c);
    }

    // increments through c until each of the three nodes hosts a counter
    Map<String, Count> counts = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    Set<String> hosts = new HashSet<>();
    for (int batch = 0; hosts.size() < 3; batch++) {
      assertTrue(batch < 4, "after " + names.size() + " counters, some node hosts none: " + counts);
      List<String> more = names(names.size() + 1, BATCH);
      names.addAll(more);
      hosts.addAll(incrementAll(c, more, counts, null, null).keySet());
    }
    assertEquals(Set.of(a.address, b.address, c.address), hosts, "the counters live on the members");
    assertEquals(a.address, awaitTally(c, names.size()), "the tally runs on the founder, the oldest");
    Set<String> onA = new TreeSet<>();
    counts.forEach((name, count) -> {
      if (count.host().equals(a.address)) {
        onA.add(name);
      }
    });
    assertFalse(b.printed(TALLY_STARTS) || c.printed(TALLY_STARTS), "no second tally while the founder runs one");

    // kill -9 of the founder: removed by the survivors, its counters start again on them, and so does the tally
    a.node.process.destroyForcibly();
    for (Terminal t : List.of(b, c)) {
      int removed = t.node.await(memberEvent("MemberRemoved", a.address), 0, "MemberRemoved of the killed founder");
      assertTrue(t.node.line(removed).endsWith("(was DOWN)"), t.node.line(removed));
    }
    Map<String, Set<String>> after = incrementAll(c, names, counts, a.address, null);
    assertFalse(after.containsKey(a.address), "no counter answers from the killed node: " + after);
    for (String name : onA) {
      assertEquals(1, counts.get(name).count(), name + " was on the killed node and counts again from 0");
    }
    String tallyHost = awaitTally(c, names.size());
    assertTrue(tallyHost.equals(b.address) || tallyHost.equals(c.address), "the tally moved to a survivor: " + tallyHost);
    Terminal tallyNode = tallyHost.equals(b.address) ? b : c;
    Terminal other = tallyNode == b ? c : b;
    tallyNode.node.await(TALLY_STARTS, 0, "the tally starting on " + tallyHost);
    assertFalse(other.printed(TALLY_STARTS), "the tally starts on one survivor only:\n" + other.node.printed());

    // a fourth node joins through the survivor without the tally: not the oldest member, so not the
    // membership engine's coordinator either; it takes a share of the counters
    Terminal d = start("d", "--seed", other.address);
    for (Terminal t : List.of(b, c, d)) {
      awaitMembers(t, b, c, d);
    }
    Map<String, Count> beforeJoin = new HashMap<>(counts);
    Set<String> onD = new TreeSet<>();
    List<String> batchNames = names;
    long sent = names.size();
    for (int batch = 0; onD.isEmpty(); batch++) {
      assertTrue(batch < 4, "after " + names.size() + " counters, the fourth node hosts none: " + counts);
      onD.addAll(incrementAll(c, batchNames, counts, null, d.address).getOrDefault(d.address, Set.of()));
      sent += batchNames.size();
      batchNames = names(names.size() + 1, BATCH);
      if (onD.isEmpty()) {
        names.addAll(batchNames);
      }
    }
    for (String name : onD) {
      d.node.await(Pattern.compile("^\\S+ counter " + name + " starts on this node$"), 0, name + " starting on d");
      Count was = beforeJoin.get(name);
      if (was != null) {
        Terminal oldHost = was.host().equals(b.address) ? b : c;
        oldHost.node.await(Pattern.compile("^\\S+ counter " + name + " hands off to another node"), 0,
            name + " handing off to the joiner");
      }
    }
    d.type("here");
    Matcher here = d.next(Pattern.compile("^counters on this node: (.+)$"), "its list of counters");
    assertEquals(onD, new TreeSet<>(List.of(here.group(1).split(" "))), "d hosts exactly the counters answered from it");
    assertEquals(tallyHost, awaitTally(d, sent), "the tally stays where it runs when a younger node joins");
    assertFalse(d.printed(TALLY_STARTS), "no tally on the joiner:\n" + d.node.printed());
    assertFalse(other.printed(TALLY_STARTS), "still one tally:\n" + other.node.printed());

    // quit: a graceful leave, seen by the others, and the process ends
    d.type("quit");
    for (Terminal t : List.of(b, c)) {
      int removed = t.node.await(memberEvent("MemberRemoved", d.address), 0, "MemberRemoved of the node that quit");
      assertTrue(t.node.line(removed).endsWith("(was EXITING)"), t.node.line(removed));
    }
    assertTrue(d.node.process.waitFor(30, TimeUnit.SECONDS), "the node that quit ends:\n" + d.node.printed());
    assertEquals(0, d.node.process.exitValue(), "and exits with 0:\n" + d.node.printed());
  }
}
