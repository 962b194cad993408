package dev.troupe.remote.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.EventStream;
import dev.troupe.pattern.AskFailedException;
import dev.troupe.remote.Dropped;
import dev.troupe.remote.internal.DeploymentMessages.DeployRequest;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Every message remoting drops: a {@link Dropped} event on the event stream and a rate-limited
 * warning; and when the sender is the temporary reply ref of an ask of this system, that ask fails
 * at once with an {@link AskFailedException} giving the reason (its reply cannot come).
 */
final class Drops {
  private final EventStream events;
  private final RateLimitedLog log;
  private final BiPredicate<ActorRef, Supplier<? extends Throwable>> failAsk;

  /**
   * @param failAsk fails the ask whose reply ref is its first argument, if it is one of this
   *     system's that still waits ({@link dev.troupe.runtime.spi.LocalActorRefProvider#failAsk})
   */
  Drops(EventStream events, RateLimitedLog log, BiPredicate<ActorRef, Supplier<? extends Throwable>> failAsk) {
    this.events = events;
    this.log = log;
    this.failAsk = failAsk;
  }

  void dropped(Object message, String reason, ActorRef sender, ActorRef recipient) {
    events.publish(new Dropped(message, reason, sender, recipient));
    if (message instanceof DeployRequest r) {
      // sent by the system itself: say who deployed what where, not "from null"
      log.warn(
          "dropped the request to deploy {} as {} (a child of {}) on {}: {}",
          r.className(),
          r.path().toStringWithoutAddress(),
          r.parent().path(),
          r.path().address(),
          reason);
    } else {
      log.warn(
          "dropped message [{}] from {} to {}: {}",
          message == null ? "null" : message.getClass().getName(),
          sender == null ? "no sender" : sender,
          recipient,
          reason);
    }
    if (sender != null) {
      failAsk.test(
          sender,
          () -> new AskFailedException(
              "ask of " + recipient + " (message of type " + (message == null ? "null" : message.getClass().getName())
                  + ") failed: the message was dropped: " + reason));
    }
  }

  void dropped(OutboundEnvelope e, String reason) {
    dropped(e.message(), reason, e.sender(), e.recipient());
  }
}
