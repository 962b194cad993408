package dev.troupe.actor.internal.ref;

import dev.troupe.actor.EventStream;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.internal.config.RuntimeSettings;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Identify;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.runtime.spi.SystemMessage;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;

/**
 * Collects undeliverable messages: publishes each as a {@link DeadLetter} on the event stream,
 * counts them, and logs the first {@code troupe.log-dead-letters} of them, then at most one summary
 * per {@code log-dead-letters-suspend-duration}. Each is also counted under its {@link
 * DeadLetterReason}, which the caller names (the event does not carry it).
 */
public final class DeadLettersRef extends MinimalActorRef {
  private final RuntimeSystem system;
  private final EventStream eventStream;
  private final RuntimeSettings settings;
  private final BooleanSupplier terminating;
  private final LoggingAdapter log;
  private final AtomicLong count = new AtomicLong();
  // one count per DeadLetterReason, by ordinal; dead letters are off the message path, so an
  // atomic add per dead letter (beside the total's) costs nothing that matters
  private final AtomicLongArray byReason = new AtomicLongArray(DeadLetterReason.values().length);
  private final AtomicLong nextSummaryNanos = new AtomicLong();
  private final AtomicLong suppressed = new AtomicLong();

  /**
   * @param system the system
   * @param path {@code /deadLetters} of its address
   * @param eventStream where each dead letter is published
   * @param settings the system's settings (how many to log, and when)
   * @param terminating whether the system is terminating (logging may stop then)
   * @param log the system's log
   */
  public DeadLettersRef(
      RuntimeSystem system,
      ActorPath path,
      EventStream eventStream,
      RuntimeSettings settings,
      BooleanSupplier terminating,
      LoggingAdapter log) {
    super(path);
    this.system = system;
    this.eventStream = eventStream;
    this.settings = settings;
    this.terminating = terminating;
    this.log = log;
  }

  @Override
  public RuntimeSystem system() {
    return system;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to dead letters)");
    }
    if (message instanceof DeadLetter d) {
      publish(d, DeadLetterReason.EXPLICIT);
    } else {
      publish(message, sender, this, DeadLetterReason.EXPLICIT);
    }
  }

  /**
   * Publishes a message that could not be delivered to {@code recipient}, counted under {@link
   * DeadLetterReason#OTHER}: callers that know why use {@link #publish(Object, ActorRef, ActorRef,
   * DeadLetterReason)}.
   *
   * @param message the message
   * @param sender its sender, or null
   * @param recipient where it could not be delivered
   */
  public void publish(Object message, ActorRef sender, ActorRef recipient) {
    publish(message, sender, recipient, DeadLetterReason.OTHER);
  }

  /**
   * Publishes a message that could not be delivered to {@code recipient}, counted under {@code
   * reason}; an {@code Identify} is answered with an empty identity instead (and not counted).
   *
   * @param message the message
   * @param sender its sender, or null
   * @param recipient where it could not be delivered
   * @param reason why
   */
  public void publish(Object message, ActorRef sender, ActorRef recipient, DeadLetterReason reason) {
    if (message instanceof Identify id) {
      // Whoever asks a dead actor who it is deserves an answer, not silence.
      if (sender != null && sender != this) {
        sender.tell(new ActorIdentity(id.messageId(), Optional.empty()), this);
      }
      return;
    }
    publish(new DeadLetter(message, sender == null ? this : sender, recipient), reason);
  }

  /**
   * Publishes a {@code DeadLetter} through {@code system}'s dead letters with {@code reason} when
   * they are this runtime's (else tells it to them), as telling them the {@code DeadLetter} would:
   * an {@code Identify} is published too, not answered.
   *
   * @param system the system
   * @param message the message
   * @param sender its sender, or null
   * @param recipient where it could not be delivered
   * @param reason why
   */
  public static void publish(
      dev.troupe.actor.ActorSystem system,
      Object message,
      ActorRef sender,
      ActorRef recipient,
      DeadLetterReason reason) {
    ActorRef dl = system.deadLetters();
    DeadLetter letter = new DeadLetter(message, sender == null ? dl : sender, recipient);
    if (dl instanceof DeadLettersRef d) {
      d.publish(letter, reason);
    } else {
      dl.tell(letter, sender);
    }
  }

  private void publish(DeadLetter d, DeadLetterReason reason) {
    byReason.incrementAndGet(reason.ordinal());
    long n = count.incrementAndGet();
    eventStream.publish(d);
    log(n, d);
  }

  private void log(long n, DeadLetter d) {
    RuntimeSettings s = settings;
    int limit = s.logDeadLetters();
    if (limit == 0 || (terminating.getAsBoolean() && !s.logDeadLettersDuringShutdown())) {
      return;
    }
    if (limit < 0 || n <= limit) {
      log.info(
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
      log.info(
          "[{}] dead letters logged; further ones are only counted and summarized every {}",
          limit,
          s.logDeadLettersSuspendDuration());
      return;
    }
    suppressed.incrementAndGet();
    if (now - next >= 0
        && nextSummaryNanos.compareAndSet(next, now + s.logDeadLettersSuspendDuration().toNanos())) {
      log.info(
          "[{}] more dead letters were not logged; [{}] in total",
          suppressed.getAndSet(0),
          n);
    }
  }

  /** @return how many messages went to dead letters so far */
  public long count() {
    return count.get();
  }

  /**
   * @param reason a reason
   * @return how many messages went to dead letters for {@code reason} so far
   */
  public long count(DeadLetterReason reason) {
    return byReason.get(reason.ordinal());
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
