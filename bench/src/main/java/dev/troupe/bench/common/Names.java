package dev.troupe.bench.common;

import java.util.concurrent.atomic.AtomicInteger;

/** Unique actor-system names, so threads can be attributed to their system by name prefix. */
public final class Names {
  private static final AtomicInteger SEQ = new AtomicInteger();

  private Names() {}

  /**
   * @param prefix letters and digits
   * @return {@code prefix + "-" + n}, unique in this JVM
   */
  public static String unique(String prefix) {
    return prefix + "-" + SEQ.incrementAndGet();
  }
}
