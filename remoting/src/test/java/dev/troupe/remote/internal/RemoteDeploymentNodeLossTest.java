package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Deploy;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.testkit.ChildJvm;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A deployed actor and the nodes at both ends: it stops on the target when its parent's node
 * leaves or is killed (the target watches the parent, so its failure detector watches that node),
 * and the deployer's ref terminates for its watchers when the target's node leaves.
 */
class RemoteDeploymentNodeLossTest {
  /** Tells its reporter when it starts and stops. */
  public static final class Reporting extends AbstractActor {
    private final ActorRef reporter;

    public Reporting(ActorRef reporter) {
      this.reporter = reporter;
    }

    @Override
    public void preStart() {
      reporter.tell("started", getSelf());
    }

    @Override
    public void postStop() {
      reporter.tell("stopped", getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  private static final String ACCEPTING =
      "troupe.remote.deployment { enabled = on, allowed-classes = [\"" + Reporting.class.getName() + "\"] }\n";

  private static final Duration WAIT = Duration.ofSeconds(10);

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(NodeLossTest.FAST_DETECTION + ACCEPTING);

  static ActorSystem target;
  private Process child;

  @BeforeAll
  static void node() {
    target = TROUPE.system();
  }

  @AfterEach
  void killChild() throws InterruptedException {
    if (child != null) {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static RemoteActorRefProvider provider(ActorSystem system) {
    return (RemoteActorRefProvider) ((RuntimeSystem) system).provider();
  }

  /** {@code probe} as {@code from} sees it. */
  private static ActorRef seenFrom(ActorSystem from, TestKit probe) {
    return from.actorSelection(probe.getRef().path().toString()).resolveOne(WAIT).toCompletableFuture().join();
  }

  @Test
  void aDeployedActorStopsWhenItsParentsNodeSaysItLeaves() {
    ActorSystem origin = TROUPE.createSystem("");
    TestKit onTarget = new TestKit(target);
    origin.actorOf(
        Props.create(Reporting.class, seenFrom(origin, onTarget)).withDeploy(Deploy.remote(target.address())), "w");
    onTarget.expectMsg(WAIT, "started");

    provider(origin).sayLeaving(); // as at its termination, but its actors live on

    onTarget.expectMsg(WAIT, "stopped");
    TestKit.shutdownActorSystem(origin); // its parent still hears of the child's death: nothing hangs
  }

  @Test
  void aDeployedActorStopsWhenItsParentsNodeIsKilled() throws Exception {
    TestKit onTarget = new TestKit(target);
    child =
        ChildJvm.builder(
                List.of("-Xmx128m"),
                DeployingNode.class,
                target.address().toString(),
                onTarget.getRef().path().toString())
            .redirectErrorStream(true)
            .start();
    String deployed = ChildJvm.awaitLine(child, DeployingNode.DEPLOYED_LINE, WAIT.multipliedBy(3));
    assertTrue(deployed.startsWith(target.address() + "/remote/deploying@"), deployed);
    onTarget.expectMsg(WAIT, "started");
    new TestKit(target)
        .awaitCond(WAIT, Duration.ofMillis(20), "hosted", () -> provider(target).daemon().hosted().hostedCount() == 1);

    child.destroyForcibly();

    onTarget.expectMsg(Duration.ofSeconds(15), "stopped");
    new TestKit(target)
        .awaitCond(WAIT, Duration.ofMillis(20), "forgotten", () -> provider(target).daemon().hosted().hostedCount() == 0);
  }

  @Test
  void theDeployersRefTerminatesForItsWatchersWhenTheTargetsNodeLeaves() {
    ActorSystem origin = TROUPE.createSystem("");
    ActorSystem leaving = TROUPE.createSystem(ACCEPTING);
    TestKit onLeaving = new TestKit(leaving);
    ActorRef w =
        origin.actorOf(
            Props.create(Reporting.class, seenFrom(origin, onLeaving)).withDeploy(Deploy.remote(leaving.address())), "w");
    onLeaving.expectMsg(WAIT, "started");
    TestKit watcher = new TestKit(origin);
    watcher.watch(w);

    provider(leaving).sayLeaving(); // its actors live on, but the origin must take them as gone

    Terminated t = watcher.expectTerminated(WAIT, w);
    assertFalse(t.existenceConfirmed(), t.toString());
    assertTrue(t.addressTerminated(), t.toString());
    TestKit.shutdownActorSystem(origin); // the parent does not wait for a child on a node that is gone
    TestKit.shutdownActorSystem(leaving);
  }
}
