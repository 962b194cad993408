package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.EventStream;
import dev.troupe.pattern.AskFailedException;
import dev.troupe.remote.Dropped;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Every message remoting drops: a {@link Dropped} event on the event stream and a rate-limited
 * warning; and when the sender is the temporary reply ref of an ask of this system, that ask fails
 * at once with an {@link AskFailedException} giving the reason (its reply cannot come).
 */
public final class Drops {
  /**
   * A message that remoting sends on its own behalf (no actor sent it): its drop is logged as it
   * describes itself, not as a message "from no sender".
   */
  public interface SelfDescribing {
    /** @return what was dropped, e.g. "the request to deploy ... as ... on ..." */
    String describeForDrop();
  }

  private final EventStream events;
  private final RateLimitedLog log;
  private final BiPredicate<ActorRef, Supplier<? extends Throwable>> failAsk;

  /**
   * @param failAsk fails the ask whose reply ref is its first argument, if it is one of this
   *     system's that still waits ({@link dev.troupe.runtime.spi.LocalActorRefProvider#failAsk})
   */
  public Drops(EventStream events, RateLimitedLog log, BiPredicate<ActorRef, Supplier<? extends Throwable>> failAsk) {
    this.events = events;
    this.log = log;
    this.failAsk = failAsk;
  }

  public void dropped(Object message, String reason, ActorRef sender, ActorRef recipient) {
    events.publish(new Dropped(message, reason, sender, recipient));
    if (message instanceof SelfDescribing m) { // sent by the system itself: say what, not "from null"
      log.warn("dropped {}: {}", m.describeForDrop(), reason);
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

  public void dropped(OutboundEnvelope e, String reason) {
    dropped(e.message(), reason, e.sender(), e.recipient());
  }
}
