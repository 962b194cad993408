package dev.troupe.bench.common;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Retained-heap measurement: used heap after repeated full collections. */
public final class Heap {
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private Heap() {}

  /**
   * @return used heap bytes after four {@code System.gc()} rounds, the smallest seen
   */
  public static long usedAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      try {
        Thread.sleep(50); // let reference processing and concurrent phases finish
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
