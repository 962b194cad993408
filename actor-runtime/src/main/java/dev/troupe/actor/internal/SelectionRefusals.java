package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.DeadLetterReason;

import dev.troupe.actor.internal.config.SelectionSettings;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a selection beyond {@link SelectionSettings}' bounds: its message goes to dead
 * letters (an {@code Identify} is answered with an empty identity, so {@code resolveOne} fails
 * with {@code ActorNotFound} rather than waiting), and a warning names the selection, the reason
 * and the key to raise. A peer may send such selections many times a second, so the warning is
 * rate-limited: the first at once, then at most one per {@value #INTERVAL_SECONDS} s, with the
 * count of those left out. Any thread.
 */
final class SelectionRefusals {
  static final long INTERVAL_SECONDS = 10;
  private static final int MAX_LOGGED_CHARS = 200;

  private final ActorSystemImpl system;
  private final Logger log;
  private final AtomicLong nextLogNanos;
  private final AtomicLong leftOut = new AtomicLong();

  SelectionRefusals(ActorSystemImpl system) {
    this.system = system;
    this.log = LoggerFactory.getLogger("dev.troupe.actor." + system.name());
    this.nextLogNanos = new AtomicLong(System.nanoTime());
  }

  void refused(ActorSelection selection, Object message, ActorRef sender, String reason) {
    system.deadLetters.publish(message, sender, system.deadLetters, DeadLetterReason.NO_SUCH_ACTOR);
    long now = System.nanoTime();
    long next = nextLogNanos.get();
    if (now - next < 0 || !nextLogNanos.compareAndSet(next, now + TimeUnit.SECONDS.toNanos(INTERVAL_SECONDS))) {
      leftOut.incrementAndGet();
      return;
    }
    long others = leftOut.getAndSet(0);
    log.warn(
        "refused the selection {} from {} (message [{}]): {}; nothing was delivered, the message went to dead letters{}",
        abbreviated(selection.pathString()),
        selection.anchor().path(),
        message.getClass().getName(),
        reason,
        others == 0 ? "" : " (" + others + " more selections were refused in the last " + INTERVAL_SECONDS + " s)");
  }

  /** A selection of a peer may be as long as a frame: the log shows its start and its length. */
  static String abbreviated(String path) {
    return path.length() <= MAX_LOGGED_CHARS
        ? path
        : path.substring(0, MAX_LOGGED_CHARS) + "... (" + path.length() + " characters)";
  }
}
