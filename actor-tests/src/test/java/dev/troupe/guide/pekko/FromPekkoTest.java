package dev.troupe.guide.pekko;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.AbstractLoggingActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.Done;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Kill;
import dev.troupe.actor.Logging;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.BackoffOpts;
import dev.troupe.pattern.BackoffSupervisor;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.Broadcast;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.Routees;
import dev.troupe.routing.SmallestMailboxPool;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The classic name map of {@code docs/from-pekko.md}, compiled and run: every Troupe name the page
 * maps a Pekko name to is written in one of these regions (see {@code FromPekkoSnippetsMatchTest}).
 */
@ExtendWith(ActorSystemExtension.class)
class FromPekkoTest {
  /** The page's configuration blocks. */
  private static final Path CONF = Path.of("src/test/resources/guide/pekko/from-pekko.conf");

  /** The lines of a region of a configuration file, between its tag and end marker lines. */
  static String region(Path file, String name) throws IOException {
    List<String> lines = Files.readAllLines(Files.exists(file) ? file : Path.of("actor-tests").resolve(file));
    int from = lines.indexOf("# tag::" + name + "[]");
    int to = lines.indexOf("# end::" + name + "[]");
    assertTrue(from >= 0 && to > from, "region " + name + " in " + file);
    return String.join("\n", lines.subList(from + 1, to));
  }

  record Job(int id) implements JsonMessage {}

  record Finished(int id) implements JsonMessage {}

  // tag::pekko-actor[]
  static final class Worker extends AbstractLoggingActor {               // AbstractActor, AbstractActorWithStash, ... too
    @Override
    public void preStart() {
      getContext().setReceiveTimeout(Duration.ofSeconds(30));
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Job.class, job -> {
            log().info("job {}", job.id());
            getSender().tell(new Finished(job.id()), getSelf());
          })
          .match(ReceiveTimeout.class, t -> getContext().cancelReceiveTimeout())
          .matchEquals("boom", m -> { throw new IllegalStateException("boom"); })
          .matchAny(this::unhandled)
          .build();
    }
  }

  static final class Manager extends AbstractActorWithTimers {
    private final LoggingAdapter log = Logging.getLogger(getContext().getSystem(), this); // pekko.event -> troupe.actor
    private final ActorRef worker = getContext().actorOf(Props.create(Worker.class), "worker");

    @Override
    public void preStart() {
      getContext().watch(worker);
      getTimers().startSingleTimer("tick", "tick", Duration.ofMillis(10));
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("tick", t -> getContext().getParent().tell("ticked", getSelf()))
          .match(Job.class, job -> worker.forward(job, getContext()))
          .match(Terminated.class, t -> {
            log.info("worker {} stopped", t.getActor().path().name());
            getContext().stop(getSelf());
          })
          .matchEquals("later", m -> {
            Executor ec = getContext().getDispatcher();                     // an Executor, not a Scala ExecutionContext
            CompletionStage<Object> answer = Patterns.ask(worker, new Job(9), Duration.ofSeconds(3));
            Patterns.pipe(answer, ec).to(getSender());
          })
          .build();
    }
  }
  // end::pekko-actor[]

  static final class Supervising extends AbstractLoggingActor {
    // tag::pekko-supervision[]
    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(10, Duration.ofMinutes(1),
          DeciderBuilder.match(IllegalArgumentException.class, e -> SupervisorStrategy.resume())
              .orMatch(IllegalStateException.class, e -> SupervisorStrategy.restart())   // Pekko: .match(...)
              .orMatchRemote(ArithmeticException.class, e -> SupervisorStrategy.stop())  // a child on another node
              .orMatchAny(e -> SupervisorStrategy.escalate())                          // Pekko: .matchAny(...)
              .build());
    }
    // end::pekko-supervision[]

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("child", m -> getSender().tell(getContext().actorOf(Props.create(Worker.class)), getSelf()))
          .build();
    }
  }

  @Test
  void theSystemsNames() throws Exception {
    // tag::pekko-system[]
    ActorSystem system = ActorSystem.create("jobs");           // reads application.conf; keys under troupe, not pekko
    ActorRef worker = system.actorOf(Props.create(Worker.class), "worker");
    worker.tell(new Job(1), ActorRef.noSender());
    CompletionStage<Object> answer = Patterns.ask(worker, new Job(2), Duration.ofSeconds(3));
    ActorSelection selection = system.actorSelection("/user/worker");
    ActorRef found = selection.resolveOne(Duration.ofSeconds(3)).toCompletableFuture().get();
    selection.tell(new Identify("id"), ActorRef.noSender());
    Cancellable later = system.getScheduler().scheduleOnce(
        Duration.ofMillis(50), worker, new Job(3), system.getDispatcher(), ActorRef.noSender());
    system.getEventStream().subscribe(worker, DeadLetter.class);
    system.getEventStream().publish(new Job(4));
    Props backoff = BackoffSupervisor.props(BackoffOpts.onFailure(
        Props.create(Worker.class), "w", Duration.ofMillis(100), Duration.ofSeconds(10), 0.2));
    worker.tell(Kill.getInstance(), ActorRef.noSender());       // and PoisonPill.getInstance()
    CompletionStage<Boolean> stopped = Patterns.gracefulStop(found, Duration.ofSeconds(3));
    CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseServiceUnbind(), "unbind",
        () -> CompletableFuture.completedFuture(Done.getInstance()));
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    // end::pekko-system[]
    assertEquals(new Finished(2), answer.toCompletableFuture().get());
    assertEquals(worker, found);
    assertTrue(stopped.toCompletableFuture().get(), "the worker stopped");
    later.cancel();
    assertTrue(backoff.actorClass().getSimpleName().contains("Backoff"), backoff.toString());
  }

  @Test
  void theManagerTicksForwardsPipesAndStopsWithItsWorker(ActorSystem system, TestKit kit) {
    ActorRef manager = kit.childActorOf(Props.create(Manager.class));
    kit.expectMsg("ticked");                                   // its timer, to its parent
    kit.send(manager, new Job(11));                            // forwarded: the worker answers the kit
    assertEquals(new Finished(11), kit.expectMsgClass(Finished.class));
    assertEquals("worker", kit.getLastSender().path().name());
    kit.send(manager, "later");                                // asked, then piped to the kit
    assertEquals(new Finished(9), kit.expectMsgClass(Finished.class));
    kit.watch(manager);
    system.actorSelection(manager.path().child("worker")).tell(PoisonPill.getInstance(), ActorRef.noSender());
    kit.expectTerminated(manager);                             // its worker's Terminated stops it
  }

  @Test
  void theShutdownPhasesAreThoseOfPekkosJavaApi(ActorSystem system) {
    // tag::pekko-phases[]
    List<String> phases = List.of(                            // Pekko has cluster phases too
        CoordinatedShutdown.PhaseBeforeServiceUnbind(),       // or PHASE_BEFORE_SERVICE_UNBIND, ...
        CoordinatedShutdown.PhaseServiceUnbind(),
        CoordinatedShutdown.PhaseServiceRequestsDone(),
        CoordinatedShutdown.PhaseServiceStop(),
        CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
        CoordinatedShutdown.PhaseActorSystemTerminate());
    // end::pekko-phases[]
    // troupe-cluster is on this module's test class path and adds cluster-leave and cluster-exiting
    assertEquals(phases, CoordinatedShutdown.get(system).phases().stream().filter(p -> !p.startsWith("cluster-")).toList());
    assertTrue(CoordinatedShutdown.get(system).phases().containsAll(List.of("cluster-leave", "cluster-exiting")));
  }

  @Test
  void routersAndTheirNames() {
    ActorSystem system = ActorSystem.create("routers", ConfigFactory.parseString(
        "troupe.actor.deployment./workers { router = round-robin-pool, nr-of-instances = 2 }"));
    try {
      TestProbe probe = new TestProbe(system);
      system.actorOf(Props.create(Worker.class), "a");
      system.actorOf(Props.create(Worker.class), "b");
      // tag::pekko-routers[]
      ActorRef pool = system.actorOf(Props.create(Worker.class)
          .withRouter(new RoundRobinPool(5).withResizer(new DefaultResizer(2, 15))), "pool");
      ActorRef group = system.actorOf(new RoundRobinGroup(List.of("/user/a", "/user/b")).props(), "group");
      ActorRef configured = system.actorOf(FromConfig.getInstance().props(Props.create(Worker.class)), "workers");
      ActorRef balancing = system.actorOf(new BalancingPool(4).props(Props.create(Worker.class)), "balancing");
      ActorRef smallest = system.actorOf(Props.create(Worker.class).withRouter(new SmallestMailboxPool(3)));
      pool.tell(new Broadcast(new Job(5)), probe.getRef());
      pool.tell(GetRoutees.getInstance(), probe.getRef());       // answers Routees
      // end::pekko-routers[]
      List<Object> got = probe.receiveN(6);                      // five routees' answers and Routees, in no promised order
      assertEquals(5, got.stream().filter(new Finished(5)::equals).count(), got.toString());
      assertEquals(5, got.stream().filter(Routees.class::isInstance).map(r -> ((Routees) r).routees().size()).findFirst().orElse(0));
      TestProbe other = new TestProbe(system);
      for (ActorRef r : List.of(group, configured, balancing, smallest)) {
        r.tell(new Job(6), other.getRef());
        assertEquals(new Finished(6), other.expectMsgClass(Finished.class), r.toString());
      }
    } finally {
      TestKit.shutdownActorSystem(system);
    }
  }

  @Test
  void theDeciderRestartsAChildOnIllegalState(ActorSystem system) {
    TestProbe probe = new TestProbe(system);
    ActorRef parent = system.actorOf(Props.create(Supervising.class));
    probe.send(parent, "child");
    ActorRef child = probe.expectMsgClass(ActorRef.class);
    probe.watch(child);
    probe.send(child, "boom");                                 // IllegalStateException: restart, not stop
    probe.send(child, new Job(7));
    assertEquals(new Finished(7), probe.expectMsgClass(Finished.class));
  }

  /** Starts a system with the page's configuration blocks and checks that none of its keys is unknown. */
  @Test
  void thePagesConfigurationIsKnownToTroupe() throws Exception {
    Config dispatchers = ConfigFactory.parseString(region(CONF, "pekko-dispatchers"));
    Config remote = ConfigFactory.parseString(region(CONF, "pekko-remote"));
    Config config = ConfigFactory.parseString("troupe.remote.canonical.port = 0")
        .withFallback(remote).withFallback(dispatchers).withFallback(ConfigFactory.load());
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor.pekko");
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    ActorSystem system = ActorSystem.create("pekko", config.resolve());
    try {
      List<String> warnings = log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
          .map(ILoggingEvent::getFormattedMessage).toList();
      assertEquals(List.of(), warnings, "warnings at start");
      TestProbe probe = new TestProbe(system);
      for (String d : List.of("blocking-io-dispatcher", "troupe.actor.default-dispatcher")) {
        probe.send(system.actorOf(Props.create(Worker.class).withDispatcher(d)), new Job(8));
        assertEquals(new Finished(8), probe.expectMsgClass(Finished.class));
      }
      // tag::pekko-address[]
      Address address = system.address();                      // troupe://pekko@127.0.0.1:<port>, was pekko://
      ActorSelection remoteWorker = system.actorSelection(address + "/user/worker");
      // end::pekko-address[]
      assertEquals("troupe", address.protocol());
      system.actorOf(Props.create(Worker.class), "worker");
      remoteWorker.tell(new Job(10), probe.getRef());
      assertEquals(new Finished(10), probe.expectMsgClass(Finished.class));
    } finally {
      logger.detachAppender(log);
      TestKit.shutdownActorSystem(system);
    }
  }

  @Nested
  // tag::pekko-testkit[]
  @ExtendWith(ActorSystemExtension.class)                         // a fresh system per test, shut down verified
  class WorkerTest {
    @Test
    void answers(ActorSystem system, TestKit kit) {
      ActorRef worker = system.actorOf(Props.create(Worker.class));
      kit.send(worker, new Job(1));                                 // or worker.tell(new Job(1), kit.getRef())
      kit.expectMsg(Duration.ofSeconds(3), new Finished(1));
      TestProbe probe = new TestProbe(system);
      probe.send(worker, new Job(2));
      kit.awaitAssert(() -> probe.expectMsg(new Finished(2)));       // retries failed assertions and exceptions
      ActorRef forward = system.actorOf(TestActors.forwardActorProps(worker)); // Pekko's TestActors names
      kit.send(forward, new Job(3));
      kit.expectMsg(new Finished(3));
      probe.watch(worker);
      worker.tell(PoisonPill.getInstance(), ActorRef.noSender());
      probe.expectTerminated(worker);
      kit.expectNoMessage(Duration.ofMillis(100));
    }
  }
  // end::pekko-testkit[]
}
