package dev.troupe.remote.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.EventStream;
import dev.troupe.remote.Dropped;

/** Every message remoting drops: a {@link Dropped} event on the event stream and a rate-limited warning. */
final class Drops {
  private final EventStream events;
  private final RateLimitedLog log;

  Drops(EventStream events, RateLimitedLog log) {
    this.events = events;
    this.log = log;
  }

  void dropped(Object message, String reason, ActorRef sender, ActorRef recipient) {
    events.publish(new Dropped(message, reason, sender, recipient));
    log.warn(
        "dropped message [{}] from {} to {}: {}",
        message == null ? "null" : message.getClass().getName(),
        sender,
        recipient,
        reason);
  }

  void dropped(OutboundEnvelope e, String reason) {
    dropped(e.message(), reason, e.sender(), e.recipient());
  }
}
