package dev.troupe.actor.internal;

import dev.troupe.actor.internal.config.RuntimeSettings;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Identify;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.runtime.spi.SystemMessage;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collects undeliverable messages: publishes each as a {@link DeadLetter} on the event stream,
 * counts them, and logs the first {@code troupe.log-dead-letters} of them, then at most one summary
 * per {@code log-dead-letters-suspend-duration}.
 */
final class DeadLettersRef extends MinimalActorRef {
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong nextSummaryNanos = new AtomicLong();
  private final AtomicLong suppressed = new AtomicLong();

  DeadLettersRef(ActorSystemImpl system, ActorPath path) {
    super(system, path);
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to dead letters)");
    }
    if (message instanceof DeadLetter d) {
      publish(d);
    } else {
      publish(message, sender, this);
    }
  }

  /** Publishes a message that could not be delivered to {@code recipient}. */
  void publish(Object message, ActorRef sender, ActorRef recipient) {
    if (message instanceof Identify id) {
      // Whoever asks a dead actor who it is deserves an answer, not silence.
      if (sender != null && sender != this) {
        sender.tell(new ActorIdentity(id.messageId(), Optional.empty()), this);
      }
      return;
    }
    publish(new DeadLetter(message, sender == null ? this : sender, recipient));
  }

  private void publish(DeadLetter d) {
    long n = count.incrementAndGet();
    system.eventStream.publish(d);
    log(n, d);
  }

  private void log(long n, DeadLetter d) {
    RuntimeSettings s = system.settings;
    int limit = s.logDeadLetters();
    if (limit == 0 || (system.isTerminating() && !s.logDeadLettersDuringShutdown())) {
      return;
    }
    if (limit < 0 || n <= limit) {
      system.log.info(
          "message [{}] from {} to {} was not delivered: [{}] dead letters so far",
          d.message().getClass().getName(),
          d.sender(),
          d.recipient(),
          n);
      return;
    }
    long now = System.nanoTime();
    long next = nextSummaryNanos.get();
    if (n == limit + 1L) {
      nextSummaryNanos.compareAndSet(next, now + s.logDeadLettersSuspendDuration().toNanos());
      system.log.info(
          "[{}] dead letters logged; further ones are only counted and summarized every {}",
          limit,
          s.logDeadLettersSuspendDuration());
      return;
    }
    suppressed.incrementAndGet();
    if (now - next >= 0
        && nextSummaryNanos.compareAndSet(next, now + s.logDeadLettersSuspendDuration().toNanos())) {
      system.log.info(
          "[{}] more dead letters were not logged; [{}] in total",
          suppressed.getAndSet(0),
          n);
    }
  }

  long count() {
    return count.get();
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof SystemMessages.Watch w && w.watcher() != this) {
      w.watcher()
          .sendSystemMessage(new SystemMessages.DeathWatchNotification(w.watchee(), false, false));
    }
  }

  @Override
  public boolean isTerminated() {
    return false;
  }
}
