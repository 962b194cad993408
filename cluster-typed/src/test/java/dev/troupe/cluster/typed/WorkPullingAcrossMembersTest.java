package dev.troupe.cluster.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Work pulling across a two-member cluster in this JVM: the controller on the first member finds
 * the workers of both through the cluster-wide receptionist, and its producer controllers talk to
 * the remote worker's consumer controller with the point-to-point messages (the typed cluster's
 * serializer): every job is processed, by workers on both members, and when the remote worker stops
 * the local one takes what it had not confirmed.
 */
@Timeout(60)
class WorkPullingAcrossMembersTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final ServiceKey<ConsumerController.Command<Job>> KEY =
      ServiceKey.create(ConsumerController.serviceKeyClass(), "jobs");

  /** The producer's messages (Jackson writes them between the members). */
  record Job(int n) {}

  private List<ActorSystem> members = List.of();

  @AfterEach
  void stop() {
    Members.stop(members);
  }

  /** A worker: a consumer that tells {@code out} "{name}:{n}" (and confirms), with its consumer controller under the key. */
  private static ActorRef<ConsumerController.Delivery<Job>> worker(
      ActorSystem on, String name, ActorRef<String> out, boolean confirms) {
    ActorRef<ConsumerController.Delivery<Job>> consumer = Adapter.spawn(on,
        Behaviors.<ConsumerController.Delivery<Job>>receiveMessage(d -> {
          out.tell(name + ":" + d.message().n());
          if (confirms) {
            d.confirmTo().tell(ConsumerController.confirmed());
          }
          return Behaviors.same();
        }), name);
    ActorRef<ConsumerController.Command<Job>> cc = Adapter.spawn(on,
        ConsumerController.create(ConsumerController.Settings.create(Adapter.toTyped(on)).withFlowControlWindow(10)),
        name + "-controller");
    cc.tell(new ConsumerController.Start<>(consumer));
    Adapter.toTyped(on).receptionist().tell(Receptionist.register(KEY, cc));
    return consumer;
  }

  /** Sends jobs {@code from} to {@code to}, one for each request. */
  private static Behavior<WorkPullingProducerController.RequestNext<Job>> producer(int from, int to) {
    int[] next = {from};
    return Behaviors.receiveMessage(req -> {
      if (next[0] <= to) {
        req.sendNextTo().tell(new Job(next[0]++));
      }
      return Behaviors.same();
    });
  }

  private static void awaitWorkers(ActorSystem on, ActorRef<WorkPullingProducerController.Command<Job>> wpc, int n) {
    TestProbe<WorkPullingProducerController.WorkerStats> stats = TestProbe.create(Adapter.toTyped(on));
    stats.awaitAssert(WAIT, () -> {
      wpc.tell(new WorkPullingProducerController.GetWorkerStats<>(stats.getRef()));
      int seen = stats.receiveMessage(WAIT).numberOfWorkers();
      assertEquals(n, seen, "workers the controller has (the listing crosses between the members)");
      return seen;
    });
  }

  @Test
  void theJobsGoToWorkersOnBothMembersAndWhatTheRemoteOneHeldToTheLocalOneWhenItStops() {
    members = Members.start("work-pulling", 2, Job.class, WAIT);
    ActorSystem a = members.get(0);
    ActorSystem b = members.get(1);
    TestProbe<String> out = TestProbe.create(Adapter.toTyped(a));
    ActorRef<WorkPullingProducerController.Command<Job>> wpc = Adapter.spawn(a,
        WorkPullingProducerController.create(Job.class, "jobs", KEY, Optional.empty()), "work-pulling");
    worker(a, "local", out.getRef(), true);
    ActorRef<ConsumerController.Delivery<Job>> remote = worker(b, "remote", out.getRef(), false); // holds its jobs
    awaitWorkers(a, wpc, 2);
    wpc.tell(new WorkPullingProducerController.Start<>(Adapter.spawn(a, producer(1, 200), "producer")));
    Set<String> workers = new HashSet<>();
    Set<Integer> done = new HashSet<>();
    // the local worker takes all but the at most 10 (its window) the remote one holds, and the remote
    // one tells of the first it got
    while (done.size() < 200 - 10 || !workers.contains("remote")) {
      String[] note = out.receiveMessage(WAIT).split(":");
      workers.add(note[0]);
      done.add(Integer.parseInt(note[1]));
    }
    b.stop(Adapter.toClassic(remote)); // its consumer controller stops with it
    awaitWorkers(a, wpc, 1);
    while (done.size() < 200) { // what the remote worker held, processed by the local one
      String[] note = out.receiveMessage(WAIT).split(":");
      workers.add(note[0]);
      done.add(Integer.parseInt(note[1]));
    }
    assertEquals(Set.of("local", "remote"), workers, "the workers that got jobs");
  }
}
