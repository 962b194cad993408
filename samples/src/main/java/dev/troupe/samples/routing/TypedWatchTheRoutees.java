package dev.troupe.samples.routing;

import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.PreRestart;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code watch-the-routees} written typed: a master splits a job into tasks for a pool of workers it
 * spawns and watches, and either aggregates every task's result into one answer or, as soon as a
 * worker dies, aborts the whole job.
 *
 * <p>What changes from the classic sample: the protocol is typed (a task carries the ref its result
 * goes to, the master answers the job's {@code replyTo}); the master is the pool, sending task
 * {@code i} to worker {@code i mod n}; each worker runs under {@code Behaviors.supervise}, restarted
 * on a {@link PoisonedTask} at most twice a minute, and retries the failed task from its {@code
 * PreRestart} signal; a worker that fails a third time stops, and the master, which watches every
 * worker with {@code watchWith}, gets a {@link WorkerStopped} message and aborts.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar typed-routees --tasks 10 --workers 3
 * java -jar samples/target/troupe-samples.jar typed-routees --tasks 10 --poison-task 4
 * </pre>
 */
@Command(name = "typed-routees", description = "watch-the-routees written typed: supervised workers, watchWith, typed replies")
public final class TypedWatchTheRoutees extends Sample {
  @Option(names = "--tasks", paramLabel = "N", description = "tasks in the job (task i squares i) (default ${DEFAULT-VALUE})")
  private int tasks = 10;

  @Option(names = "--workers", paramLabel = "N", description = "workers in the pool (default ${DEFAULT-VALUE})")
  private int workers = 3;

  @Option(names = "--poison-task", paramLabel = "N",
      description = "the task that always fails (0-based), -1 for none (default ${DEFAULT-VALUE})")
  private int poison = -1;

  /** How a job ended. */
  public sealed interface Result {}

  /** Every task is done. */
  public record JobDone(String jobId, long sum) implements Result {}

  /** A worker died. */
  public record JobAborted(String jobId, String reason) implements Result {}

  /** A poisoned task's failure; part of the story, so an {@link ExpectedFailure}. */
  static final class PoisonedTask extends RuntimeException implements ExpectedFailure {
    private static final long serialVersionUID = 1L;

    PoisonedTask(int taskId) {
      super("task " + taskId + " is poisoned");
    }
  }

  /** One task of a job, for a worker. */
  public record Task(int taskId, int input, boolean poisoned, ActorRef<TaskDone> replyTo) {}

  /** Squares numbers; fails on poisoned tasks and retries the failed task after its restart. */
  static final class Worker extends AbstractBehavior<Task> {
    private Task current;

    /** @return a worker restarted on a poisoned task at most twice a minute, then stopped */
    static Behavior<Task> supervised() {
      return Behaviors.supervise(Behaviors.setup(Worker::new))
          .onFailure(PoisonedTask.class, SupervisorStrategy.restart().withLimit(2, Duration.ofMinutes(1)));
    }

    private Worker(ActorContext<Task> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Task> createReceive() {
      return newReceiveBuilder()
          .onMessage(Task.class, t -> {
            current = t;
            if (t.poisoned()) {
              throw new PoisonedTask(t.taskId());
            }
            t.replyTo().tell(new TaskDone(t.taskId(), (long) t.input() * t.input()));
            return this;
          })
          .onSignal(PreRestart.class, s -> {
            getContext().getSelf().tell(current); // retry: the restarted worker gets the task again
            return this;
          })
          .build();
    }
  }

  /** What the master accepts. */
  public sealed interface Command {}

  /** A job: square each input and add the squares up. */
  public record Job(String id, List<Integer> inputs, int poisonedTask, ActorRef<Result> replyTo) implements Command {}

  /** A worker's answer. */
  public record TaskDone(int taskId, long result) implements Command {}

  /** A watched worker stopped. */
  public record WorkerStopped(ActorRef<Task> worker) implements Command {}

  /** Runs one job with a pool of {@code workers}, answers it and stops (its workers with it). */
  static final class Master extends AbstractBehavior<Command> {
    private final int workers;
    private final TreeMap<Integer, Long> results = new TreeMap<>();
    private Job job;

    Master(ActorContext<Command> ctx, int workers) {
      super(ctx);
      this.workers = workers;
    }

    @Override
    public Receive<Command> createReceive() {
      return newReceiveBuilder().onMessage(Job.class, this::start).build();
    }

    private Behavior<Command> start(Job j) {
      job = j;
      List<ActorRef<Task>> pool = new ArrayList<>(workers);
      for (int i = 1; i <= workers; i++) {
        ActorRef<Task> w = getContext().spawn(Worker.supervised(), "worker-" + i);
        getContext().watchWith(w, new WorkerStopped(w));
        pool.add(w);
      }
      ActorRef<TaskDone> self = getContext().getSelf().narrow();
      List<Integer> inputs = j.inputs();
      for (int i = 0; i < inputs.size(); i++) {
        pool.get(i % workers).tell(new Task(i, inputs.get(i), i == j.poisonedTask(), self));
      }
      return newReceiveBuilder()
          .onMessage(TaskDone.class, this::collect)
          .onMessage(WorkerStopped.class, this::abort)
          .build();
    }

    private Behavior<Command> collect(TaskDone done) {
      results.put(done.taskId(), done.result());
      if (results.size() < job.inputs().size()) {
        return Behaviors.same();
      }
      long sum = results.values().stream().mapToLong(Long::longValue).sum();
      job.replyTo().tell(new JobDone(job.id(), sum));
      return Behaviors.stopped();
    }

    private Behavior<Command> abort(WorkerStopped s) {
      job.replyTo().tell(new JobAborted(job.id(), "worker " + s.worker().path().name()
          + " was stopped after repeated failures; " + results.size() + " of " + job.inputs().size()
          + " tasks had completed"));
      return Behaviors.stopped(); // stops the remaining workers with it
    }
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    atLeast("--tasks", tasks, 1);
    atLeast("--workers", workers, 1);
    atLeast("--poison-task", poison, -1);
    out.println(runJob(tasks, workers, poison));
    return 0;
  }

  /**
   * Runs one job in a typed system whose guardian is the master.
   *
   * @param tasks the job's size: the inputs are 1..tasks
   * @param workers the pool's size
   * @param poison the number of the task that always fails, -1 for none
   * @return how it ended, one line
   * @throws Exception if the job gives no answer in 15 s
   */
  public static String runJob(int tasks, int workers, int poison) throws Exception {
    List<Integer> inputs = new ArrayList<>();
    for (int i = 1; i <= tasks; i++) {
      inputs.add(i);
    }
    ActorSystem<Command> system =
        ActorSystem.create(Behaviors.<Command>setup(ctx -> new Master(ctx, workers)), "typed-routees");
    try {
      Result answer = AskPattern.<Command, Result>ask(
              system, r -> new Job("job-1", inputs, poison, r), Duration.ofSeconds(10), system.scheduler())
          .toCompletableFuture()
          .get(15, TimeUnit.SECONDS);
      if (answer instanceof JobDone d) {
        return "job " + d.jobId() + " done: sum of squares of 1.." + tasks + " = " + d.sum();
      }
      JobAborted a = (JobAborted) answer;
      return "job " + a.jobId() + " aborted: " + a.reason();
    } finally {
      system.terminate().toCompletableFuture().get(30, TimeUnit.SECONDS); // the master stopped: already under way
    }
  }
}
