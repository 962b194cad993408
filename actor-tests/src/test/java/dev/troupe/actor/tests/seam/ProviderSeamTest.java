package dev.troupe.actor.tests.seam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Identify;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ref-provider seam's acceptance: two systems in one JVM whose only link is {@link
 * QueueTransport} (paths and plain values through queues) find each other's actors by path, send,
 * reply, and watch, with {@code Terminated(ref, false, true)} when a node is declared gone.
 */
class ProviderSeamTest {
  private static final AtomicInteger PORTS = new AtomicInteger(40000);
  private static final Duration WAIT = Duration.ofSeconds(10);

  private ActorSystem a;
  private ActorSystem b;

  /** Replies to every string with "echo:" + the string. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, s -> getSender().tell("echo:" + s, getSelf()))
          .build();
    }
  }

  /** Passes every string on to a target, keeping the original sender. */
  static final class Relay extends AbstractActor {
    private final ActorRef target;

    Relay(ActorRef target) {
      this.target = target;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().match(String.class, s -> target.forward(s, getContext())).build();
    }
  }

  private static ActorSystem networked(String name) {
    return ActorSystem.create(
        name,
        ConfigFactory.parseString(
                "troupe.actor.provider = \"" + QueueTransport.Factory.class.getName() + "\"\n"
                    + "queue-transport.port = " + PORTS.incrementAndGet())
            .withFallback(ConfigFactory.load()));
  }

  private static QueueTransport transportOf(ActorSystem system) {
    return (QueueTransport) ((RuntimeSystem) system).provider();
  }

  @BeforeEach
  void start() {
    a = networked("seamA");
    b = networked("seamB");
  }

  @AfterEach
  void stop() {
    if (a != null) {
      TestKit.shutdownActorSystem(a);
    }
    if (b != null) {
      TestKit.shutdownActorSystem(b);
    }
  }

  private ActorRef lookUp(ActorSystem from, String path) {
    return from.actorSelection(path).resolveOne(WAIT).toCompletableFuture().join();
  }

  @Test
  void aSystemsAddressIsTheOneItsProviderBound() {
    Address address = a.address();
    assertTrue(address.hasGlobalScope(), "address " + address);
    assertEquals("seamA", address.system());
    ActorRef x = a.actorOf(Props.create(Echo.class), "x");
    assertEquals(address, x.path().address(), "local paths carry the provider's address");
  }

  @Test
  void aNonLocalRefIsLookedUpByPathSentToAndRepliedTo() {
    ActorRef echo = b.actorOf(Props.create(Echo.class), "echo");
    ActorRef remote = lookUp(a, b.address() + "/user/echo");

    assertEquals(echo.path(), remote.path(), "the ref has the actor's path on the other node");
    assertEquals(echo.path().uid(), remote.path().uid(), "and its uid");
    assertFalse(((InternalActorRef) remote).isLocal(), "it is the provider's ref, not the other system's cell");
    assertFalse(remote == echo);

    Object reply = Patterns.ask(remote, "hello", WAIT).toCompletableFuture().join();
    assertEquals("echo:hello", reply, "the reply found the asker's temporary ref by path");

    TestKit probe = new TestKit(a);
    remote.tell("from a probe", probe.getRef());
    assertEquals("echo:from a probe", probe.expectMsg("echo:from a probe"));
    assertEquals(remote, probe.getLastSender(), "the reply's sender is the remote actor");
  }

  @Test
  void aPathCanBeResolvedToARefDirectly() {
    ActorRef echo = b.actorOf(Props.create(Echo.class), "direct");
    ActorRef resolved =
        transportOf(a).resolveActorRef(ActorPath.fromString(echo.path().toSerializationFormat()));
    TestKit probe = new TestKit(a);
    resolved.tell("x", probe.getRef());
    probe.expectMsg("echo:x");
  }

  @Test
  void forwardAcrossNodesKeepsTheOriginalSender() {
    ActorRef echo = b.actorOf(Props.create(Echo.class), "echo");
    ActorRef remoteEcho = lookUp(a, b.address() + "/user/echo");
    b.actorOf(Props.create(Relay.class, echo), "relay"); // on b, relaying to b's echo
    ActorRef remoteRelay = lookUp(a, b.address() + "/user/relay");
    TestKit probe = new TestKit(a);

    remoteRelay.tell("via relay", probe.getRef());

    probe.expectMsg("echo:via relay");
    assertEquals(remoteEcho, probe.getLastSender(), "echo answered the probe on a directly");
  }

  @Test
  void selectionOfAnAbsentRemoteActorFailsWithActorNotFound() {
    CompletionException e =
        assertThrows(
            CompletionException.class,
            () -> lookUp(a, b.address() + "/user/nobody"));
    assertInstanceOf(ActorNotFound.class, e.getCause());

    TestKit probe = new TestKit(a);
    a.actorSelection(b.address() + "/user/nobody").tell(new Identify(7), probe.getRef());
    ActorIdentity id = probe.expectMsgClass(ActorIdentity.class);
    assertEquals(7, id.correlationId());
    assertTrue(id.ref().isEmpty(), "no actor there: " + id);
  }

  @Test
  void watchingARemoteActorGivesTerminatedWhenItStops() {
    ActorRef echo = b.actorOf(Props.create(Echo.class), "mortal");
    ActorRef remote = lookUp(a, b.address() + "/user/mortal");
    TestKit probe = new TestKit(a);
    probe.watch(remote);
    awaitWatched(remote); // the watch crossed before the stop below

    echo.tell(PoisonPill.getInstance(), ActorRef.noSender());

    Terminated t = probe.expectTerminated(remote);
    assertTrue(t.existenceConfirmed(), t.toString());
    assertFalse(t.addressTerminated(), t.toString());
  }

  @Test
  void watchingARemoteActorThatDoesNotExistGivesTerminatedAtOnce() {
    ActorRef echo = b.actorOf(Props.create(Echo.class), "gone");
    ActorRef remote = lookUp(a, b.address() + "/user/gone");
    TestKit stopper = new TestKit(b);
    stopper.watch(echo);
    echo.tell(PoisonPill.getInstance(), ActorRef.noSender());
    stopper.expectTerminated(echo);

    TestKit probe = new TestKit(a);
    probe.watch(remote);

    Terminated t = probe.expectTerminated(remote);
    assertFalse(t.existenceConfirmed(), "nothing was there to watch: " + t);
  }

  @Test
  void aNodeDeclaredGoneTerminatesEveryWatchedActorOfItsAddress() {
    TestKit probe = new TestKit(a);
    ActorRef remoteOne = watchedEchoOnB(probe, "one");
    ActorRef remoteTwo = watchedEchoOnB(probe, "two");
    Address bAddress = b.address();
    transportOf(b).vanish(); // b goes silent: no death notification can come from it

    transportOf(a).declareGone(bAddress);

    for (int i = 0; i < 2; i++) {
      Terminated t = probe.expectMsgClass(Terminated.class);
      assertTrue(t.actor().equals(remoteOne) || t.actor().equals(remoteTwo), t.toString());
      assertFalse(t.existenceConfirmed(), t.toString());
      assertTrue(t.addressTerminated(), t.toString());
    }
    probe.expectNoMessage(Duration.ofMillis(200)); // exactly once each
  }

  @Test
  void anUnwatchedRemoteActorIsNotReportedWhenItsNodeGoes() {
    TestKit probe = new TestKit(a);
    ActorRef dropped = watchedEchoOnB(probe, "dropped");
    ActorRef kept = watchedEchoOnB(probe, "kept");
    probe.unwatch(dropped);
    awaitWatched(kept); // the unwatch crossed too

    transportOf(a).declareGone(b.address());

    Terminated t = probe.expectTerminated(kept);
    assertTrue(t.addressTerminated(), t.toString());
    probe.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void aSystemCannotDeclareItsOwnAddressGone() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ((RuntimeSystem) a).addressTerminated(a.address()));
    assertTrue(e.getMessage().contains(a.address().toString()), e.getMessage());
  }

  /** An echo on b, looked up from a and watched by {@code probe}, the watch registered on b. */
  private ActorRef watchedEchoOnB(TestKit probe, String name) {
    b.actorOf(Props.create(Echo.class), name);
    ActorRef remote = lookUp(a, b.address() + "/user/" + name);
    probe.watch(remote);
    awaitWatched(remote);
    return remote;
  }

  /**
   * Returns once the watches sent to {@code remote} before this call are registered there: frames
   * from one node to another arrive in order, and an actor processes its system messages (the
   * watch) before the next user message (this round trip).
   */
  private static void awaitWatched(ActorRef remote) {
    assertEquals("echo:sync", Patterns.ask(remote, "sync", WAIT).toCompletableFuture().join());
  }
}
