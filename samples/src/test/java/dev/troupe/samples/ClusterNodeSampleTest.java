package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * cluster-node as the README runs it: three nodes, each the real launcher ({@link Main}) in its own
 * JVM on 127.0.0.1 with the JGroups engine, form a cluster and print every member's events; a node
 * killed with SIGKILL is unreachable, downed and removed on the others; a node sent SIGTERM (what
 * Ctrl-C does: coordinated shutdown through the JVM's hook) leaves gracefully. Downing waits 3 s
 * of stability here instead of the default 7 s, to stay short.
 */
@Timeout(90)
class ClusterNodeSampleTest {
  /** How long one change may take on a loaded machine (JVM start included). */
  private static final Duration CHANGE = Duration.ofSeconds(30);

  private static final Pattern ADDRESS = Pattern.compile("node (troupe://cluster@127\\.0\\.0\\.1:\\d+)");

  private static final Pattern MANAGEMENT = Pattern.compile("^management: http://127\\.0\\.0\\.1:(\\d+)/cluster/members$");

  private final List<Node> nodes = new ArrayList<>();

  /** One child JVM running the sample, and every line it printed so far. */
  static final class Node {
    final String name;
    final Process process;
    private final List<String> lines = new ArrayList<>();

    Node(String name, Process process) {
      this.name = name;
      this.process = process;
      Thread reader = new Thread(this::read, "cluster-node-output-" + name);
      reader.setDaemon(true);
      reader.start();
    }

    private void read() {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          synchronized (lines) {
            lines.add(line);
            lines.notifyAll();
          }
        }
      } catch (IOException e) {
        // the process ended; what it printed stays
      }
    }

    /**
     * @return the index of the first line from {@code from} on that {@code pattern} finds something in
     * @throws AssertionError with everything the node printed when no such line comes within {@link #CHANGE}
     */
    int await(Pattern pattern, int from, String what) throws InterruptedException {
      long deadline = System.nanoTime() + CHANGE.toNanos();
      synchronized (lines) {
        int i = from;
        while (true) {
          for (; i < lines.size(); i++) {
            if (pattern.matcher(lines.get(i)).find()) {
              return i;
            }
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            fail("node " + name + " printed no " + what + " within " + CHANGE + "; it printed:\n" + printed());
          }
          TimeUnit.NANOSECONDS.timedWait(lines, left);
        }
      }
    }

    String line(int i) {
      synchronized (lines) {
        return lines.get(i);
      }
    }

    String printed() {
      synchronized (lines) {
        return String.join("\n", lines);
      }
    }
  }

  private Node start(String name, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("cluster-node"));
    all.addAll(List.of(args));
    Process p = ChildJvm.builder(
            List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dtroupe.cluster.downing.stable-after=3s"),
            Main.class, all.toArray(String[]::new))
        .redirectErrorStream(true)
        .start();
    Node n = new Node(name, p);
    nodes.add(n);
    return n;
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Node n : nodes) {
      n.process.destroyForcibly();
    }
    for (Node n : nodes) {
      n.process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static Pattern event(String event, String address) {
    return Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} " + event + " " + Pattern.quote(address) + "(\\s|$)");
  }

  /** Waits for the events in order, each after the previous one; @return the index of the last. */
  private static int inOrder(Node node, int from, String address, String... events) throws InterruptedException {
    int at = from;
    for (String e : events) {
      at = node.await(event(e, address), at, e + " " + address + " (after line " + at + ")") + 1;
    }
    return at - 1;
  }

  @Test
  void threeNodesFormPrintEventsSeeAKilledNodeRemovedAndAGracefulLeave() throws Exception {
    Node a = start("a", "--http-port", "0");
    int lineA = a.await(ADDRESS, 0, "address line");
    Matcher m = ADDRESS.matcher(a.line(lineA));
    assertTrue(m.find());
    String addressA = m.group(1);
    a.await(event("MemberUp", addressA), 0, "its own MemberUp (it founds the cluster)");
    a.await(event("LeaderChanged", addressA), 0, "itself as the leader");

    Node b = start("b", "--seed", addressA);
    Node c = start("c", "--seed", addressA, "--role", "worker", "--role", "backend");
    String addressB = address(b);
    String addressC = address(c);

    for (Node n : List.of(a, b, c)) {
      for (String addr : List.of(addressA, addressB, addressC)) {
        int up = n.await(event("MemberUp", addr), 0, "MemberUp " + addr);
        if (addr.equals(addressC)) {
          assertTrue(n.line(up).endsWith(addressC + " [backend, worker]"), "the roles show: " + n.line(up));
        }
      }
      n.await(event("LeaderChanged", addressA), 0, "the founder as the leader");
    }

    // the founder's management endpoint lists the three: the cluster publishes its view before the
    // events of a change, so the view it answers from holds what the founder printed
    Matcher http = MANAGEMENT.matcher(a.line(a.await(MANAGEMENT, 0, "the management line")));
    assertTrue(http.find());
    int httpPort = Integer.parseInt(http.group(1));
    String members = get(httpPort, "/cluster/members");
    assertTrue(members.startsWith("HTTP/1.1 200"), members);
    for (String addr : List.of(addressA, addressB, addressC)) {
      assertTrue(members.contains("\"node\":\"" + addr + "\",\"nodeUid\"") , addr + " listed: " + members);
    }
    assertEquals(3, members.split("\"status\":\"Up\"", -1).length - 1, "three members Up: " + members);
    assertTrue(get(httpPort, "/health/ready").startsWith("HTTP/1.1 200"), "the founder is ready");

    // kill -9: unreachable, then downed and removed on the others
    c.process.toHandle().destroyForcibly();
    int fromA = 0;
    int fromB = 0;
    for (Node n : List.of(a, b)) {
      int removed = inOrder(n, 0, addressC, "UnreachableMember", "MemberDowned", "MemberRemoved");
      assertTrue(n.line(removed).endsWith("(was DOWN)"), n.line(removed));
      if (n == a) {
        fromA = removed + 1;
      } else {
        fromB = removed + 1;
      }
    }

    // SIGTERM, as Ctrl-C: a graceful leave through coordinated shutdown
    b.process.toHandle().destroy(); // Process.destroy would also close the pipe of its output
    int removed = inOrder(a, fromA, addressB, "MemberLeft", "MemberExited", "MemberRemoved");
    assertTrue(a.line(removed).endsWith("(was EXITING)"), a.line(removed));
    b.await(Pattern.compile("^this node is out of the cluster; stopping$"), fromB, "its own removal");
    assertTrue(b.process.waitFor(CHANGE.toSeconds(), TimeUnit.SECONDS), "the leaving node's JVM ends:\n" + b.printed());
    assertTrue(a.process.isAlive(), "the remaining node runs on:\n" + a.printed());
  }

  /** A GET on 127.0.0.1:{@code port}, the whole answer (status line, headers, body). */
  private static String get(int port, String path) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5000);
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String address(Node n) throws InterruptedException {
    int i = n.await(ADDRESS, 0, "address line");
    Matcher m = ADDRESS.matcher(n.line(i));
    assertTrue(m.find());
    return m.group(1);
  }

  @Test
  void aMalformedSeedIsAUsageError() {
    String out = Launcher.run(Launcher.USAGE_ERROR, "cluster-node", "--seed", "not-an-address");
    assertTrue(out.contains("--seed 'not-an-address' is not a troupe://cluster@host:port address"), out);
    out = Launcher.run(Launcher.USAGE_ERROR, "cluster-node", "--seed", "troupe://other@127.0.0.1:2551");
    assertTrue(out.contains("names system 'other'"), out);
    out = Launcher.run(Launcher.USAGE_ERROR, "cluster-node", "--http-port", "70000");
    assertTrue(out.contains("--http-port"), out);
  }
}
