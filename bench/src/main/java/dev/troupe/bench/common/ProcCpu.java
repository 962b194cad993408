package dev.troupe.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of whole processes from {@code /proc/<pid>/stat} (user and system time, every thread),
 * for counters of CPU per unit of work across JVMs. Linux only; elsewhere every reading is -1.
 */
public final class ProcCpu {
  /** Clock ticks per second of {@code utime}/{@code stime}: 100 on every Linux this runs on (USER_HZ). */
  private static final long TICKS_PER_SECOND = 100;

  private ProcCpu() {}

  /**
   * @param pid a process id ({@link ProcessHandle#pid()})
   * @return its user + system CPU time so far in nanoseconds (10 ms resolution), or -1 when it
   *     cannot be read
   */
  public static long nanos(long pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, the fields after the last ')' do not
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // after ')': state is field 3 of proc(5), so utime (14) and stime (15) are at 11 and 12 here
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }
}
