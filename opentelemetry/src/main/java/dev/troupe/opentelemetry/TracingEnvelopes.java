package dev.troupe.opentelemetry;

import dev.troupe.actor.ActorContext;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.EnvelopeFactory;
import dev.troupe.runtime.spi.TraceCarrier;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.List;

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
 *
 * <p>It is also the system's {@link TraceCarrier}: remoting asks it for the sender's context of
 * every message to another node ({@link #outboundContext}, the same one thread-local read when
 * nothing is current) and hands it the context of every traced message that arrives ({@link
 * #tellWithin}), which it makes current around the local {@code tell}, so that the local send
 * above makes the traced envelope whose span has the remote sender's span as its parent. The
 * context crosses as W3C trace context, written and read by OpenTelemetry's {@link
 * W3CTraceContextPropagator} (whatever propagators the application configured: the wire format
 * is Troupe's, not the application's).
 */
final class TracingEnvelopes implements EnvelopeFactory, TraceCarrier {
  private static final String PROCESS = "process";
  private static final String TROUPE = "troupe";
  private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
  private static final String TRACEPARENT = "traceparent";
  private static final String TRACESTATE = "tracestate";

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

  @Override
  public String outboundContext() {
    Context current = storage.current(); // null: nothing current, the untraced send's whole cost
    if (current == null || current == root || !Span.fromContext(current).getSpanContext().isValid()) {
      return null;
    }
    W3CFields fields = new W3CFields();
    W3C.inject(current, fields, W3CFields.SETTER);
    if (fields.traceparent == null) {
      return null;
    }
    String state = fields.tracestate;
    // the state is optional: one that would not fit the wire's bound is left out, the trace goes on
    return state == null || state.isEmpty() || fields.traceparent.length() + 1 + state.length() > MAX_LENGTH
        ? fields.traceparent
        : fields.traceparent + '\n' + state;
  }

  @Override
  public boolean tellWithin(String context, ActorRef recipient, Object message, ActorRef sender) {
    Context remote = extract(context);
    if (remote == null) {
      recipient.tell(message, sender);
      return false;
    }
    try (Scope ignored = remote.makeCurrent()) {
      recipient.tell(message, sender); // a local send: this factory makes its traced envelope
    }
    return true;
  }

  /**
   * @param context a context as a peer sent it: {@code traceparent}, then maybe a line feed and
   *     {@code tracestate}
   * @return the context holding the remote sender's span context, or null if the {@code
   *     traceparent} is not a valid one (a malformed {@code tracestate} alone is dropped, as the
   *     propagator does)
   */
  private Context extract(String context) {
    W3CFields fields = new W3CFields();
    int newline = context.indexOf('\n');
    fields.traceparent = newline < 0 ? context : context.substring(0, newline);
    fields.tracestate = newline < 0 ? null : context.substring(newline + 1);
    Context extracted;
    try {
      extracted = W3C.extract(root, fields, W3CFields.GETTER);
    } catch (RuntimeException malformed) {
      return null; // the propagator answers an invalid context for what it cannot parse; be sure
    }
    return Span.fromContext(extracted).getSpanContext().isValid() ? extracted : null;
  }

  /** The two W3C fields, as the propagator writes and reads them. */
  private static final class W3CFields {
    static final TextMapSetter<W3CFields> SETTER =
        (fields, key, value) -> {
          if (fields == null) {
            return;
          }
          if (TRACEPARENT.equals(key)) {
            fields.traceparent = value;
          } else if (TRACESTATE.equals(key)) {
            fields.tracestate = value;
          }
        };

    static final TextMapGetter<W3CFields> GETTER =
        new TextMapGetter<>() {
          @Override
          public Iterable<String> keys(W3CFields fields) {
            return List.of(TRACEPARENT, TRACESTATE);
          }

          @Override
          public String get(W3CFields fields, String key) {
            if (fields == null) {
              return null;
            }
            return TRACEPARENT.equals(key) ? fields.traceparent : TRACESTATE.equals(key) ? fields.tracestate : null;
          }
        };

    String traceparent;
    String tracestate;
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
    String actorClass = actor.getProps().telemetryClassName();
    return tracer
        .spanBuilder(SPAN_NAMES.computeIfAbsent(actorClass, c -> PROCESS + " " + simpleName(c)))
        .setParent(parent)
        .setSpanKind(SpanKind.CONSUMER)
        .setAttribute(TroupeTracing.MESSAGING_SYSTEM, TROUPE)
        .setAttribute(TroupeTracing.MESSAGING_OPERATION_NAME, PROCESS)
        .setAttribute(TroupeTracing.MESSAGING_OPERATION_TYPE, PROCESS)
        .setAttribute(
            TroupeTracing.MESSAGING_DESTINATION_NAME,
            actor.getSelf().path().toStringWithoutAddress())
        .setAttribute(TroupeTracing.ACTOR_CLASS, actorClass)
        .setAttribute(TroupeTracing.MESSAGE_CLASS, message.getClass().getName())
        .setAttribute(TroupeTracing.ACTOR_SYSTEM, systemName)
        .startSpan();
  }

  /** The span name of each actor class seen: one entry per class (a low-cardinality set). */
  private static final java.util.concurrent.ConcurrentHashMap<String, String> SPAN_NAMES =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** {@code a.b.Outer$Inner} gives {@code Inner}; {@code a.b.Outer$1} (anonymous) gives the binary name. */
  private static String simpleName(String binaryName) {
    int dot = binaryName.lastIndexOf('.');
    int dollar = binaryName.lastIndexOf('$');
    String simple = binaryName.substring(Math.max(dot, dollar) + 1);
    return simple.isEmpty() || Character.isDigit(simple.charAt(0)) ? binaryName : simple;
  }
}
