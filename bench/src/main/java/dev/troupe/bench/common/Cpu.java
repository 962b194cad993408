package dev.troupe.bench.common;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU time, for "CPU per unit of work" counters: the threads of one actor system (both frameworks
 * name every thread {@code <system>-...}), and the whole process.
 */
public final class Cpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private Cpu() {}

  /**
   * Sum of the CPU time of the live threads whose name starts with {@code systemName + "-"}.
   * Threads that ended since the last call are not counted (benchmark systems keep theirs).
   *
   * @param systemName the actor system's name
   * @return nanoseconds, or -1 if thread CPU time is not supported
   */
  public static long systemThreadsNanos(String systemName) {
    if (!THREADS.isThreadCpuTimeSupported()) {
      return -1;
    }
    if (!THREADS.isThreadCpuTimeEnabled()) {
      THREADS.setThreadCpuTimeEnabled(true);
    }
    String prefix = systemName + "-";
    long sum = 0;
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith(prefix)) {
        long t = THREADS.getThreadCpuTime(info.getThreadId());
        if (t > 0) {
          sum += t;
        }
      }
    }
    return sum;
  }

  /**
   * @return CPU time of the whole JVM process in nanoseconds, or -1 if unavailable
   */
  public static long processNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return -1;
  }
}
