package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.Routee;
import dev.troupe.routing.Routees;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A pool whose deployment section names {@code target.nodes} deploys its routees onto those nodes
 * in turn; the pool supervises and watches them across the wire. The "watch the routees" job runs
 * with its workers spread over two nodes: it completes, or aborts when a worker is stopped.
 */
class RemotePoolDeploymentTest {
  /** A task of a job: square the input; a poisoned one fails. */
  public record Task(int taskId, int input, boolean poisoned) {}

  /** A worker's answer. */
  public record TaskDone(int taskId, long result, String node) {}

  /** Squares numbers; retries a failed task after its restart (the task goes to its new self). */
  public static final class Worker extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Task.class, t -> {
            if (t.poisoned()) {
              throw new IllegalArgumentException("task " + t.taskId() + " is poisoned");
            }
            getSender().tell(new TaskDone(t.taskId(), (long) t.input() * t.input(), getContext().getSystem().name()), getSelf());
          })
          .matchEquals("where", m -> getSender().tell(getContext().getSystem().name(), getSelf()))
          .build();
    }

    @Override
    public void preRestart(Throwable reason, Optional<Object> message) {
      message.ifPresent(m -> getSelf().tell(m, getSender()));
    }
  }

  /**
   * Runs one job over a pool of workers it watches (the pool is built in code; its section in the
   * configuration spreads the routees over nodes): answers with the sum of squares and the nodes
   * that worked, or with the worker that died.
   */
  public static final class Master extends AbstractActor {
    private final TreeMap<Integer, Long> results = new TreeMap<>();
    private final List<String> nodes = new ArrayList<>();
    private ActorRef client;
    private ActorRef pool;
    private List<Task> tasks;

    @Override
    @SuppressWarnings("unchecked")
    public Receive createReceive() {
      return receiveBuilder()
          .match(List.class, job -> {
            tasks = (List<Task>) job;
            client = getSender();
            SupervisorStrategy twoRestarts =
                new OneForOneStrategy(2, Duration.ofMinutes(1), DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
            pool = getContext().actorOf(
                Props.create(Worker.class).withRouter(new RoundRobinPool(4).withSupervisorStrategy(twoRestarts)),
                "workers");
            pool.tell(GetRoutees.getInstance(), getSelf());
          })
          .match(Routees.class, routees -> {
            for (Routee r : routees.routees()) {
              getContext().watch(((ActorRefRoutee) r).ref());
            }
            tasks.forEach(t -> pool.tell(t, getSelf()));
          })
          .match(TaskDone.class, done -> {
            results.put(done.taskId(), done.result());
            nodes.add(done.node());
            if (results.size() == tasks.size()) {
              client.tell(results.values().stream().mapToLong(Long::longValue).sum() + " from " + new java.util.TreeSet<>(nodes), getSelf());
            }
          })
          .match(Terminated.class, t -> {
            client.tell("aborted: " + t.actor().path(), getSelf());
            getContext().stop(getSelf());
          })
          .build();
    }
  }

  private static String accepting() {
    return "troupe.remote.deployment { enabled = on, allowed-classes = [\"" + Worker.class.getName() + "\"] }\n";
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          Nodes.REMOTE
              + "troupe.serialization.bindings {\n"
              + "  \"" + Task.class.getName() + "\" = jackson-cbor\n"
              + "  \"" + TaskDone.class.getName() + "\" = jackson-cbor\n"
              + "}\n");

  static ActorSystem b;
  static ActorSystem c;

  @BeforeAll
  static void nodes() {
    b = TROUPE.createSystem(accepting());
    c = TROUPE.createSystem(accepting());
  }

  private static ActorSystem origin(String sections) {
    return TROUPE.createSystem("troupe.actor.deployment {\n" + sections + "\n}");
  }

  private static String targetNodes() {
    return "[\"" + b.address() + "\", \"" + c.address() + "\"]";
  }

  private static List<ActorRef> routees(ActorRef router) {
    Routees rs = (Routees) Patterns.ask(router, GetRoutees.getInstance(), Nodes.WAIT).toCompletableFuture().join();
    List<ActorRef> out = new ArrayList<>();
    for (Routee r : rs.routees()) {
      out.add(((ActorRefRoutee) r).ref());
    }
    return out;
  }

  @Test
  void aPoolFromConfigurationDeploysItsRouteesRoundRobinOverTheTargetNodes() {
    ActorSystem a = origin("/pool { router = round-robin-pool, nr-of-instances = 4, target.nodes = " + targetNodes() + " }");

    ActorRef pool = a.actorOf(Props.create(Worker.class).withRouter(FromConfig.getInstance()), "pool");

    List<Address> where = new ArrayList<>();
    for (ActorRef r : routees(pool)) {
      where.add(r.path().address());
      assertEquals(r.path().address().system(), Patterns.ask(r, "where", Nodes.WAIT).toCompletableFuture().join());
    }
    assertEquals(List.of(b.address(), c.address(), b.address(), c.address()), where);
  }

  @Test
  void theJobWithWorkersOnTwoNodesCompletesAndUsesBoth() {
    ActorSystem a = origin("\"/master/workers\" { target.nodes = " + targetNodes() + " }");
    ActorRef master = a.actorOf(Props.create(Master.class), "master");
    List<Task> job = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      job.add(new Task(i, i, false));
    }

    Object answer = Patterns.ask(master, job, Nodes.WAIT).toCompletableFuture().join();

    assertEquals("204 from [" + String.join(", ", new java.util.TreeSet<>(List.of(b.name(), c.name()))) + "]", answer);
  }

  @Test
  void theJobAbortsWhenAWorkerOnAnotherNodeIsStoppedAfterRepeatedFailures() {
    ActorSystem a = origin("\"/master/workers\" { target.nodes = " + targetNodes() + " }");
    ActorRef master = a.actorOf(Props.create(Master.class), "master");
    TestKit probe = new TestKit(a);
    probe.watch(master);

    master.tell(List.of(new Task(1, 1, false), new Task(2, 2, true), new Task(3, 3, false)), probe.getRef());

    String answer = probe.expectMsgClass(Duration.ofSeconds(20), String.class);
    assertTrue(answer.startsWith("aborted: "), answer);
    assertTrue(
        answer.contains(b.address().toString()) || answer.contains(c.address().toString()),
        "the worker that died lived on another node: " + answer);
    probe.expectTerminated(Nodes.WAIT, master);
  }

  @Test
  void targetNodesOfABalancingPoolAreRefused() {
    ActorSystem a = origin("/balanced { router = balancing-pool, nr-of-instances = 2, target.nodes = " + targetNodes() + " }");

    ConfigurationException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ConfigurationException.class,
            () -> a.actorOf(Props.create(Worker.class).withRouter(FromConfig.getInstance()), "balanced"));

    assertTrue(e.getMessage().contains("target.nodes"), e.getMessage());
  }
}
