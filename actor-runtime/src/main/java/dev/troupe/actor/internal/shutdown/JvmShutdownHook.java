package dev.troupe.actor.internal.shutdown;

import dev.troupe.actor.CoordinatedShutdown;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM shutdown hook for every system with {@code run-by-jvm-shutdown-hook = on}: the systems
 * register when they start and leave when they terminate, so thousands of short-lived systems (in
 * tests) leave nothing behind in the JVM's hook table. When the JVM shuts down the hook runs the
 * coordinated shutdown of each live system and waits for all of them, at most the largest sum of
 * phase timeouts.
 *
 * <p>The wait for one system ends early once its threads have stopped, before its termination
 * callbacks run: a callback that calls {@code System.exit} (which blocks while hooks run) cannot
 * keep the JVM waiting.
 */
public final class JvmShutdownHook {
  private static final Logger LOG = LoggerFactory.getLogger(JvmShutdownHook.class);
  private static final Set<CoordinatedShutdownImpl> LIVE = ConcurrentHashMap.newKeySet();
  private static boolean installed; // guarded by the class
  private static boolean running; // guarded by the class: the JVM is shutting down

  /** How long the hook waits for a system's termination callbacks once its threads are down. */
  static final long CALLBACKS_GRACE_MILLIS = 1000;

  private JvmShutdownHook() {}

  /** @return whether it is registered; false once the JVM is shutting down */
  static boolean register(CoordinatedShutdownImpl cs) {
    synchronized (JvmShutdownHook.class) {
      if (running) {
        return false;
      }
      if (!installed) {
        try {
          Runtime.getRuntime()
              .addShutdownHook(new Thread(JvmShutdownHook::run, "troupe-coordinated-shutdown"));
        } catch (IllegalStateException shuttingDown) {
          running = true;
          return false;
        }
        installed = true;
      }
      LIVE.add(cs);
      return true;
    }
  }

  static void unregister(CoordinatedShutdownImpl cs) {
    LIVE.remove(cs);
  }

  /** @return how many systems the hook would shut down now; for tests that check for leaks */
  public static int registeredSystems() {
    return LIVE.size();
  }

  private static void run() {
    synchronized (JvmShutdownHook.class) {
      running = true;
    }
    List<CoordinatedShutdownImpl> systems = List.copyOf(LIVE);
    Duration bound = Duration.ZERO;
    for (CoordinatedShutdownImpl cs : systems) {
      cs.runAll(CoordinatedShutdown.jvmExitReason());
      if (cs.totalTimeout().compareTo(bound) > 0) {
        bound = cs.totalTimeout();
      }
    }
    long deadline = System.nanoTime() + bound.toNanos();
    for (CoordinatedShutdownImpl cs : systems) {
      CompletableFuture<?> over = cs.overForJvmExit();
      try {
        over.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        LOG.warn(
            "coordinated shutdown of actor system {} did not finish within {} ms; the JVM exits anyway",
            cs.systemName(),
            bound.toMillis());
      } catch (ExecutionException e) {
        LOG.warn("coordinated shutdown of actor system {} failed", cs.systemName(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      // The system's threads are down; its termination callbacks run next, on the thread that
      // stopped it. Give them a moment to finish before the JVM exits, but no more: a callback that
      // calls System.exit waits for this very hook to return.
      try {
        cs.callbacksRun().get(CALLBACKS_GRACE_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        LOG.debug("the termination callbacks of actor system {} did not finish within {} ms", cs.systemName(), CALLBACKS_GRACE_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
