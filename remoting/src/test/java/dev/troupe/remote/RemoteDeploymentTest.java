package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Deploy;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.serialization.Serializer;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Remote deployment, the creation part: {@code Deploy.remote} and {@code remote = "…"} in the
 * deployment configuration create the actor on the target under {@code /remote}; the target accepts
 * only allowed classes with deployment enabled, checked before any constructor argument is read;
 * every refusal (and a constructor that throws) terminates the deployer's ref at once; props that
 * cannot be sent fail {@code actorOf}.
 */
class RemoteDeploymentTest {
  /** Answers "who" with where it runs; echoes anything else with the argument it was made with. */
  public static final class Worker extends AbstractActor {
    private final String tag;

    public Worker(String tag) {
      this.tag = tag;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("who", m -> getSender().tell(getContext().getSystem().name() + ":" + tag, getSelf()))
          .matchEquals("parent", m -> getSender().tell(getContext().getParent(), getSelf()))
          .matchAny(m -> getSender().tell(m, getSelf()))
          .build();
    }
  }

  /** Counts its constructions: an actor whose class the target must never instantiate. */
  public static final class Counted extends AbstractActor {
    static final AtomicInteger CONSTRUCTED = new AtomicInteger();

    public Counted(Secret secret) {
      CONSTRUCTED.incrementAndGet();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  /** Its constructor always throws. */
  public static final class Throwing extends AbstractActor {
    static final AtomicInteger ATTEMPTS = new AtomicInteger();

    public Throwing() {
      ATTEMPTS.incrementAndGet();
      throw new IllegalStateException("no, thanks");
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  /** Creates a child by name when asked, and answers with it (or the exception). */
  public static final class Parent extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, name -> {
            Object outcome;
            try {
              outcome = getContext().actorOf(Props.create(Worker.class, name), name);
            } catch (RuntimeException e) {
              outcome = e;
            }
            getSender().tell(outcome, getSelf());
          })
          .build();
    }
  }

  /** An argument bound to {@link CountingSerializer}: its reads are counted. */
  public record Secret(String value) {}

  /** Serializes {@link Secret} as UTF-8 and counts how often it reads one. */
  public static final class CountingSerializer implements Serializer {
    static final AtomicInteger READS = new AtomicInteger();

    @Override
    public int identifier() {
      return 4711;
    }

    @Override
    public String manifest(Object o) {
      return "";
    }

    @Override
    public byte[] toBinary(Object o) {
      return ((Secret) o).value().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      READS.incrementAndGet();
      return new Secret(new String(bytes, StandardCharsets.UTF_8));
    }
  }

  /** Not bound to any serializer. */
  public record Unbound(int x) {}

  /** An actor taking an unbound argument. */
  public static final class TakesUnbound extends AbstractActor {
    public TakesUnbound(Unbound u) {}

    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  private static final String COMMON =
      Nodes.REMOTE
          + "troupe.serialization.serializers.counting = \"" + CountingSerializer.class.getName() + "\"\n"
          + "troupe.serialization.bindings { \"" + Secret.class.getName() + "\" = counting }\n";

  /** A target that accepts Worker and Throwing (not Counted). */
  private static final String ACCEPTING =
      "troupe.remote.deployment { enabled = on, allowed-classes = [\""
          + Worker.class.getName() + "\", \"" + Throwing.class.getName() + "\"] }\n";

  @RegisterExtension static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(COMMON);

  static ActorSystem origin;
  static ActorSystem target;

  @BeforeAll
  static void nodes() {
    origin = TROUPE.system();
    target = TROUPE.createSystem(ACCEPTING);
  }

  private static Props workerOn(ActorSystem node, String tag) {
    return Props.create(Worker.class, tag).withDeploy(Deploy.remote(node.address()));
  }

  private static Object ask(ActorRef ref, Object message) {
    return Patterns.ask(ref, message, Nodes.WAIT).toCompletableFuture().join();
  }

  @Test
  void anActorDeployedByPropsRunsOnTheTargetUnderRemoteAndItsPathSaysSo() {
    ActorRef w = origin.actorOf(workerOn(target, "by-props"), "by-props");

    assertEquals(target.address(), w.path().address(), "the ref's path is on the target: " + w.path());
    List<String> elements = w.path().elements();
    assertEquals("remote", elements.get(0), w.path().toString());
    assertEquals(
        List.of("user", "by-props"), elements.subList(elements.size() - 2, elements.size()), w.path().toString());
    assertEquals(target.name() + ":by-props", ask(w, "who"), "constructed on the target with its argument");
    TestKit probe = new TestKit(origin);
    w.tell("hello", probe.getRef());
    probe.expectMsg("hello");
    assertEquals(w, probe.getLastSender(), "the reply comes from the deployed actor's path");
  }

  @Test
  void aDeployedActorsParentIsItsParentOnTheDeployingNode() {
    ActorRef p = origin.actorOf(Props.create(Parent.class), "parent-of-remote");
    String config = "troupe.actor.deployment { \"/parent-of-remote/*\" { remote = \"" + target.address() + "\" } }";
    ActorSystem configured = TROUPE.createSystem(config);
    ActorRef configuredParent = configured.actorOf(Props.create(Parent.class), "parent-of-remote");

    ActorRef child = (ActorRef) ask(configuredParent, "c1");

    assertEquals(target.address(), child.path().address(), "deployed by the wildcard section: " + child.path());
    assertEquals(configuredParent, ask(child, "parent"), "getParent() on the target is the parent on the origin");
    assertEquals(origin.address(), ((ActorRef) ask(p, "local-child")).path().address(), "no section: local");
  }

  @Test
  void anActorDeployedByConfigurationRunsOnTheTarget() {
    ActorSystem configured =
        TROUPE.createSystem("troupe.actor.deployment { /configured { remote = \"" + target.address() + "\" } }");

    ActorRef w = configured.actorOf(Props.create(Worker.class, "by-config"), "configured");

    assertEquals(target.address(), w.path().address(), w.path().toString());
    assertEquals(target.name() + ":by-config", ask(w, "who"));
  }

  @Test
  void messagesToldRightAfterActorOfArriveAllAndInOrder() {
    TestKit probe = new TestKit(origin);
    ActorRef w = origin.actorOf(workerOn(target, "burst"), "burst");
    for (int i = 0; i < 200; i++) {
      w.tell(i, probe.getRef());
    }
    for (int i = 0; i < 200; i++) {
      probe.expectMsg(Nodes.WAIT, i);
    }
  }

  @Test
  void stoppingTheDeployedActorFromTheOriginStopsItOnTheTarget() {
    ActorRef w = origin.actorOf(workerOn(target, "stoppable"), "stoppable");
    ask(w, "who");
    TestKit probe = new TestKit(origin);
    probe.watch(w);

    origin.stop(w);

    Terminated t = probe.expectTerminated(Nodes.WAIT, w);
    assertTrue(t.existenceConfirmed(), t.toString());
    awaitNameFree(origin, "stoppable");
  }

  @Test
  void aClassNotAllowedIsRefusedWithoutConstructingItOrReadingItsArguments() {
    int constructed = Counted.CONSTRUCTED.get();
    int reads = CountingSerializer.READS.get();
    TestKit probe = new TestKit(origin);
    ActorRef r =
        origin.actorOf(
            Props.create(Counted.class, new Secret("s")).withDeploy(Deploy.remote(target.address())), "not-allowed");
    probe.watch(r);

    Terminated t = probe.expectTerminated(Nodes.WAIT, r);

    assertFalse(t.existenceConfirmed(), t.toString());
    assertEquals(constructed, Counted.CONSTRUCTED.get(), "the constructor never ran");
    assertEquals(reads, CountingSerializer.READS.get(), "the argument was never deserialized");
    awaitNameFree(origin, "not-allowed");
  }

  @Test
  void aTargetWithDeploymentDisabledRefuses() {
    ActorSystem closed = TROUPE.createSystem("troupe.remote.deployment.allowed-classes = [\"" + Worker.class.getName() + "\"]");
    TestKit probe = new TestKit(origin);
    ActorRef r = origin.actorOf(workerOn(closed, "disabled"), "to-disabled");
    probe.watch(r);
    r.tell("lost", probe.getRef());

    probe.expectTerminated(Nodes.WAIT, r);
    probe.expectNoMessage(java.time.Duration.ofMillis(100));
  }

  @Test
  void aTargetInUntrustedModeRefuses() {
    ActorSystem untrusted = TROUPE.createSystem(ACCEPTING + "troupe.remote.untrusted-mode = on");
    TestKit probe = new TestKit(origin);
    ActorRef r = origin.actorOf(workerOn(untrusted, "untrusted"), "to-untrusted");
    probe.watch(r);

    probe.expectTerminated(Nodes.WAIT, r);
    awaitNameFree(origin, "to-untrusted");
  }

  @Test
  void aConstructorThatThrowsOnTheTargetRefusesTheDeploymentOnce() {
    int attempts = Throwing.ATTEMPTS.get();
    TestKit probe = new TestKit(origin);
    ActorRef r =
        origin.actorOf(Props.create(Throwing.class).withDeploy(Deploy.remote(target.address())), "throwing");
    probe.watch(r);

    probe.expectTerminated(Nodes.WAIT, r);
    assertEquals(attempts + 1, Throwing.ATTEMPTS.get(), "constructed once, not restarted");
    awaitNameFree(origin, "throwing");
  }

  @Test
  void propsWithACreatorCannotBeDeployedAndActorOfSaysSo() {
    Props lambda = Props.create(Worker.class, () -> new Worker("x")).withDeploy(Deploy.remote(target.address()));

    ConfigurationException e = assertThrows(ConfigurationException.class, () -> origin.actorOf(lambda, "lambda"));

    assertTrue(e.getMessage().contains("Creator"), e.getMessage());
    origin.stop(origin.actorOf(Props.create(Worker.class, "x"), "lambda")); // the name was left free
  }

  @Test
  void anArgumentWithoutASerializerFailsActorOf() {
    Props p = Props.create(TakesUnbound.class, new Unbound(1)).withDeploy(Deploy.remote(target.address()));

    ConfigurationException e = assertThrows(ConfigurationException.class, () -> origin.actorOf(p, "unbound"));

    assertTrue(e.getMessage().contains("constructor argument 0"), e.getMessage());
    assertTrue(e.getMessage().contains(Unbound.class.getName()), e.getMessage());
  }

  /** Waits until {@code name} can be taken again under /user: the deployer's ref is gone there. */
  private static void awaitNameFree(ActorSystem system, String name) {
    new TestKit(system)
        .awaitCond(
            Nodes.WAIT,
            java.time.Duration.ofMillis(20),
            "the name " + name + " was not freed",
            () -> {
              try {
                system.stop(system.actorOf(Props.create(Worker.class, "probe"), name));
                return true;
              } catch (RuntimeException taken) {
                return false;
              }
            });
  }
}
