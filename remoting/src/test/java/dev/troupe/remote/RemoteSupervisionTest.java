package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.Deploy;
import dev.troupe.actor.Directive;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.serialization.RemoteFailure;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A deployed actor is supervised by its parent on the deploying node: its failures cross the wire
 * to the parent's strategy, whose resume, restart, stop and escalate act on the target, and it
 * stops when its parent stops.
 */
class RemoteSupervisionTest {
  /** A failure the child is asked to have: the parent's strategy decides by its class name. */
  public record Fail(String exceptionClass) {}

  /** A failure that is part of the child's work: logged as one WARN line, locally or remotely. */
  public static class Flaky extends RuntimeException implements dev.troupe.actor.ExpectedFailure {
    private static final long serialVersionUID = 1L;

    public Flaky(String message) {
      super(message);
    }
  }

  /** A kind of Flaky: a decider matching Flaky's original class matches it too. */
  public static final class FlakyDisk extends Flaky {
    private static final long serialVersionUID = 1L;

    public FlakyDisk(String message) {
      super(message);
    }
  }

  /**
   * Counts what it got (state a restart loses), fails on request, and tells its reporter (an actor
   * on the target node) about its lifecycle.
   */
  public static final class Child extends AbstractActor {
    private final ActorRef reporter;
    private int count;

    public Child(ActorRef reporter) {
      this.reporter = reporter;
    }

    @Override
    public void preStart() {
      reporter.tell("started on " + getContext().getSystem().name(), getSelf());
    }

    @Override
    public void preRestart(Throwable reason, Optional<Object> message) throws Exception {
      reporter.tell("restarting: " + reason, getSelf());
      super.preRestart(reason, message);
    }

    @Override
    public void postStop() {
      reporter.tell("stopped", getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Fail.class, f -> {
            count++;
            if (f.exceptionClass().equals("FlakyDisk")) {
              throw new FlakyDisk("flaked");
            }
            throw f.exceptionClass().equals("IllegalArgumentException")
                ? new IllegalArgumentException("resume me")
                : f.exceptionClass().equals("IllegalStateException")
                    ? new IllegalStateException("restart me")
                    : f.exceptionClass().equals("ArithmeticException")
                        ? new ArithmeticException("stop me")
                        : new UnsupportedOperationException("escalate me");
          })
          .matchEquals("count", m -> getSender().tell(++count, getSelf()))
          .build();
    }
  }

  /**
   * Deploys its child onto the node it is given and supervises it by the original class of the
   * failure: resume, restart, stop, escalate. Forwards the child's termination to the test's probe;
   * the child reports to {@code reporter}.
   */
  public static final class Parent extends AbstractActor {
    private final ActorRef probe;
    private final ActorRef reporter;
    private ActorRef child;

    public Parent(ActorRef probe, ActorRef reporter) {
      this.probe = probe;
      this.reporter = reporter;
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(
          -1,
          DeciderBuilder.match(RemoteFailure.class, f -> decide(f.originalClassName())).build());
    }

    private static Directive decide(String className) {
      return switch (className) {
        case "java.lang.IllegalArgumentException" -> SupervisorStrategy.resume();
        case "java.lang.IllegalStateException" -> SupervisorStrategy.restart();
        case "java.lang.ArithmeticException" -> SupervisorStrategy.stop();
        default -> SupervisorStrategy.escalate();
      };
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Deploy.class, d -> {
            child = getContext().actorOf(Props.create(Child.class, reporter).withDeploy(d), "child");
            getContext().watch(child);
            getSender().tell(child, getSelf());
          })
          .match(Terminated.class, t -> probe.tell(t, getSelf()))
          .build();
    }
  }

  /** Like {@link Parent}, but decides by the original class itself: a Flaky (or a kind of it) restarts. */
  public static final class MatchingParent extends AbstractActor {
    private final ActorRef reporter;

    public MatchingParent(ActorRef reporter) {
      this.reporter = reporter;
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(
          -1,
          DeciderBuilder.match(Flaky.class, f -> SupervisorStrategy.stop()) // a local Flaky: not what arrives
              .orMatchRemote(Flaky.class, f -> SupervisorStrategy.restart())
              .orMatchAny(f -> SupervisorStrategy.stop())
              .build());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Deploy.class, d ->
              getSender().tell(getContext().actorOf(Props.create(Child.class, reporter).withDeploy(d), "child"), getSelf()))
          .build();
    }
  }

  /** The grandparent: reports an escalated failure and restarts the parent. */
  public static final class Grandparent extends AbstractActor {
    private final ActorRef probe;
    private final ActorRef reporter;

    public Grandparent(ActorRef probe, ActorRef reporter) {
      this.probe = probe;
      this.reporter = reporter;
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(
          -1,
          DeciderBuilder.matchAny(e -> {
            probe.tell("escalated: " + e, getSelf());
            return SupervisorStrategy.restart();
          }).build());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("parent", m -> getSender().tell(getContext().actorOf(Props.create(Parent.class, probe, reporter), "parent"), getSelf()))
          .build();
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          Nodes.REMOTE
              + "troupe.serialization.bindings { \"" + Fail.class.getName() + "\" = jackson-cbor }\n");

  static ActorSystem origin;
  static ActorSystem target;

  @BeforeAll
  static void nodes() {
    origin = TROUPE.system();
    target = TROUPE.createSystem(
        "troupe.remote.deployment { enabled = on, allowed-classes = [\"" + Child.class.getName() + "\"] }");
  }

  /** The child of {@code parent}, deployed onto the target, once it started there. */
  private static ActorRef deployedChild(ActorRef parent, TestKit onTarget) {
    ActorRef child = (ActorRef) Patterns.ask(parent, Deploy.remote(target.address()), Nodes.WAIT).toCompletableFuture().join();
    assertEquals("started on " + target.name(), onTarget.expectMsgClass(Nodes.WAIT, String.class));
    return child;
  }

  private static Object ask(ActorRef ref, Object message) {
    return Patterns.ask(ref, message, Nodes.WAIT).toCompletableFuture().join();
  }

  @Test
  void aFailureTheParentResumesKeepsTheChildsState() {
    TestKit onTarget = new TestKit(target);
    ActorRef parent = origin.actorOf(Props.create(Parent.class, origin.deadLetters(), remoteRef(onTarget)), "resuming");
    ActorRef child = deployedChild(parent, onTarget);
    assertEquals(1, ask(child, "count"));

    child.tell(new Fail("IllegalArgumentException"), ActorRef.noSender());

    assertEquals(3, ask(child, "count"), "resumed: the count went on (1, the failed message, 3)");
    onTarget.expectNoMessage(Duration.ofMillis(100)); // neither restarted nor stopped
  }

  @Test
  void aFailureTheParentRestartsRunsPreRestartOnTheTargetAndStartsAfresh() {
    TestKit onTarget = new TestKit(target);
    ActorRef parent = origin.actorOf(Props.create(Parent.class, origin.deadLetters(), remoteRef(onTarget)), "restarting");
    ActorRef child = deployedChild(parent, onTarget);
    assertEquals(1, ask(child, "count"));

    child.tell(new Fail("IllegalStateException"), ActorRef.noSender());

    String restarting = onTarget.expectMsgClass(Nodes.WAIT, String.class);
    assertTrue(restarting.startsWith("restarting: ") && restarting.contains("restart me"), restarting);
    assertEquals("stopped", onTarget.expectMsgClass(Nodes.WAIT, String.class), "postStop of the old incarnation");
    assertEquals("started on " + target.name(), onTarget.expectMsgClass(Nodes.WAIT, String.class));
    assertEquals(1, ask(child, "count"), "a new instance, the same ref");
  }

  @Test
  void aFailureTheParentStopsStopsTheChildAndTheParentSeesItTerminate() {
    TestKit onTarget = new TestKit(target);
    TestKit onOrigin = new TestKit(origin);
    ActorRef parent = origin.actorOf(Props.create(Parent.class, onOrigin.getRef(), remoteRef(onTarget)), "stopping");
    ActorRef child = deployedChild(parent, onTarget);

    child.tell(new Fail("ArithmeticException"), ActorRef.noSender());

    Terminated t = onOrigin.expectMsgClass(Nodes.WAIT, Terminated.class);
    assertEquals(child, t.actor());
    assertTrue(t.existenceConfirmed(), t.toString());
    assertEquals("stopped", onTarget.expectMsgClass(Nodes.WAIT, String.class), "postStop ran on the target");
  }

  @Test
  void anEscalatedFailureFailsTheParentWhoseRestartStopsTheChild() {
    TestKit onTarget = new TestKit(target);
    TestKit onOrigin = new TestKit(origin);
    ActorRef grandparent =
        origin.actorOf(Props.create(Grandparent.class, onOrigin.getRef(), remoteRef(onTarget)), "grandparent");
    ActorRef parent = (ActorRef) ask(grandparent, "parent");
    ActorRef child = deployedChild(parent, onTarget);
    TestKit watcher = new TestKit(origin);
    watcher.watch(child);

    child.tell(new Fail("UnsupportedOperationException"), ActorRef.noSender());

    String escalated = onOrigin.expectMsgClass(Nodes.WAIT, String.class);
    assertTrue(escalated.startsWith("escalated: ") && escalated.contains("escalate me"), escalated);
    assertEquals("stopped", onTarget.expectMsgClass(Nodes.WAIT, String.class), "the parent's restart stopped it");
    Terminated t = watcher.expectTerminated(Nodes.WAIT, child);
    assertTrue(t.existenceConfirmed(), t.toString());
  }

  @Test
  void aDeciderMatchesARemoteFailureByItsOriginalClassAndTheLogLineSaysWhatItSaw() {
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.troupe.actor." + origin.name());
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log = new ch.qos.logback.core.read.ListAppender<>();
    log.start();
    logger.addAppender(log);
    try {
      TestKit onTarget = new TestKit(target);
      ActorRef parent = origin.actorOf(Props.create(MatchingParent.class, remoteRef(onTarget)), "matching");
      ActorRef child = deployedChild(parent, onTarget);

      child.tell(new Fail("FlakyDisk"), ActorRef.noSender());

      String restarting = onTarget.expectMsgClass(Nodes.WAIT, String.class);
      assertTrue(restarting.startsWith("restarting: ") && restarting.contains("flaked"), restarting);
      new TestKit(origin).awaitCond(Nodes.WAIT, () -> log.list.stream().anyMatch(e -> e.getFormattedMessage().contains(" failed: ")));
      ch.qos.logback.classic.spi.ILoggingEvent line =
          log.list.stream().filter(e -> e.getFormattedMessage().contains(" failed: ")).findFirst().orElseThrow();
      assertEquals(
          child.path() + " failed: RemoteFailure(" + FlakyDisk.class.getName() + ": flaked); restart",
          line.getFormattedMessage(),
          "the line names what the decider saw");
      assertEquals(ch.qos.logback.classic.Level.WARN, line.getLevel(), "an expected failure stays expected across the wire");
      assertEquals(null, line.getThrowableProxy(), "no stack trace for an expected failure");
    } finally {
      logger.detachAppender(log);
    }
  }

  @Test
  void theChildStopsWhenItsParentStops() {
    TestKit onTarget = new TestKit(target);
    TestKit onOrigin = new TestKit(origin);
    ActorRef parent = origin.actorOf(Props.create(Parent.class, origin.deadLetters(), remoteRef(onTarget)), "mortal-parent");
    ActorRef child = deployedChild(parent, onTarget);
    onOrigin.watch(child);
    onOrigin.watch(parent);

    origin.stop(parent);

    assertEquals("stopped", onTarget.expectMsgClass(Nodes.WAIT, String.class), "the child's postStop on the target");
    // Both die; the two notices come from different nodes (the child's over the wire, the
    // parent's locally), so a third party may see them in either order.
    Set<ActorRef> dead = new HashSet<>();
    for (Object m : onOrigin.receiveN(2, Nodes.WAIT)) {
      assertTrue(m instanceof Terminated, "expected Terminated, got " + m);
      dead.add(((Terminated) m).actor());
    }
    assertEquals(Set.of(child, parent), dead, "the parent and its deployed child terminated");
  }

  /** {@code probe}'s ref as the origin sees it: a remote ref, which a deployed child's argument must be. */
  private static ActorRef remoteRef(TestKit probe) {
    return Nodes.lookup(origin, target, probe.getRef().path().toStringWithoutAddress());
  }
}
