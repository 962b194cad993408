package dev.troupe.samples.routing;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.Routee;
import dev.troupe.routing.Routees;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The classic job pattern: a master splits a job into tasks for workers behind a round-robin pool,
 * watches the workers, and either aggregates every task's result into one answer or, as soon as a
 * worker dies, aborts the whole job.
 *
 * <p>A worker that fails on a task retries it: in {@code preRestart} it sends the failed task to
 * itself with the master as sender. The pool's strategy allows two restarts a minute; a task that
 * keeps failing ("poisoned") is tried three times, then its worker is stopped, the master sees it
 * terminate and aborts.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar watch-the-routees --tasks 10 --workers 3
 * java -jar samples/target/troupe-samples.jar watch-the-routees --tasks 10 --poison-task 4
 * </pre>
 */
@Command(name = "watch-the-routees", description = "a master splits a job over a watched worker pool; aborts if a worker dies")
public final class WatchTheRoutees extends Sample {
  @Option(names = "--tasks", paramLabel = "N", description = "tasks in the job (task i squares i) (default ${DEFAULT-VALUE})")
  private int tasks = 10;

  @Option(names = "--workers", paramLabel = "N", description = "workers in the round-robin pool (default ${DEFAULT-VALUE})")
  private int workers = 3;

  @Option(names = "--poison-task", paramLabel = "N",
      description = "the task that always fails (0-based), -1 for none (default ${DEFAULT-VALUE})")
  private int poison = -1;

  /** A job: square each input and add the squares up. */
  public record Job(String id, List<Integer> inputs, int poisonedTask) {}

  /** One task of a job. */
  public record Task(int taskId, int input, boolean poisoned) {}

  /** A worker's answer. */
  public record TaskDone(int taskId, long result) {}

  /** The master's answer when every task is done. */
  public record JobDone(String jobId, long sum) {}

  /** The master's answer when a worker died. */
  public record JobAborted(String jobId, String reason) {}

  /**
   * A poisoned task's failure. It is part of the sample's story, so it is an {@link
   * ExpectedFailure}: the supervisor logs it as one line without a stack trace.
   */
  static final class PoisonedTask extends RuntimeException implements ExpectedFailure {
    private static final long serialVersionUID = 1L;

    PoisonedTask(int taskId) {
      super("task " + taskId + " is poisoned");
    }
  }

  /**
   * Squares numbers; fails on poisoned tasks and retries the failed task after its restart. Public:
   * {@code remote-workers} deploys it onto other nodes, whose allow-lists name it.
   */
  public static final class Worker extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Task.class, t -> {
            if (t.poisoned()) {
              throw new PoisonedTask(t.taskId());
            }
            getSender().tell(new TaskDone(t.taskId(), (long) t.input() * t.input()), getSelf());
          })
          .build();
    }

    /** Retry: the new incarnation gets the task again, still from the master. */
    @Override
    public void preRestart(Throwable reason, Optional<Object> message) {
      message.ifPresent(m -> getSelf().tell(m, getSender()));
    }
  }

  /**
   * Runs one job and answers whoever sent it. Its pool is {@code workers} under it: a deployment
   * section {@code "/master/workers"} with {@code target.nodes} spreads the workers over other nodes
   * ({@code remote-workers}).
   */
  public static final class Master extends AbstractActor {
    private final int workers;
    private final ActorRef observer; // told the pool's Routees once it is up, or null
    private final TreeMap<Integer, Long> results = new TreeMap<>();
    private ActorRef client;
    private ActorRef pool;
    private Job job;

    Master(int workers, ActorRef observer) {
      this.workers = workers;
      this.observer = observer;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().match(Job.class, this::start).build();
    }

    private void start(Job j) {
      job = j;
      client = getSender();
      SupervisorStrategy twoRestarts =
          new OneForOneStrategy(2, Duration.ofMinutes(1), DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
      pool = getContext().actorOf(
          Props.create(Worker.class).withRouter(new RoundRobinPool(workers).withSupervisorStrategy(twoRestarts)),
          "workers");
      pool.tell(GetRoutees.getInstance(), getSelf());
      getContext().become(receiveBuilder().match(Routees.class, this::dispatch).build());
    }

    private void dispatch(Routees routees) {
      if (observer != null) {
        observer.tell(routees, getSelf());
      }
      for (Routee r : routees.routees()) {
        getContext().watch(((ActorRefRoutee) r).ref());
      }
      List<Integer> inputs = job.inputs();
      for (int i = 0; i < inputs.size(); i++) {
        pool.tell(new Task(i, inputs.get(i), i == job.poisonedTask()), getSelf());
      }
      getContext().become(receiveBuilder()
          .match(TaskDone.class, this::collect)
          .match(Terminated.class, this::abort)
          .build());
    }

    private void collect(TaskDone done) {
      results.put(done.taskId(), done.result());
      if (results.size() == job.inputs().size()) {
        long sum = results.values().stream().mapToLong(Long::longValue).sum();
        client.tell(new JobDone(job.id(), sum), getSelf());
        getContext().stop(getSelf());
      }
    }

    private void abort(Terminated t) {
      client.tell(new JobAborted(job.id(), "worker " + t.actor().path().name() + " was stopped after repeated failures; "
          + results.size() + " of " + job.inputs().size() + " tasks had completed"), getSelf());
      getContext().stop(getSelf()); // stops the pool and the remaining workers with it
    }
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    atLeast("--tasks", tasks, 1);
    atLeast("--workers", workers, 1);
    atLeast("--poison-task", poison, -1);
    ActorSystem system = ActorSystem.create("watch-the-routees");
    try {
      out.println(runJob(system, tasks, workers, poison, null));
      return 0;
    } finally {
      system.terminate().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Runs one job on {@code system}: a {@code /user/master} with a pool of {@code workers}.
   *
   * @param system the system of the master
   * @param tasks the job's size: the inputs are 1..tasks
   * @param workers the pool's size
   * @param poison the number of the task that always fails, -1 for none
   * @param observer told the pool's {@link Routees} once it is up, or null
   * @return how it ended, one line
   * @throws Exception if the job gives no answer in 15 s
   */
  public static String runJob(ActorSystem system, int tasks, int workers, int poison, ActorRef observer)
      throws Exception {
    List<Integer> inputs = new ArrayList<>();
    for (int i = 1; i <= tasks; i++) {
      inputs.add(i);
    }
    ActorRef master = system.actorOf(Props.create(Master.class, workers, observer), "master");
    Object answer = Patterns.ask(master, new Job("job-1", inputs, poison), Duration.ofSeconds(10))
        .toCompletableFuture()
        .get(15, TimeUnit.SECONDS);
    if (answer instanceof JobDone d) {
      return "job " + d.jobId() + " done: sum of squares of 1.." + tasks + " = " + d.sum();
    }
    JobAborted a = (JobAborted) answer;
    return "job " + a.jobId() + " aborted: " + a.reason();
  }

  /**
   * Runs one job as {@link #runJob} does, for the samples whose workers live on other nodes
   * ({@code remote-workers}, {@code cluster-workers}): first a line per worker, {@code worker NAME on
   * NODE: PATH}, showing where its pool put it, then how the job ended.
   *
   * @param system the system of the master
   * @param tasks the job's size: the inputs are 1..tasks
   * @param workers the pool's size
   * @param poison the number of the task that always fails, -1 for none
   * @param out where the lines go
   * @throws Exception if the job or the pool's routees give no answer in time
   */
  public static void runJobShowingWorkers(ActorSystem system, int tasks, int workers, int poison, PrintStream out)
      throws Exception {
    CompletableFuture<List<ActorRef>> routees = new CompletableFuture<>();
    ActorRef observer = system.actorOf(Props.create(RouteesObserver.class, routees), "observer");
    String outcome = runJob(system, tasks, workers, poison, observer);
    for (ActorRef r : routees.get(10, TimeUnit.SECONDS)) {
      out.println("worker " + r.path().name() + " on " + r.path().address() + ": " + r.path());
    }
    out.println(outcome);
  }

  /** Completes with the pool's routees when the master tells it. */
  static final class RouteesObserver extends AbstractActor {
    private final CompletableFuture<List<ActorRef>> routees;

    RouteesObserver(CompletableFuture<List<ActorRef>> routees) {
      this.routees = routees;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Routees.class, r -> {
            List<ActorRef> refs = new ArrayList<>();
            for (Routee routee : r.routees()) {
              refs.add(((ActorRefRoutee) routee).ref());
            }
            routees.complete(refs);
          })
          .build();
    }
  }
}
