package dev.troupe.cluster.internal.core;

import dev.troupe.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One {@link ClusterChildNode} in a child JVM, as the parent sees it: its process and every line it
 * printed, read on a daemon thread (so the child never blocks on a full pipe), with bounded waits
 * for a line. The caller destroys it ({@link #kill()}) when done, also when a test fails.
 */
final class ChildNode {
  private final Process process;
  private final List<String> lines = new ArrayList<>(); // guarded by this
  private boolean ended; // guarded by this

  private ChildNode(Process process) {
    this.process = process;
    Thread reader = new Thread(this::read, "child-node-output-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a node.
   *
   * @param args {@link ClusterChildNode}'s arguments
   */
  static ChildNode start(String... args) throws IOException {
    return start(List.of("-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), args);
  }

  /**
   * Starts a node with these JVM options.
   *
   * @param jvmOptions e.g. {@code -Xmx256m}
   * @param args {@link ClusterChildNode}'s arguments
   */
  static ChildNode start(List<String> jvmOptions, String... args) throws IOException {
    Process p = ChildJvm.builder(jvmOptions, ClusterChildNode.class, args).redirectErrorStream(true).start();
    return new ChildNode(p);
  }

  Process process() {
    return process;
  }

  private void read() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        synchronized (this) {
          lines.add(line);
          notifyAll();
        }
      }
    } catch (IOException e) {
      synchronized (this) {
        lines.add("READ FAILED " + e);
      }
    } finally {
      synchronized (this) {
        ended = true;
        notifyAll();
      }
    }
  }

  /** @return every line so far */
  synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  /**
   * Waits for a line, from index {@code from} on, that starts with {@code prefix} and whose rest
   * matches.
   *
   * @return the index of that line
   * @throws AssertionError with everything the child printed, when none comes within {@code max}
   */
  synchronized int await(int from, String prefix, Predicate<String> matches, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    int i = from;
    while (true) {
      for (; i < lines.size(); i++) {
        String l = lines.get(i);
        if (l.startsWith(prefix) && matches.test(l.substring(prefix.length()))) {
          return i;
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0 || ended) {
        throw new AssertionError("no line '" + prefix + "...' as expected within " + max
            + (ended ? " (the child's output ended)" : "") + "; child " + process.pid() + " printed:\n"
            + String.join("\n", lines) + (ended ? "" : "\nits threads now:\n" + threadDump()));
      }
      try {
        wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for '" + prefix + "'", e);
      }
    }
  }

  /** @return the rest of line {@code i} after {@code prefix} */
  synchronized String rest(int i, String prefix) {
    return lines.get(i).substring(prefix.length());
  }

  /** @return the node's address, once it printed it */
  String address(Duration max) {
    int i = await(0, ClusterChildNode.ADDRESS, x -> true, max);
    return rest(i, ClusterChildNode.ADDRESS).trim();
  }

  /** @return the first index from {@code from} of the event {@code type} about {@code address} */
  int awaitEvent(int from, String type, String address, Duration max) {
    return await(from, ClusterChildNode.EVENT, rest -> {
      String[] f = rest.split(" ");
      return f[1].equals(type) && f[2].equals(address);
    }, max);
  }

  /** @return the wall-clock time of the event line {@code i} */
  synchronized long eventTime(int i) {
    return Long.parseLong(rest(i, ClusterChildNode.EVENT).split(" ")[0]);
  }

  /** @return the member list printed last, or "" */
  synchronized String lastMembers() {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).startsWith(ClusterChildNode.MEMBERS)) {
        return lines.get(i).substring(ClusterChildNode.MEMBERS.length());
      }
    }
    return "";
  }

  /** Kills the process (SIGKILL) and waits, bounded, for it to go. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** @return the child's threads as {@code jstack} prints them (bounded), or why there is none */
  private String threadDump() {
    try {
      Path jstack = ChildJvm.javaOfThisJvm().resolveSibling("jstack");
      Process p = new ProcessBuilder(jstack.toString(), Long.toString(process.pid())).redirectErrorStream(true).start();
      CompletableFuture<byte[]> out =
          CompletableFuture.supplyAsync(() -> {
            try {
              return p.getInputStream().readAllBytes();
            } catch (IOException e) {
              return new byte[0];
            }
          });
      if (!p.waitFor(15, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "(jstack did not answer within 15 s)";
      }
      return new String(out.get(5, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "(no thread dump: " + e + ")";
    }
  }

  /** Sends a signal with the {@code kill} command ({@code STOP}, {@code CONT}); bounded. */
  void signal(String name) throws IOException, InterruptedException {
    Process k = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).redirectErrorStream(true).start();
    if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
      k.destroyForcibly();
      throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
    }
  }

  /** @return whether the {@code kill} command is there to send signals */
  static boolean killCommandAvailable() {
    try {
      Process k = new ProcessBuilder("kill", "-l").redirectErrorStream(true).start();
      return k.waitFor(10, TimeUnit.SECONDS) && k.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
