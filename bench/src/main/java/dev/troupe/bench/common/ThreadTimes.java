package dev.troupe.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Per-thread CPU time and run count of this JVM, from Linux's {@code /proc/self/task/<tid>/schedstat}
 * (nanoseconds on a CPU, nanoseconds waiting for one, times scheduled onto a CPU) and {@code comm}
 * (the native thread name: HotSpot sets it to the Java name, cut to 15 characters). Unlike
 * {@code ThreadMXBean} this covers the JVM's own threads (GC, JIT, VM), and the run count says how
 * often a thread woke up, however little it did each time.
 */
public final class ThreadTimes {
  private static final Path TASKS = Path.of("/proc/self/task");

  private ThreadTimes() {}

  /** One thread at one moment. */
  public record Sample(String name, long cpuNanos, long runs) {}

  /** One thread (native id {@code tid}) over a window: CPU and runs between two snapshots. */
  public record Delta(int tid, String name, long cpuNanos, long runs) {}

  /** @return whether {@code /proc/self/task} can be read (Linux) */
  public static boolean available() {
    return Files.isDirectory(TASKS);
  }

  /**
   * @return every live thread by native id; empty where {@code /proc} is not available
   */
  public static Map<Integer, Sample> snapshot() {
    Map<Integer, Sample> out = new HashMap<>();
    if (!available()) {
      return out;
    }
    try (Stream<Path> tasks = Files.list(TASKS)) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String[] stat = Files.readString(task.resolve("schedstat")).trim().split(" ");
          String name = Files.readString(task.resolve("comm")).trim();
          out.put(
              Integer.parseInt(task.getFileName().toString()),
              new Sample(name, Long.parseLong(stat[0]), Long.parseLong(stat[2])));
        } catch (IOException | RuntimeException gone) {
          // the thread ended between the listing and the read: it is not in this snapshot
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + TASKS, e);
    }
    return out;
  }

  /**
   * What each thread did between two snapshots; a thread born in between counts from zero, one
   * that ended in between is missing (its last slice is lost).
   *
   * @param before the earlier snapshot
   * @param after the later snapshot
   * @return one delta per thread alive at the end
   */
  public static List<Delta> between(Map<Integer, Sample> before, Map<Integer, Sample> after) {
    List<Delta> out = new ArrayList<>();
    for (Map.Entry<Integer, Sample> e : after.entrySet()) {
      Sample b = before.get(e.getKey());
      Sample a = e.getValue();
      long cpu = a.cpuNanos() - (b == null ? 0 : b.cpuNanos());
      long runs = a.runs() - (b == null ? 0 : b.runs());
      out.add(new Delta(e.getKey(), a.name(), cpu, runs));
    }
    return out;
  }
}
