package dev.troupe.cluster.internal.jgroups;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.internal.Contexts;
import dev.troupe.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two JGroups engines in two child JVMs; one is killed ({@code destroyForcibly}, SIGKILL): the
 * survivor's view drops it, through FD_SOCK2 (the dead process's sockets close) and VERIFY_SUSPECT.
 */
@Timeout(90)
class JGroupsKilledJvmTest {
  private static final Duration START = Duration.ofSeconds(45);
  private final List<Process> children = new ArrayList<>();

  @AfterEach
  void killChildren() throws InterruptedException {
    for (Process p : children) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private BlockingQueue<String> start(String... args) throws IOException {
    Process p = ChildJvm.builder(List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"), JGroupsNode.class, args)
        .redirectErrorStream(true)
        .start();
    children.add(p);
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("READ FAILED " + e);
              }
            },
            "child-output-" + p.pid());
    reader.setDaemon(true);
    reader.start();
    return lines;
  }

  /** @return the first line (from now on) that starts with {@code prefix} and matches */
  private static String await(BlockingQueue<String> lines, String prefix, Predicate<String> matches, Duration max)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    List<String> seen = new ArrayList<>();
    while (true) {
      String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null) {
        throw new AssertionError("no line '" + prefix + "...' as expected within " + max + "; the child printed: " + seen);
      }
      if (line.startsWith(prefix) && matches.test(line.substring(prefix.length()))) {
        return line.substring(prefix.length());
      }
      seen.add(line);
    }
  }

  private static int size(String view) {
    return view.substring(view.indexOf(' ') + 1).split(",").length;
  }

  @Test
  void theSurvivorDropsAKilledJvm() throws Exception {
    BlockingQueue<String> a = start("killed", "25520", "1");
    String endpoint = await(a, JGroupsNode.ENDPOINT, x -> true, START);
    BlockingQueue<String> b = start("killed", "25521", "2", endpoint);
    await(b, JGroupsNode.VIEW, v -> size(v) == 2, START);
    await(a, JGroupsNode.VIEW, v -> size(v) == 2, START);

    long start = System.nanoTime();
    children.get(1).destroyForcibly();
    // the default test timings: a closed socket is suspected at once, then a 200 ms second look;
    // the bound is the pause (1 s) plus a margin for a loaded machine
    Duration bound = Contexts.PAUSE.plusSeconds(9);
    String view = await(a, JGroupsNode.VIEW, v -> size(v) == 1, bound);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(view.endsWith("troupe://killed@127.0.0.1:25520#1"), "only the survivor is left: " + view);
    System.out.println("a killed JVM was dropped from the survivor's view after " + took.toMillis() + " ms");
  }
}
