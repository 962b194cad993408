package dev.troupe.executors;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** A {@link ThreadFactory} that names its threads {@code <prefix>-<n>}, n counting from 1. */
public final class NamedThreadFactory implements ThreadFactory {

  private final String prefix;
  private final boolean daemon;
  private final AtomicInteger count = new AtomicInteger();

  /**
   * Creates a factory.
   *
   * @param prefix the thread name prefix, not blank
   * @param daemon whether the threads are daemon threads
   * @throws NullPointerException if {@code prefix} is null
   * @throws IllegalArgumentException if {@code prefix} is blank
   */
  public NamedThreadFactory(String prefix, boolean daemon) {
    if (prefix == null) {
      throw new NullPointerException("prefix must not be null");
    }
    if (prefix.isBlank()) {
      throw new IllegalArgumentException("prefix must not be blank");
    }
    this.prefix = prefix;
    this.daemon = daemon;
  }

  @Override
  public Thread newThread(Runnable r) {
    Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
    t.setDaemon(daemon);
    return t;
  }

  /** @return the thread name prefix */
  public String prefix() {
    return prefix;
  }

  /** @return whether the threads are daemon threads */
  public boolean daemon() {
    return daemon;
  }

  @Override
  public String toString() {
    return "NamedThreadFactory[" + prefix + (daemon ? ", daemon]" : "]");
  }
}
