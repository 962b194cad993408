package dev.troupe.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.AbstractActorWithStash;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.TestKit;
import dev.troupe.actor.spi.DescribedCreator;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Local trace propagation: spans, their parents and attributes, in the SDK's in-memory exporter. */
class TroupeTracingTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider tracerProvider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetrySdk otel =
      OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
  private final Tracer tracer = otel.getTracer("test");
  private ActorSystem system;
  private TestKit kit;

  @BeforeEach
  void start() {
    system = ActorSystem.create("traced", ConfigFactory.parseString("troupe.log-dead-letters = 0"));
    kit = new TestKit(system);
  }

  @AfterEach
  void stop() throws Exception {
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    tracerProvider.close();
  }

  /**
   * Answers every message with the span context current while it handles it, after starting a span
   * of its own code ("inner") under it; forwards a Relay's message to its target.
   */
  static final class Reporter extends AbstractActor {
    private final Tracer tracer;

    Reporter(Tracer tracer) {
      this.tracer = tracer;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Relay.class, r -> r.to().forward(r.message(), getContext()))
          .matchAny(m -> {
            SpanContext current = Span.current().getSpanContext();
            Span inner = tracer.spanBuilder("inner").startSpan();
            inner.end();
            getSender().tell(current, getSelf());
          })
          .build();
    }
  }

  /** Asks the receiver to forward {@code message} to {@code to}. */
  record Relay(ActorRef to, Object message) {}

  private ActorRef reporter(String name) {
    return system.actorOf(Props.create(Reporter.class, () -> new Reporter(tracer)), name);
  }

  /** Sends {@code message} from the test's thread while a span "client" is current. */
  private Span tellUnderASpan(ActorRef to, Object message, ActorRef sender) {
    Span client = tracer.spanBuilder("client").startSpan();
    try (Scope ignored = client.makeCurrent()) {
      to.tell(message, sender);
    } finally {
      client.end();
    }
    return client;
  }

  /**
   * Waits until spans of these names (a name as often as it is given) have ended; others may end
   * too, in any order (a reply to the test actor, sent under a span, is a span of its own).
   */
  private List<SpanData> awaitSpans(String... names) {
    Map<String, Long> wanted =
        Arrays.stream(names).collect(Collectors.groupingBy(n -> n, Collectors.counting()));
    kit.awaitCond(WAIT, Duration.ofMillis(10), "spans " + wanted + " ended", () -> {
      Map<String, Long> ended = exporter.getFinishedSpanItems().stream()
          .collect(Collectors.groupingBy(SpanData::getName, Collectors.counting()));
      return wanted.entrySet().stream()
          .allMatch(w -> ended.getOrDefault(w.getKey(), 0L) >= w.getValue());
    });
    return exporter.getFinishedSpanItems();
  }

  private static SpanData named(List<SpanData> spans, String name) {
    List<SpanData> found = spans.stream().filter(s -> s.getName().equals(name)).toList();
    assertEquals(1, found.size(), "spans named " + name + " in " + names(spans));
    return found.get(0);
  }

  private static List<String> names(List<SpanData> spans) {
    return spans.stream().map(SpanData::getName).collect(Collectors.toList());
  }

  @Test
  void aTellUnderASpanIsHandledInAChildSpanThatIsCurrentInTheActor() {
    TroupeTracing.install(system, otel);
    ActorRef r = reporter("r");
    Span client = tellUnderASpan(r, "hello", kit.getTestActor());
    SpanContext seen = kit.expectMsgClass(WAIT, SpanContext.class);
    List<SpanData> spans = awaitSpans("client", "process Reporter", "inner");

    SpanData process = named(spans, "process Reporter");
    assertEquals(client.getSpanContext().getTraceId(), process.getTraceId(), "one trace");
    assertEquals(client.getSpanContext().getSpanId(), process.getParentSpanId(),
        "the handling's parent is the sender's span");
    assertEquals(SpanKind.CONSUMER, process.getKind(), "kind of the process span");
    assertEquals(process.getSpanContext(), seen, "the span current in the actor is its process span");
    assertEquals(process.getSpanId(), named(spans, "inner").getParentSpanId(),
        "a span the actor's code starts nests under the process span");
    var a = process.getAttributes();
    assertEquals("troupe", a.get(TroupeTracing.MESSAGING_SYSTEM), "messaging.system");
    assertEquals("process", a.get(TroupeTracing.MESSAGING_OPERATION_NAME), "messaging.operation.name");
    assertEquals("process", a.get(TroupeTracing.MESSAGING_OPERATION_TYPE), "messaging.operation.type");
    assertEquals("/user/r", a.get(TroupeTracing.MESSAGING_DESTINATION_NAME), "the actor's path");
    assertEquals(Reporter.class.getName(), a.get(TroupeTracing.ACTOR_CLASS), "the actor's class");
    assertEquals(String.class.getName(), a.get(TroupeTracing.MESSAGE_CLASS), "the message's class");
    assertEquals("traced", a.get(TroupeTracing.ACTOR_SYSTEM), "the system's name");
  }

  /** Makes reporters that stand for another class, as a typed actor stands for its behaviour's. */
  private final class StandIn implements DescribedCreator<Reporter> {
    @Override
    public Reporter create() {
      return new Reporter(tracer);
    }

    @Override
    public String describedClassName() {
      return "com.example.Billing$Invoice";
    }
  }

  @Test
  void anActorWhoseCreatorDescribesAnotherClassIsTracedUnderThatClass() {
    TroupeTracing.install(system, otel);
    ActorRef r = system.actorOf(Props.create(Reporter.class, new StandIn()), "invoice");
    tellUnderASpan(r, "hello", kit.getTestActor());
    kit.expectMsgClass(WAIT, SpanContext.class);
    SpanData process = named(awaitSpans("client", "process Invoice", "inner"), "process Invoice");
    assertEquals("com.example.Billing$Invoice", process.getAttributes().get(TroupeTracing.ACTOR_CLASS),
        "the class the creator describes");
  }

  @Test
  void aForwardAndAnAskContinueTheTraceAcrossActors() throws Exception {
    TroupeTracing.install(system, otel);
    ActorRef first = reporter("first");
    ActorRef second = reporter("second");
    Span client = tracer.spanBuilder("client").startSpan();
    Object answer;
    try (Scope ignored = client.makeCurrent()) {
      answer = Patterns.ask(first, new Relay(second, "via first"), WAIT)
          .toCompletableFuture()
          .get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      client.end();
    }
    assertTrue(answer instanceof SpanContext, "second answered the asker: " + answer);
    List<SpanData> spans =
        awaitSpans("client", "process Reporter", "process Reporter", "inner"); // second's inner
    List<SpanData> processes =
        spans.stream().filter(s -> s.getName().equals("process Reporter")).toList();
    assertEquals(2, processes.size(), "process spans: " + names(spans));
    SpanData atFirst = processes.stream()
        .filter(s -> "/user/first".equals(s.getAttributes().get(TroupeTracing.MESSAGING_DESTINATION_NAME)))
        .findFirst().orElseThrow();
    SpanData atSecond = processes.stream()
        .filter(s -> "/user/second".equals(s.getAttributes().get(TroupeTracing.MESSAGING_DESTINATION_NAME)))
        .findFirst().orElseThrow();
    assertEquals(client.getSpanContext().getSpanId(), atFirst.getParentSpanId(),
        "the ask's handling is a child of the asker's span");
    assertEquals(atFirst.getSpanId(), atSecond.getParentSpanId(),
        "the forwarded message's handling is a child of the forwarding actor's span");
    for (SpanData s : spans) {
      assertEquals(client.getSpanContext().getTraceId(), s.getTraceId(), "one trace: " + s.getName());
    }
    assertEquals(answer, atSecond.getSpanContext(), "the span current at second");
  }

  @Test
  void aMessageSentWithoutACurrentSpanMakesNoSpan() {
    TroupeTracing.install(system, otel);
    ActorRef r = reporter("r");
    r.tell("untraced", kit.getTestActor());
    SpanContext seen = kit.expectMsgClass(WAIT, SpanContext.class);
    assertFalse(seen.isValid(), "no span is current for an untraced message");
    // The actor handles its messages in order: once the traced one's span is out, the untraced one
    // (and the inner span its handling started, a root span of its own) is long done.
    Span client = tellUnderASpan(r, "traced", kit.getTestActor());
    kit.expectMsgClass(WAIT, SpanContext.class);
    // the untraced handling's root "inner"; client; the traced one's process span and its inner
    List<SpanData> spans = awaitSpans("inner", "client", "process Reporter", "inner");
    List<SpanData> processes =
        spans.stream().filter(s -> s.getName().equals("process Reporter")).toList();
    assertEquals(1, processes.size(), "process spans: " + names(spans));
    assertEquals(client.getSpanContext().getSpanId(), processes.get(0).getParentSpanId(),
        "the one process span is the traced message's");
  }

  @Test
  void aContextWithoutASpanOrAClosedScopeMakesNoSpan() {
    TroupeTracing.install(system, otel);
    ActorRef r = reporter("r");
    // Only baggage current: a context that is not the root but holds no span to continue.
    try (Scope ignored = Baggage.builder().put("k", "v").build().makeCurrent()) {
      r.tell("baggage only", kit.getTestActor());
    }
    assertFalse(kit.expectMsgClass(WAIT, SpanContext.class).isValid(), "a span for a baggage-only send");
    // A span was current on this thread and its scope closed: the next send is untraced again.
    tellUnderASpan(r, "traced", kit.getTestActor());
    assertTrue(kit.expectMsgClass(WAIT, SpanContext.class).isValid(), "the traced send's span");
    r.tell("after the scope", kit.getTestActor());
    assertFalse(kit.expectMsgClass(WAIT, SpanContext.class).isValid(), "a span after the scope closed");
    List<SpanData> spans = awaitSpans("client", "process Reporter", "inner", "inner", "inner");
    assertEquals(1, spans.stream().filter(s -> s.getName().equals("process Reporter")).count(),
        "process spans: " + names(spans));
  }

  @Test
  void withoutInstallationNoContextTravelsAndNoSpanIsMade() {
    ActorRef r = reporter("r");
    tellUnderASpan(r, "hello", kit.getTestActor());
    SpanContext seen = kit.expectMsgClass(WAIT, SpanContext.class);
    assertFalse(seen.isValid(), "a span current in the actor without tracing installed: " + seen);
    List<SpanData> spans = awaitSpans("client", "inner"); // "inner" a root span
    assertEquals(List.of(), spans.stream().filter(s -> s.getName().startsWith("process")).toList(),
        "process spans without tracing installed");
  }

  @Test
  void uninstallStopsTracingAndASecondInstallationIsRefused() {
    TroupeTracing tracing = TroupeTracing.install(system, otel);
    IllegalStateException twice =
        assertThrows(IllegalStateException.class, () -> TroupeTracing.install(system, otel));
    assertTrue(twice.getMessage().contains("already installed"), twice.getMessage());
    tracing.uninstall();
    ActorRef r = reporter("r");
    tellUnderASpan(r, "hello", kit.getTestActor());
    assertFalse(kit.expectMsgClass(WAIT, SpanContext.class).isValid(), "traced after uninstall");
    TroupeTracing again = TroupeTracing.install(system, otel);
    again.uninstall();
  }

  /** Fails on every message. */
  static final class Failing extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchAny(m -> {
            throw new IllegalStateException("failing (expected by the test)");
          })
          .build();
    }
  }

  @Test
  void theSpanOfAMessageThatMadeTheActorFailHasAnErrorStatus() {
    TroupeTracing.install(system, otel);
    ActorRef failing = system.actorOf(Props.create(Failing.class, Failing::new), "failing");
    ActorRef r = reporter("r");
    tellUnderASpan(failing, "boom", ActorRef.noSender());
    tellUnderASpan(r, "fine", kit.getTestActor());
    kit.expectMsgClass(WAIT, SpanContext.class);
    List<SpanData> spans =
        awaitSpans("client", "client", "process Failing", "process Reporter", "inner");
    assertEquals(StatusCode.ERROR, named(spans, "process Failing").getStatus().getStatusCode(),
        "status of the failed handling's span");
    assertEquals(StatusCode.UNSET, named(spans, "process Reporter").getStatus().getStatusCode(),
        "status of a handling that did not fail");
  }

  /** Stashes everything until "open", then reports as Reporter does. */
  static final class Stasher extends AbstractActorWithStash {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("open", m -> {
            getContext().become(receiveBuilder()
                .matchAny(x -> getSender().tell(Span.current().getSpanContext(), getSelf()))
                .build());
            unstashAll();
          })
          .matchAny(m -> stash())
          .build();
    }
  }

  @Test
  void aStashedMessageKeepsItsTraceUntilItIsHandled() {
    TroupeTracing.install(system, otel);
    ActorRef s = system.actorOf(Props.create(Stasher.class, Stasher::new), "stasher");
    Span client = tellUnderASpan(s, "later", kit.getTestActor());
    s.tell("open", ActorRef.noSender()); // untraced
    SpanContext seen = kit.expectMsgClass(WAIT, SpanContext.class);
    assertTrue(seen.isValid(), "a span is current for the unstashed traced message");
    assertEquals(client.getSpanContext().getTraceId(), seen.getTraceId(), "the stashed message's trace");
    // client, the span of the handling that stashed it, the span of the handling after unstashing
    List<SpanData> spans = awaitSpans("client", "process Stasher", "process Stasher");
    List<SpanData> processes =
        spans.stream().filter(x -> x.getName().equals("process Stasher")).toList();
    assertEquals(2, processes.size(), "process spans: " + names(spans));
    for (SpanData p : processes) {
      assertEquals(client.getSpanContext().getSpanId(), p.getParentSpanId(),
          "both handlings of the message (stash, then unstash) are children of the sender's span");
    }
  }
}
