package dev.troupe.remote.soak;

import dev.troupe.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link SoakVictim} JVM as {@link RemoteSoakTest} sees it: started under {@code bash -c
 * 'ulimit -n N; exec java …'} so that its file descriptors are few, its standard output read on a
 * daemon thread into {@link Status} samples (stamped with this JVM's clock), the lines that report
 * an {@link Error} kept for the summary, and the rest counted and drained.
 */
final class VictimProcess implements AutoCloseable {
  /** One status line of the victim, stamped with {@link System#nanoTime()} on arrival. */
  record Status(long atNanos, long heap, long live, long fds, long threads, long io) {}

  private final Process process;
  private final CompletableFuture<String> address = new CompletableFuture<>();
  private final List<Status> samples = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();
  private final Deque<String> lastLines = new ArrayDeque<>();
  private long otherLines;
  private long errorLines;

  private VictimProcess(Process process) {
    this.process = process;
  }

  /**
   * @param s the settings (heap, fd limit, the victim's configuration)
   * @param freshActors how many {@code /user/fresh-<i>} actors it creates
   * @param gcEverySeconds the seconds between its forced collections
   * @return the started victim, its output being read
   */
  static VictimProcess start(SoakSettings s, int freshActors, long gcEverySeconds) throws IOException {
    List<String> options = new ArrayList<>();
    options.add("-Xmx" + s.victimHeap());
    options.add("-XX:+UseSerialGC");
    options.add("-Dtroupe.actor.provider=remote");
    options.add("-Dtroupe.remote.canonical.hostname=127.0.0.1");
    options.add("-Dtroupe.remote.canonical.port=0");
    for (Map.Entry<String, String> e : s.victimConfig().entrySet()) {
      options.add("-D" + e.getKey() + "=" + e.getValue());
    }
    List<String> java =
        ChildJvm.builder(options, SoakVictim.class, String.valueOf(freshActors), String.valueOf(gcEverySeconds)).command();
    List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -n " + s.victimFdLimit() + " && exec \"$@\"", "soak-victim"));
    command.addAll(java);
    VictimProcess v = new VictimProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    Thread reader = new Thread(v::read, "soak-victim-output");
    reader.setDaemon(true);
    reader.start();
    return v;
  }

  private void read() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith(SoakVictim.STATUS_LINE)) {
          sample(line);
        } else if (!address.isDone() && line.startsWith(SoakVictim.ADDRESS_LINE)) {
          address.complete(line.substring(SoakVictim.ADDRESS_LINE.length()).trim());
        } else {
          other(line);
        }
      }
    } catch (IOException e) {
      other("(reading the victim's output failed: " + e + ")");
    }
    synchronized (this) {
      address.completeExceptionally(new IOException("the victim ended before printing its address:\n" + String.join("\n", lastLines)));
    }
  }

  private synchronized void sample(String line) {
    long[] v = new long[5];
    String[] names = {"heap=", "live=", "fds=", "threads=", "io="};
    for (String field : line.substring(SoakVictim.STATUS_LINE.length()).split(" ")) {
      for (int i = 0; i < names.length; i++) {
        if (field.startsWith(names[i])) {
          v[i] = Long.parseLong(field.substring(names[i].length()));
        }
      }
    }
    samples.add(new Status(System.nanoTime(), v[0], v[1], v[2], v[3], v[4]));
  }

  private synchronized void other(String line) {
    otherLines++;
    if (line.contains("Error")) {
      errorLines++;
      if (errors.size() < 10) {
        errors.add(line);
      }
    }
    lastLines.addLast(line);
    if (lastLines.size() > 20) {
      lastLines.removeFirst();
    }
  }

  /** @return the victim's address, once it printed it */
  String awaitAddress(Duration max) {
    try {
      return address.get(max.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the victim printed no address within " + max);
    } catch (ExecutionException e) {
      throw new AssertionError(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for the victim's address", e);
    }
  }

  /** @return the status samples that arrived between the two {@link System#nanoTime()} stamps */
  synchronized List<Status> samples(long fromNanos, long toNanos) {
    return samples.stream().filter(s -> s.atNanos() >= fromNanos && s.atNanos() <= toNanos).toList();
  }

  /** @return the last status sample, or null */
  synchronized Status last() {
    return samples.isEmpty() ? null : samples.get(samples.size() - 1);
  }

  /** @return up to ten lines of its output that name an {@code Error} (OutOfMemoryError, StackOverflowError, …) */
  synchronized List<String> errors() {
    return List.copyOf(errors);
  }

  /** @return the last lines of its output that were not status lines */
  synchronized List<String> lastLines() {
    return List.copyOf(lastLines);
  }

  /** @return how many lines of its output named an {@code Error} */
  synchronized long errorLines() {
    return errorLines;
  }

  synchronized long otherLines() {
    return otherLines;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() throws InterruptedException {
    try {
      process.getOutputStream().close(); // its cue to terminate
    } catch (IOException ignored) {
      // it is gone already
    }
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
