package dev.troupe.opentelemetry;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.io.IOException;

/**
 * A traced node in a JVM of its own, for {@link RemoteTracingTest}: a remote system with tracing
 * installed (an SDK of its own, which exports nowhere) and one actor, {@code /user/reporter}, that
 * answers every message with the span it handles it in ({@link #describe}). Prints {@value
 * #PORT_LINE} and its port, and lives until its standard input closes (its parent went) or it is
 * killed.
 */
public final class TracedNode {
  static final String SYSTEM = "child";
  static final String PORT_LINE = "traced-node-port ";

  private TracedNode() {}

  /** Answers with {@link #describe} of the span current while it handles the message. */
  public static final class SpanReporter extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(describe(), getSelf())).build();
    }
  }

  /**
   * @return "span TRACE-ID SPAN-ID PARENT-SPAN-ID REMOTE-PARENT" of the current span, or "span none"
   *     when it is not a recorded span of the SDK
   */
  static String describe() {
    if (!(Span.current() instanceof ReadableSpan s)) {
      return "span none";
    }
    return "span " + s.getSpanContext().getTraceId() + " " + s.getSpanContext().getSpanId() + " "
        + s.getParentSpanContext().getSpanId() + " " + s.getParentSpanContext().isRemote();
  }

  public static void main(String[] args) throws IOException {
    ActorSystem system =
        ActorSystem.create(SYSTEM, ConfigFactory.parseString(RemoteTracingTest.REMOTE).withFallback(ConfigFactory.load()));
    SdkTracerProvider tracerProvider = SdkTracerProvider.builder().build();
    TroupeTracing.install(system, OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build());
    system.actorOf(Props.create(SpanReporter.class), "reporter");
    System.out.println(PORT_LINE + system.address().port().orElseThrow());
    System.out.flush();
    while (System.in.read() >= 0) {
      // until the parent closes the pipe
    }
    system.terminate();
    tracerProvider.close();
  }
}
