package dev.troupe.actor.tests.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorRefResolver;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.eventstream.EventStream;
import dev.troupe.remote.Dropped;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Typed refs between two nodes on 127.0.0.1: a typed ref in a field of a record that Jackson
 * writes, a typed ref sent as a message itself, asks (AskPattern and an actor's own) whose reply-to
 * ref crosses, a message adapter (which stays local: the message holding one is dropped with a
 * reason that says so; so are a system's event stream and its ignore ref), refs written to text on
 * one node and resolved on the other ({@code ActorRefResolver}), and the serializer-level round
 * trip of both forms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TypedRefsAcrossNodesTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** Every message of this test that Jackson writes. */
  interface Wire {}

  /** The greeter's protocol. */
  interface GreeterCommand extends Wire {}

  /** Asks the greeter to greet, answering to {@code replyTo} (a typed ref of the asker's node). */
  record Greet(String whom, ActorRef<Greeted> replyTo) implements GreeterCommand {}

  /** A message holding a system's event stream, which stays in its system. */
  record Stream(ActorRef<EventStream.Command> stream) implements GreeterCommand {}

  /** The answer, naming the greeter by its own typed ref. */
  record Greeted(String text, ActorRef<GreeterCommand> from) implements Wire, ClientCommand {}

  /** The client's protocol. */
  interface ClientCommand {}

  /** Tells the client to greet through {@code greeter}. */
  record Start(String whom, ActorRef<GreeterCommand> greeter) implements ClientCommand {}

  private ActorSystem<Void> a;
  private ActorSystem<Void> b;
  private ActorRef<GreeterCommand> greeterOnB; // spawned on b
  private ActorRef<GreeterCommand> greeterFromA; // b's greeter as a sees it

  private static Config node() {
    return ConfigFactory.parseString(
        "troupe.actor.provider = remote\n"
            + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
            + "troupe.remote.canonical.port = 0\n"
            + "troupe.serialization.bindings { \"" + Wire.class.getName() + "\" = jackson-cbor }\n");
  }

  private static Behavior<GreeterCommand> greeter() {
    return Behaviors.receive(
        (ctx, msg) -> {
          if (msg instanceof Greet g) {
            g.replyTo().tell(new Greeted("hello " + g.whom(), ctx.getSelf()));
          }
          return Behaviors.same();
        });
  }

  /** Answers a typed ref sent as the message itself with "pong". */
  private static Behavior<ActorRef<String>> pinger() {
    return Behaviors.receiveMessage(
        replyTo -> {
          replyTo.tell("pong");
          return Behaviors.same();
        });
  }

  /** On Start, greets through the greeter with its own ref as reply-to; passes the answer on. */
  private static Behavior<ClientCommand> client(ActorRef<Greeted> answers) {
    return Behaviors.receive(
        (ctx, msg) -> {
          if (msg instanceof Start s) {
            s.greeter().tell(new Greet(s.whom(), ctx.getSelf().narrow()));
          } else if (msg instanceof Greeted g) {
            answers.tell(g);
          }
          return Behaviors.same();
        });
  }

  @BeforeAll
  void startNodes() {
    a = ActorSystem.create(Behaviors.empty(), "typed-a", node());
    b = ActorSystem.create(Behaviors.empty(), "typed-b", node());
    greeterOnB = Adapter.spawn(Adapter.toClassic(b), greeter(), "greeter");
    greeterFromA = lookUp(Adapter.toClassic(b).address() + "/user/greeter");
  }

  @AfterAll
  void stopNodes() throws Exception {
    if (a != null) {
      a.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    if (b != null) {
      b.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /** A classic lookup from a of a path on b, seen as a typed ref. */
  private <T> ActorRef<T> lookUp(String path) {
    return Adapter.toTyped(
        Adapter.toClassic(a).actorSelection(path).resolveOne(WAIT).toCompletableFuture().join());
  }

  @Test
  void aTypedActorGetsTheAnswerToTheTypedRefItSentInARecord() {
    assertNotEquals(
        Adapter.toClassic(a).address(), greeterFromA.path().address(), "the greeter is on the other node");
    TestProbe<Greeted> answers = TestProbe.create(a);
    ActorRef<ClientCommand> client = Adapter.spawn(Adapter.toClassic(a), client(answers.getRef()), "client");

    client.tell(new Start("a", greeterFromA));

    Greeted g = answers.expectMessageClass(Greeted.class, WAIT);
    assertEquals("hello a", g.text(), "the greeter's answer, sent on b to the client's typed ref from a");
    assertEquals(
        greeterOnB.path().toSerializationFormat(),
        g.from().path().toSerializationFormat(),
        "the greeter's own typed ref, read on a as a ref to b's greeter (path and uid)");
    // the ref read on a reaches the greeter again
    g.from().tell(new Greet("again", answers.getRef()));
    assertEquals("hello again", answers.expectMessageClass(Greeted.class, WAIT).text(), "an answer through the ref read on a");
  }

  @Test
  void anAskFromAnotherNodeGetsItsReplyThroughTheTypedReplyToRef() throws Exception {
    Greeted g =
        AskPattern.<GreeterCommand, Greeted>ask(
                greeterFromA, replyTo -> new Greet("asker", replyTo), WAIT, a.scheduler())
            .toCompletableFuture()
            .get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
    assertEquals("hello asker", g.text(), "the reply to an ask across nodes");
  }

  @Test
  void aTypedActorsOwnAskAcrossNodesBringsTheReplyBackAsAMessage() {
    TestProbe<String> out = TestProbe.create(a);
    Adapter.spawn(
        Adapter.toClassic(a),
        Behaviors.<String>setup(
            ctx -> {
              ctx.ask(
                  Greeted.class,
                  greeterFromA,
                  WAIT,
                  replyTo -> new Greet("context", replyTo),
                  (g, failure) -> failure == null ? g.text() : "failed: " + failure);
              return Behaviors.receiveMessage(
                  m -> {
                    out.getRef().tell(m);
                    return Behaviors.same();
                  });
            }),
        "context-asker");
    assertEquals("hello context", out.receiveMessage(WAIT), "the answer to ctx.ask across nodes");
  }

  @Test
  void aTypedRefSentAsTheMessageItselfArrivesAsATypedRef() throws Exception {
    Adapter.spawn(Adapter.toClassic(b), pinger(), "pinger");
    ActorRef<ActorRef<String>> pinger = lookUp(Adapter.toClassic(b).address() + "/user/pinger");
    String answer =
        AskPattern.<ActorRef<String>, String>ask(pinger, replyTo -> replyTo, WAIT, a.scheduler())
            .toCompletableFuture()
            .get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
    assertEquals("pong", answer, "the answer to a typed ref sent across as the message");
  }

  @Test
  void aMessageHoldingAMessageAdapterIsDroppedWithAReasonThatSaysAdaptersStayLocal() {
    TestProbe<Dropped> drops = TestProbe.create(a);
    Adapter.toClassic(a).eventStream().subscribe(Adapter.toClassic(drops.getRef()), Dropped.class);
    Adapter.spawn(
        Adapter.toClassic(a),
        Behaviors.<String>setup(
            ctx -> {
              ActorRef<Greeted> adapter = ctx.messageAdapter(Greeted.class, Greeted::text);
              greeterFromA.tell(new Greet("adapted", adapter));
              return Behaviors.ignore();
            }),
        "adapting");

    Dropped d = drops.expectMessageClass(Dropped.class, WAIT);
    assertInstanceOf(Greet.class, d.message(), "the message dropped");
    assertTrue(d.reason().contains("message adapter"), "the reason names the message adapter: " + d.reason());
  }

  @Test
  void aMessageHoldingTheEventStreamIsDroppedWithAReasonThatSaysItStaysLocal() {
    TestProbe<Dropped> drops = TestProbe.create(a);
    Adapter.toClassic(a).eventStream().subscribe(Adapter.toClassic(drops.getRef()), Dropped.class);
    greeterFromA.tell(new Stream(a.eventStream()));
    Dropped d = drops.expectMessageClass(Dropped.class, WAIT);
    assertInstanceOf(Stream.class, d.message(), "the message dropped");
    assertTrue(d.reason().contains("event stream"), "the reason names the event stream: " + d.reason());
    Adapter.toClassic(a).eventStream().unsubscribe(Adapter.toClassic(drops.getRef()));
  }

  @Test
  void aMessageHoldingTheIgnoreRefIsDroppedWithAReasonThatNamesIt() {
    TestProbe<Dropped> drops = TestProbe.create(a);
    Adapter.toClassic(a).eventStream().subscribe(Adapter.toClassic(drops.getRef()), Dropped.class);
    greeterFromA.tell(new Greet("nobody", a.ignoreRef()));
    Dropped d = drops.expectMessageClass(Dropped.class, WAIT);
    assertInstanceOf(Greet.class, d.message(), "the message dropped");
    assertTrue(d.reason().contains("ignoreRef"), "the reason names the ignore ref: " + d.reason());
    Adapter.toClassic(a).eventStream().unsubscribe(Adapter.toClassic(drops.getRef()));
  }

  @Test
  void aRefWrittenByTheResolverOnOneNodeIsResolvedToTheSameActorOnTheOther() {
    String text = ActorRefResolver.get(b).toSerializationFormat(greeterOnB);
    assertTrue(text.startsWith(Adapter.toClassic(b).address() + "/user/greeter#"), "b's address, path and uid: " + text);
    ActorRef<GreeterCommand> resolved = ActorRefResolver.get(a).resolveActorRef(text);
    assertEquals(greeterFromA, resolved, "the same ref as a lookup from a finds");
    TestProbe<Greeted> answers = TestProbe.create(a);
    resolved.tell(new Greet("resolved", answers.getRef()));
    assertEquals("hello resolved", answers.expectMessageClass(Greeted.class, WAIT).text(), "an answer through the resolved ref");
    // and back: a's probe written on a, resolved on b, reached from b
    ActorRef<Greeted> probeFromB = ActorRefResolver.get(b).resolveActorRef(ActorRefResolver.get(a).toSerializationFormat(answers.getRef()));
    greeterOnB.tell(new Greet("from b", probeFromB));
    assertEquals("hello from b", answers.expectMessageClass(Greeted.class, WAIT).text(), "an answer to the ref resolved on b");
  }

  @Test
  void aRecordHoldingATypedRefAndATypedRefItselfRoundTripThroughTheSerializers() {
    dev.troupe.actor.ActorSystem classic = Adapter.toClassic(a);
    Serialization registry = Serialization.get(classic);
    ActorRef<Greeted> local = Adapter.spawn(classic, Behaviors.<Greeted>ignore(), "round-trip");

    Greet greet = new Greet("x", local);
    Serialized s = registry.serialize(greet);
    Object back = registry.deserialize(s.serializerId(), s.manifest(), s.bytes());
    assertEquals(greet, back, "a record with a typed ref, through " + registry.serializerById(s.serializerId()));
    assertInstanceOf(ActorRef.class, ((Greet) back).replyTo(), "the field read back");

    Serialized r = registry.serialize(local);
    assertEquals(4, r.serializerId(), "a typed ref as a message goes to the ref serializer");
    Object ref = registry.deserialize(r.serializerId(), r.manifest(), r.bytes());
    assertEquals(local, assertInstanceOf(ActorRef.class, ref, "a typed ref read back"), "the typed ref read back");

    Serialized c = registry.serialize(Adapter.toClassic(local));
    assertEquals("", c.manifest(), "a classic ref's manifest is unchanged (empty)");
    assertInstanceOf(
        dev.troupe.actor.ActorRef.class,
        registry.deserialize(c.serializerId(), c.manifest(), c.bytes()),
        "a classic ref is read back as a classic ref");

    SerializationException unknown =
        assertThrows(
            SerializationException.class,
            () -> registry.deserialize(4, "com.example.NoSuchRef", r.bytes()),
            "a ref manifest that no view here knows");
    assertTrue(unknown.getMessage().contains("com.example.NoSuchRef"), unknown.getMessage());
  }
}
