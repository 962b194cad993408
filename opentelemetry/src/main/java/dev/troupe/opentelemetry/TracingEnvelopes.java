package dev.troupe.opentelemetry;

import dev.troupe.actor.ActorContext;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.EnvelopeFactory;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * The envelope factory {@link TroupeTracing} installs: a send made while a valid span context is
 * current gets a {@link TracedEnvelope} holding that context; any other send a plain envelope.
 * Its state is in final fields (the runtime reads the factory with an opaque load).
 */
final class TracingEnvelopes implements EnvelopeFactory {
  private static final String PROCESS = "process";
  private static final String TROUPE = "troupe";
  private static final Context ROOT = Context.root();

  private final Tracer tracer;
  private final String systemName;

  TracingEnvelopes(Tracer tracer, String systemName) {
    this.tracer = tracer;
    this.systemName = systemName;
  }

  @Override
  public Envelope envelope(Object message, ActorRef sender, ActorRef recipient) {
    Context context = Context.current();
    // The root context (nothing current: the usual case outside a traced handling) is told by
    // identity; any other context without a valid span (only baggage) has nothing to continue.
    if (context == ROOT || !Span.fromContext(context).getSpanContext().isValid()) {
      return new Envelope(message, sender);
    }
    return new TracedEnvelope(message, sender, context, this);
  }

  /**
   * Starts the span of an actor's handling of a message (the actor's thread).
   *
   * @param parent the sender's context
   * @param actor the receiving actor's context
   * @param message the message
   * @return the started span
   */
  Span startProcess(Context parent, ActorContext actor, Object message) {
    Class<?> actorClass = actor.getProps().actorClass();
    String simple = actorClass.getSimpleName();
    return tracer
        .spanBuilder(PROCESS + " " + (simple.isEmpty() ? actorClass.getName() : simple))
        .setParent(parent)
        .setSpanKind(SpanKind.CONSUMER)
        .setAttribute(TroupeTracing.MESSAGING_SYSTEM, TROUPE)
        .setAttribute(TroupeTracing.MESSAGING_OPERATION_NAME, PROCESS)
        .setAttribute(TroupeTracing.MESSAGING_OPERATION_TYPE, PROCESS)
        .setAttribute(
            TroupeTracing.MESSAGING_DESTINATION_NAME,
            actor.getSelf().path().toStringWithoutAddress())
        .setAttribute(TroupeTracing.ACTOR_CLASS, actorClass.getName())
        .setAttribute(TroupeTracing.MESSAGE_CLASS, message.getClass().getName())
        .setAttribute(TroupeTracing.ACTOR_SYSTEM, systemName)
        .startSpan();
  }
}
