package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Deploy;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.pattern.AskFailedException;
import dev.troupe.pattern.AskTimeoutException;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A remote ask whose reply Troupe knows cannot come fails long before its timeout, with the
 * reason: its message was dropped before it left (no serializer, too large), its recipient on the
 * other node is stopped, the deployment of its recipient was refused, or the other node refused
 * the handshake (a path with the wrong system name or host). Every ask here has a 20 s timeout and
 * must fail within {@link #FAST}.
 */
class RemoteAskFailFastTest {
  /** Not bound to any serializer. */
  record Unbound(String text) {}

  /** Replies to every message with itself. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  /** Far longer than any of these asks may take. */
  static final Duration ASK = Duration.ofSeconds(20);

  /** How soon an ask that cannot be answered must fail (a round trip on loopback, on a busy box). */
  static final Duration FAST = Duration.ofSeconds(5);

  @RegisterExtension static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE);

  static ActorSystem a;
  static ActorSystem b;

  @BeforeAll
  static void nodes() {
    a = TROUPE.system();
    b = TROUPE.createSystem(""); // remote deployment is off: it refuses every deployment
    b.actorOf(Props.create(Echo.class), "echo");
  }

  /** @return what {@code stage} failed with, which it must within {@link #FAST} */
  private static Throwable failure(CompletionStage<?> stage, String what) {
    CompletableFuture<?> f = stage.toCompletableFuture();
    try {
      Object v = f.get(FAST.toMillis(), TimeUnit.MILLISECONDS);
      return fail(what + " was answered with " + v);
    } catch (TimeoutException e) {
      return fail(what + " did not fail within " + FAST + " (it waits for its " + ASK + " timeout)");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail("interrupted");
    }
  }

  private static void assertMentions(Throwable t, String text) {
    assertTrue(String.valueOf(t.getMessage()).contains(text), "expected \"" + text + "\" in: " + t);
  }

  @Test
  void anAskWhoseMessageHasNoSerializerFailsAtOnceSayingSo() {
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    Throwable t = failure(Patterns.ask(echo, new Unbound("x"), ASK), "an ask with an unbound message");

    assertInstanceOf(AskFailedException.class, t, t.toString());
    assertMentions(t, "no serializer is bound");
    assertMentions(t, Unbound.class.getName());
  }

  @Test
  void anAskWhoseMessageIsAboveTheFrameSizeFailsAtOnceSayingSo() {
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    Throwable t = failure(Patterns.ask(echo, "x".repeat(300 * 1024), ASK), "an ask with a message of 300 KiB");

    assertInstanceOf(AskFailedException.class, t, t.toString());
    assertMentions(t, "troupe.remote.maximum-frame-size");
  }

  @Test
  void anAskOfAStoppedRemoteActorFailsInARoundTripNamingThePath() {
    ActorRef doomed = b.actorOf(Props.create(Echo.class), "doomed");
    ActorRef there = Nodes.lookup(a, b, "/user/doomed");
    Patterns.gracefulStop(doomed, Nodes.WAIT).toCompletableFuture().join();

    Throwable t = failure(Patterns.ask(there, "anyone?", ASK), "an ask of a stopped remote actor");

    assertInstanceOf(AskFailedException.class, t, t.toString());
    assertMentions(t, "no actor at /user/doomed");
    assertMentions(t, b.address().toString());
  }

  @Test
  void onlyAnAskIsAnsweredForAStoppedRemoteActorNotAnOrdinarySender() {
    ActorRef doomed = b.actorOf(Props.create(Echo.class), "doomed-too");
    ActorRef there = Nodes.lookup(a, b, "/user/doomed-too");
    Patterns.gracefulStop(doomed, Nodes.WAIT).toCompletableFuture().join();
    TestKit probe = new TestKit(a);

    there.tell("anyone?", probe.getRef());
    // an ask after the tell, on the same connection: once it failed, the tell's answer would have come
    failure(Patterns.ask(there, "and now?", ASK), "an ask of a stopped remote actor");

    probe.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void aNodeThatWasNeverDialledIsNotAnsweredForAStoppedActorAndItsAskTimesOut() {
    ActorSystem stranger = TROUPE.createSystem(""); // b has never connected to it
    ActorRef there =
        ((RuntimeSystem) stranger).provider().resolveActorRef(ActorPath.fromString(b.address() + "/user/never-there"));

    Throwable t = failure(Patterns.ask(there, "anyone?", Duration.ofSeconds(1)), "an ask from a node b never dialled");

    assertInstanceOf(AskTimeoutException.class, t, "b must not dial an address only a handshake claimed: " + t);
  }

  @Test
  void anAskOfARemotelyDeployedActorWhoseDeploymentIsRefusedFailsWithTheReason() {
    ActorRef refused = a.actorOf(Props.create(Echo.class).withDeploy(Deploy.remote(b.address())), "refused");

    Throwable t = failure(Patterns.ask(refused, "hello", ASK), "an ask of a refused deployment");

    assertInstanceOf(AskFailedException.class, t, t.toString());
    assertMentions(t, "its deployment was refused");
  }

  @Test
  void aLookupWithTheWrongSystemNameFailsWithThePeersReason() {
    String path = "troupe://wrong-name@127.0.0.1:" + b.address().port().orElseThrow() + "/user/echo";

    Throwable t = failure(a.actorSelection(path).resolveOne(ASK), "a lookup of " + path);

    assertInstanceOf(ActorNotFound.class, t, t.toString());
    assertMentions(t, "refused the handshake");
    assertMentions(t, "but this is '" + b.name() + "'");
  }

  @Test
  void aLookupOfLocalhostForANodeBoundTo127001FailsWithThePeersReason() {
    String path = "troupe://" + b.name() + "@localhost:" + b.address().port().orElseThrow() + "/user/echo";

    Throwable t = failure(a.actorSelection(path).resolveOne(ASK), "a lookup of " + path);

    assertInstanceOf(ActorNotFound.class, t, t.toString());
    assertMentions(t, "refused the handshake");
    assertMentions(t, "but this node is " + b.address());
  }

  @Test
  void everyAskOfAnAddressThePeerRefusesFailsWithThePeersReason() {
    String path = "troupe://other@127.0.0.1:" + b.address().port().orElseThrow() + "/user/echo";

    for (int i = 0; i < 3; i++) { // the first connects; the next come within the hold after a refusal, or connect again
      Throwable t = failure(Patterns.ask(a.actorSelection(path), "hello " + i, ASK), "ask " + i + " of " + path);
      assertInstanceOf(AskFailedException.class, t, t.toString());
      assertMentions(t, "but this is '" + b.name() + "'");
    }
  }

  /** A failure that a live remote actor answers still fails the ask with its own cause. */
  @Test
  void aFailureReplyFromALiveRemoteActorStillFailsTheAskWithItsCause() {
    ActorRef echo = Nodes.lookup(a, b, "/user/echo");

    Throwable t = failure(Patterns.ask(echo, new Status.Failure(new IllegalStateException("boom")), ASK), "an ask answered with a failure");

    assertMentions(t, "boom");
  }
}
