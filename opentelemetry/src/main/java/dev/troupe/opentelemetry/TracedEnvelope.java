package dev.troupe.opentelemetry;

import dev.troupe.actor.ActorContext;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.ActorCell;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.MailboxOwner;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * A local message sent while a span was current: the envelope carries the sender's context, and
 * its delivery is the receiving actor's {@code process} span, current while the actor handles the
 * message. The message itself is untouched, so mailboxes (priority, control-aware), the stash and
 * dead letters see what the sender sent.
 */
final class TracedEnvelope extends Envelope {
  private final TracingEnvelopes tracing;
  // Written by the sender before the envelope is published (as the message and sender are);
  // cleared by the actor's thread after delivery, when the envelope stays as the queue's stub.
  private Context context;

  private TracedEnvelope(Object message, ActorRef sender, Context context, TracingEnvelopes tracing) {
    super(message, sender);
    this.context = context;
    this.tracing = tracing;
  }

  /**
   * A traced envelope, typed as the runtime's: callers name this class only here, so it is loaded
   * at the first traced send, not when the factory is (see {@link TracingEnvelopes}).
   *
   * @param message the message
   * @param sender the sender, may be null
   * @param context the sender's context, holding a valid span context
   * @param tracing the factory, which starts the span at delivery
   * @return the envelope
   */
  static Envelope of(Object message, ActorRef sender, Context context, TracingEnvelopes tracing) {
    return new TracedEnvelope(message, sender, context, tracing);
  }

  @Override
  public void deliverTo(MailboxOwner owner) {
    Context parent = context;
    if (parent == null || !(owner instanceof ActorContext actor)) {
      owner.invoke(this);
      return;
    }
    Span span = tracing.startProcess(parent, actor, message());
    try (Scope ignored = parent.with(span).makeCurrent()) {
      owner.invoke(this); // never throws: a failure goes to supervision
      if (owner instanceof ActorCell cell && cell.isFailed()) {
        span.setStatus(StatusCode.ERROR, "the actor failed; its supervisor decides what follows");
      }
    } finally {
      span.end();
      context = null;
    }
  }

  @Override
  public Envelope copy() {
    return context == null
        ? new Envelope(message(), sender())
        : new TracedEnvelope(message(), sender(), context, tracing);
  }
}
