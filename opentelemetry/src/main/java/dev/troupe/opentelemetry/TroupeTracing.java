package dev.troupe.opentelemetry;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.internal.ActorSystemImpl;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import java.util.Objects;

/**
 * OpenTelemetry tracing of an actor system's messages: with it installed, a {@code tell}/{@code
 * ask}/{@code forward} made while a span is current carries that trace context to the receiving
 * actor, on this node or on another one (install it on both), and the actor's handling of the
 * message is a span (kind {@code CONSUMER}, the messaging conventions' {@code process} operation)
 * whose parent is the sender's span and which is current while the actor runs, so that spans the
 * actor's code starts nest under it.
 *
 * <pre>{@code
 * TroupeTracing tracing = TroupeTracing.install(system, openTelemetry); // the application's SDK
 * }</pre>
 *
 * <p>Sampling and export are the SDK's. A message sent while no span
 * is current travels as before and makes no span. Without installation the runtime adds nothing
 * per message but one null check on the sending side. Across remoting the context crosses as W3C
 * trace context in a field of the message's frame, only when the message is traced (see {@code
 * docs/observability.md}); a node without tracing installed delivers such a message untraced.
 *
 * <p>The span's attributes are listed in {@code docs/observability.md}: {@link #MESSAGING_SYSTEM},
 * {@link #MESSAGING_OPERATION_NAME}, {@link #MESSAGING_OPERATION_TYPE}, {@link
 * #MESSAGING_DESTINATION_NAME} (the actor's path), {@link #ACTOR_CLASS}, {@link #MESSAGE_CLASS} and
 * {@link #ACTOR_SYSTEM}.
 */
public final class TroupeTracing {
  /** The instrumentation scope of Troupe's spans. */
  public static final String INSTRUMENTATION_SCOPE = "dev.troupe.opentelemetry";

  /** {@code messaging.system}: always {@code "troupe"}. */
  public static final AttributeKey<String> MESSAGING_SYSTEM =
      AttributeKey.stringKey("messaging.system");

  /** {@code messaging.operation.name}: always {@code "process"}. */
  public static final AttributeKey<String> MESSAGING_OPERATION_NAME =
      AttributeKey.stringKey("messaging.operation.name");

  /** {@code messaging.operation.type}: always {@code "process"}. */
  public static final AttributeKey<String> MESSAGING_OPERATION_TYPE =
      AttributeKey.stringKey("messaging.operation.type");

  /** {@code messaging.destination.name}: the receiving actor's path, without address. */
  public static final AttributeKey<String> MESSAGING_DESTINATION_NAME =
      AttributeKey.stringKey("messaging.destination.name");

  /** {@code troupe.actor.class}: the receiving actor's class (binary name). */
  public static final AttributeKey<String> ACTOR_CLASS = AttributeKey.stringKey("troupe.actor.class");

  /** {@code troupe.message.class}: the message's class (binary name). */
  public static final AttributeKey<String> MESSAGE_CLASS =
      AttributeKey.stringKey("troupe.message.class");

  /** {@code troupe.actor.system}: the name of the receiving actor's system. */
  public static final AttributeKey<String> ACTOR_SYSTEM =
      AttributeKey.stringKey("troupe.actor.system");

  private final ActorSystemImpl system;
  private final TracingEnvelopes envelopes;

  private TroupeTracing(ActorSystemImpl system, TracingEnvelopes envelopes) {
    this.system = system;
    this.envelopes = envelopes;
  }

  /**
   * Starts tracing {@code system}'s messages with {@code openTelemetry}'s tracer: local ones, and,
   * with remoting, those it sends to and receives from other nodes.
   *
   * @param system a Troupe actor system
   * @param openTelemetry the application's OpenTelemetry (e.g. its SDK)
   * @return the installation, to {@link #uninstall()} it
   * @throws IllegalArgumentException if {@code system} is not one of Troupe's runtime
   * @throws IllegalStateException if tracing is already installed on {@code system}
   */
  public static TroupeTracing install(ActorSystem system, OpenTelemetry openTelemetry) {
    Objects.requireNonNull(system, "system");
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    if (!(system instanceof ActorSystemImpl impl)) {
      throw new IllegalArgumentException(
          "TroupeTracing traces the Troupe runtime's messages; " + system + " is a "
              + system.getClass().getName());
    }
    TracingEnvelopes envelopes =
        new TracingEnvelopes(openTelemetry.getTracer(INSTRUMENTATION_SCOPE), system.name());
    if (!impl.installEnvelopeFactory(envelopes)) {
      throw new IllegalStateException(
          "tracing (or another envelope factory) is already installed on system ["
              + system.name() + "]; uninstall it first");
    }
    return new TroupeTracing(impl, envelopes);
  }

  /**
   * Stops tracing: later sends travel untraced. Messages already queued with a trace context still
   * make their span when handled. Idempotent.
   */
  public void uninstall() {
    system.removeEnvelopeFactory(envelopes);
  }
}
