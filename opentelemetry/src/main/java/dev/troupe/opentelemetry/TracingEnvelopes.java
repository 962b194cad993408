package dev.troupe.opentelemetry;

import dev.troupe.actor.ActorContext;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.EnvelopeFactory;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;

/**
 * The envelope factory {@link TroupeTracing} installs: a send made while a valid span context is
 * current gets a {@link TracedEnvelope} holding that context; any other send a plain envelope.
 * Its state is in final fields (the runtime reads the factory with an opaque load).
 *
 * <p>Installed, this factory is on the path of every local send, and most sends happen with no
 * context current (inside actors handling untraced messages). That case is kept to one read of the
 * context storage's thread-local: {@link #envelope} is small enough for the JIT to inline into
 * every send whatever its profile, and the rest (is the context the root? does it hold a valid
 * span?) is out of line in {@link #contextual}. {@link TracedEnvelope} is only reached through its
 * own factory method, so the class is not loaded until a traced send happens: until then the
 * runtime's {@code Envelope.deliverTo} keeps a single implementation and the receiving side's
 * code is the same as without tracing.
 */
final class TracingEnvelopes implements EnvelopeFactory {
  private static final String PROCESS = "process";
  private static final String TROUPE = "troupe";

  private final Tracer tracer;
  private final String systemName;
  // The JVM's context storage (fixed once OpenTelemetry's context is first used) and its root.
  private final ContextStorage storage;
  private final Context root;

  TracingEnvelopes(Tracer tracer, String systemName) {
    this.tracer = tracer;
    this.systemName = systemName;
    this.storage = ContextStorage.get();
    this.root = storage.root();
  }

  @Override
  public Envelope envelope(Object message, ActorRef sender, ActorRef recipient) {
    // The storage answers null while nothing was ever made current on this thread, or since the
    // last scope closed: the usual case, a plain envelope after one thread-local read.
    // (35 bytes of bytecode, the JIT's MaxInlineSize: inlined into a send even before it is hot.)
    Context current = storage.current();
    if (current == null) {
      return new Envelope(message, sender);
    }
    return contextual(current, message, sender);
  }

  /**
   * The envelope of a send made while some context is current: traced when that context holds a
   * valid span context, plain when it is the root or carries only other entries (baggage).
   */
  private Envelope contextual(Context current, Object message, ActorRef sender) {
    if (current == root || !Span.fromContext(current).getSpanContext().isValid()) {
      return new Envelope(message, sender);
    }
    return TracedEnvelope.of(message, sender, current, this);
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
