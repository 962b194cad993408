package dev.troupe.guide.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorRefResolver;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ChildFailed;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.SpawnProtocol;
import dev.troupe.actor.typed.StatusReply;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.Terminated;
import dev.troupe.actor.typed.eventstream.EventStream;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import dev.troupe.actor.typed.javadsl.Routers;
import dev.troupe.actor.typed.pubsub.Topic;
import dev.troupe.actor.typed.javadsl.StashBuffer;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import dev.troupe.testkit.typed.ActorTestKitExtension;
import dev.troupe.testkit.typed.BehaviorTestKit;
import dev.troupe.testkit.typed.Effect;
import dev.troupe.testkit.typed.TestInbox;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The typed guide (docs/typed.md) and the classic-to-typed page: compiled and run. */
class TypedGuideTest {
  // tag::typed-testkit[]
  @RegisterExtension                         // one ActorTestKit (a typed system) for the class
  static final ActorTestKitExtension testKit = new ActorTestKitExtension();
  // end::typed-testkit[]

  // tag::typed-counter[]
  public static final class Counter extends AbstractBehavior<Counter.Command> {
    public sealed interface Command {}
    public record Increment(int by) implements Command {}
    public record Get(ActorRef<Integer> replyTo) implements Command {}

    public static Behavior<Command> create() {
      return Behaviors.setup(Counter::new);
    }

    private int n;                            // only this actor touches it

    private Counter(ActorContext<Command> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Command> createReceive() {
      return newReceiveBuilder()
          .onMessage(Increment.class, i -> { n += i.by(); return this; })
          .onMessage(Get.class, g -> { g.replyTo().tell(n); return this; })
          .onSignal(PostStop.class, s -> { getContext().getLog().info("stopped at {}", n); return this; })
          .build();
    }
  }
  // end::typed-counter[]

  @Test
  void theCounterCountsAndAnswersAnAsk() throws Exception {
    // tag::typed-main[]
    ActorSystem<Counter.Command> system = ActorSystem.create(Counter.create(), "counter");
    system.tell(new Counter.Increment(2));                        // the system is its guardian's ref
    CompletionStage<Integer> n =
        AskPattern.ask(system, Counter.Get::new, Duration.ofSeconds(1), system.scheduler());
    // end::typed-main[]
    try {
      assertEquals(2, n.toCompletableFuture().get(5, TimeUnit.SECONDS));
    } finally {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  // tag::typed-quickstart[]
  sealed interface Command {}
  record Greet(String who, ActorRef<String> replyTo) implements Command {}

  static Behavior<Command> greeter(int greeted) {
    return Behaviors.receive(Command.class)
        .onMessage(Greet.class, g -> {
          g.replyTo().tell("Hello, " + g.who() + " #" + (greeted + 1));
          return greeter(greeted + 1);
        })
        .build();
  }
  // end::typed-quickstart[]

  @Test
  void theQuickStartGreets() throws Exception {
    // tag::typed-quickstart-main[]
    ActorSystem<Command> system = ActorSystem.create(greeter(0), "quickstart");   // dev.troupe.actor.typed
    String reply = AskPattern.ask(system, (ActorRef<String> r) -> new Greet("Troupe", r),
        Duration.ofSeconds(1), system.scheduler()).toCompletableFuture().get();     // "Hello, Troupe #1"
    system.terminate();
    // end::typed-quickstart-main[]
    assertEquals("Hello, Troupe #1", reply);
    system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  // tag::typed-functional[]
  sealed interface Light {}
  record Switch() implements Light {}
  record Query(ActorRef<String> replyTo) implements Light {}

  static Behavior<Light> off() {
    return Behaviors.receive(Light.class)
        .onMessage(Switch.class, s -> on())                      // the next behaviour
        .onMessage(Query.class, q -> { q.replyTo().tell("off"); return Behaviors.same(); })
        .build();
  }

  static Behavior<Light> on() {
    return Behaviors.receive(Light.class)
        .onMessage(Switch.class, s -> off())
        .onMessage(Query.class, q -> { q.replyTo().tell("on"); return Behaviors.same(); })
        .build();
  }
  // end::typed-functional[]

  @Test
  void theLightSwitchesBetweenTwoBehaviors() {
    TestProbe<String> probe = testKit.createTestProbe();
    ActorRef<Light> light = testKit.spawn(off(), "light");
    light.tell(new Query(probe.getRef()));
    light.tell(new Switch());
    light.tell(new Query(probe.getRef()));
    probe.expectMessage("off");
    probe.expectMessage("on");
  }

  // tag::typed-children[]
  sealed interface Boss {}
  record Hire(String name) implements Boss {}
  record WorkDone(String result) implements Boss {}            // what a worker's answer becomes

  static Behavior<Boss> boss(ActorRef<String> log) {
    return Behaviors.setup(ctx -> {
      ActorRef<String> results = ctx.messageAdapter(String.class, WorkDone::new);
      return Behaviors.receive(Boss.class)
          .onMessage(Hire.class, h -> {
            ActorRef<Work> worker = ctx.spawn(worker(), h.name());
            ctx.watch(worker);                                  // its stop becomes a signal
            worker.tell(new Work("task for " + h.name(), results));
            return Behaviors.same();
          })
          .onMessage(WorkDone.class, w -> { log.tell(w.result()); return Behaviors.same(); })
          .onSignal(ChildFailed.class, f -> { log.tell("failed: " + f.getCause().getMessage()); return Behaviors.same(); })
          .onSignal(Terminated.class, t -> { log.tell("done: " + t.getRef().path().name()); return Behaviors.same(); })
          .build();
    });
  }

  record Work(String task, ActorRef<String> replyTo) {}

  static Behavior<Work> worker() {
    return Behaviors.receiveMessage(w -> {
      if (w.task().contains("bob")) {
        throw new IllegalStateException("bob cannot work");    // unsupervised: the worker stops
      }
      w.replyTo().tell(w.task() + ": ok");
      return Behaviors.stopped();
    });
  }
  // end::typed-children[]

  @Test
  void theBossHearsFromItsWorkersAndOfTheirEnd() {
    TestProbe<String> log = testKit.createTestProbe();
    ActorRef<Boss> boss = testKit.spawn(boss(log.getRef()));
    boss.tell(new Hire("alice"));
    log.expectMessage("task for alice: ok");
    log.expectMessage("done: alice");
    boss.tell(new Hire("bob"));
    log.expectMessage("failed: bob cannot work");
  }

  // tag::typed-ask[]
  record Divide(int a, int b, ActorRef<StatusReply<Integer>> replyTo) {}

  static final Behavior<Divide> DIVIDER = Behaviors.receiveMessage(d -> {
    d.replyTo().tell(d.b() == 0 ? StatusReply.error("division by zero") : StatusReply.success(d.a() / d.b()));
    return Behaviors.same();
  });

  static Behavior<String> asker(ActorRef<Divide> divider, ActorRef<String> out) {
    return Behaviors.setup(ctx -> {
      ctx.askWithStatus(Integer.class, divider, Duration.ofSeconds(1),
          replyTo -> new Divide(7, 0, replyTo),
          (result, failure) -> failure == null ? "7/0 = " + result : "no: " + failure.getMessage());
      return Behaviors.receiveMessage(m -> { out.tell(m); return Behaviors.same(); });
    });
  }
  // end::typed-ask[]

  @Test
  void theAskerGetsTheErrorAsAMessage() {
    TestProbe<String> out = testKit.createTestProbe();
    testKit.spawn(asker(testKit.spawn(DIVIDER), out.getRef()));
    out.expectMessage("no: division by zero");
  }

  static Behavior<String> fetcher(ActorRef<String> out) {
    return Behaviors.receiveMessage(url -> {
      if (url.startsWith("bad")) {
        throw new IllegalStateException("cannot fetch " + url);
      }
      out.tell("fetched " + url);
      return Behaviors.same();
    });
  }

  @Test
  void aSupervisedFetcherRestarts() {
    TestProbe<String> out = testKit.createTestProbe();
    // tag::typed-supervise[]
    Behavior<String> supervised =
        Behaviors.supervise(fetcher(out.getRef()))
            .onFailure(IllegalStateException.class,
                SupervisorStrategy.restart().withLimit(3, Duration.ofMinutes(1)));   // a 4th failure stops it
    Behavior<String> patient =
        Behaviors.supervise(fetcher(out.getRef()))
            .onFailure(IllegalStateException.class,
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(100), Duration.ofSeconds(10), 0.2));
    // end::typed-supervise[]
    ActorRef<String> f = testKit.spawn(supervised);
    f.tell("bad-url");
    f.tell("good-url");
    out.expectMessage("fetched good-url");
    ActorRef<String> p = testKit.spawn(patient);
    p.tell("bad-url");
    p.tell("later-url");
    out.expectMessage("fetched later-url");
  }

  // tag::typed-timers-stash[]
  sealed interface Loader {}
  record Loaded(String data) implements Loader {}
  record Read(ActorRef<String> replyTo) implements Loader {}
  record Tick() implements Loader {}

  static Behavior<Loader> loader() {
    return Behaviors.withStash(100, stash -> Behaviors.withTimers(timers -> {
      timers.startSingleTimer("load", new Tick(), Duration.ofMillis(50));   // pretend loading takes 50 ms
      return Behaviors.receive(Loader.class)
          .onMessage(Tick.class, t -> stash.unstashAll(ready("data")))     // now answer what waited
          .onMessage(Read.class, r -> { stash.stash(r); return Behaviors.same(); })
          .build();
    }));
  }

  static Behavior<Loader> ready(String data) {
    return Behaviors.receive(Loader.class)
        .onMessage(Read.class, r -> { r.replyTo().tell(data); return Behaviors.same(); })
        .build();
  }
  // end::typed-timers-stash[]

  @Test
  void readsThatCameEarlyAreAnsweredOnceLoaded() {
    TestProbe<String> probe = testKit.createTestProbe();
    ActorRef<Loader> l = testKit.spawn(loader());
    l.tell(new Read(probe.getRef()));
    l.tell(new Read(probe.getRef()));
    probe.expectMessage("data");
    probe.expectMessage("data");
  }

  @Test
  void theReceptionistFindsARegisteredService() {
    ActorSystem<Void> system = testKit.testKit().system();
    TestProbe<Receptionist.Listing> probe = testKit.createTestProbe();
    // tag::typed-receptionist[]
    ServiceKey<Work> workers = ServiceKey.create(Work.class, "workers");
    ActorRef<Work> w = testKit.spawn(worker());
    system.receptionist().tell(Receptionist.register(workers, w));
    system.receptionist().tell(Receptionist.subscribe(workers, probe.getRef()));  // now and on every change
    // end::typed-receptionist[]
    probe.awaitAssert(() -> {
      system.receptionist().tell(Receptionist.find(workers, probe.getRef()));
      Set<ActorRef<Work>> found = probe.receiveMessage().getServiceInstances(workers);
      assertEquals(Set.of(w), found);
      return null;
    });
  }

  // tag::typed-routers-worker[]
  record Job(String id, ActorRef<String> replyTo) {}

  static Behavior<Job> jobWorker() {
    return Behaviors.receive((ctx, job) -> {
      job.replyTo().tell(job.id() + " done by " + ctx.getSelf().path().name());
      return Behaviors.same();
    });
  }
  // end::typed-routers-worker[]

  @Test
  void routersSpreadJobsOverAPoolOrAGroup() {
    ActorSystem<Void> system = testKit.testKit().system();
    TestProbe<String> probe = testKit.createTestProbe();
    // tag::typed-routers[]
    ActorRef<Job> pool = testKit.spawn(Routers.pool(4, jobWorker()));           // four children, in turn
    ActorRef<Job> byId = testKit.spawn(Routers.pool(4, jobWorker())
        .withConsistentHashingRouting(10, Job::id));                             // one id, one worker

    ServiceKey<Job> jobs = ServiceKey.create(Job.class, "jobs");
    system.receptionist().tell(Receptionist.register(jobs, testKit.spawn(jobWorker(), "listed")));
    ActorRef<Job> group = testKit.spawn(Routers.group(jobs));                    // whoever is listed
    // end::typed-routers[]
    Set<String> workers = new java.util.HashSet<>();
    for (int i = 0; i < 4; i++) {
      pool.tell(new Job("p" + i, probe.getRef()));
      workers.add(probe.receiveMessage().replaceFirst(".* done by ", ""));
    }
    assertEquals(4, workers.size(), "four jobs, four routees: " + workers);
    byId.tell(new Job("x", probe.getRef()));
    String first = probe.receiveMessage();
    byId.tell(new Job("x", probe.getRef()));
    assertEquals(first, probe.receiveMessage(), "the same id reaches the same worker");
    group.tell(new Job("g", probe.getRef()));
    probe.expectMessage("g done by listed");
  }

  @Test
  void aTopicDeliversToEverySubscriber() {
    TestProbe<String> reader = testKit.createTestProbe();
    // tag::typed-topics[]
    ActorRef<Topic.Command<String>> news = testKit.spawn(Topic.create(String.class, "news"), "news");
    news.tell(Topic.subscribe(reader.getRef()));        // until the reader stops or unsubscribes
    news.tell(Topic.publish("extra! extra!"));          // to every subscriber, on every member
    // end::typed-topics[]
    reader.expectMessage("extra! extra!");
  }

  // tag::typed-event-stream[]
  /** Tells {@code out} a line for each dead letter of the system. */
  static Behavior<String> deadLetterLog(ActorRef<String> out) {
    return Behaviors.setup(ctx -> {
      ActorRef<DeadLetter> letters = ctx.messageAdapter(DeadLetter.class, d -> "lost: " + d.message());
      ctx.getSystem().eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, letters));
      return Behaviors.receiveMessage(line -> {
        out.tell(line);
        return Behaviors.same();
      });
    });
  }
  // end::typed-event-stream[]

  @Test
  void deadLettersReachATypedActorThroughTheEventStream() {
    TestProbe<String> out = testKit.createTestProbe();
    ActorRef<String> log = testKit.spawn(deadLetterLog(out.getRef()));
    log.tell("started"); // handled after the setup: the subscription is in place
    out.expectMessage("started");
    ActorRef<String> gone = testKit.spawn(Behaviors.<String>stopped());
    testKit.createTestProbe().expectTerminated(gone);
    gone.tell("a letter");
    out.expectMessage("lost: a letter");
  }

  @Test
  void aSpawnProtocolGuardianStartsActorsForCallersOutsideAnyActor() throws Exception {
    // tag::typed-spawn-protocol[]
    ActorSystem<SpawnProtocol.Command> app = ActorSystem.create(SpawnProtocol.create(), "app");
    CompletionStage<ActorRef<Work>> started = AskPattern.ask(app,
        replyTo -> new SpawnProtocol.Spawn<>(worker(), "worker", Props.empty(), replyTo),
        Duration.ofSeconds(3), app.scheduler());
    // end::typed-spawn-protocol[]
    try {
      ActorRef<Work> w = started.toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertEquals("worker", w.path().name());
      TestProbe<String> probe = testKit.createTestProbe();
      w.tell(new Work("paint", probe.getRef()));
      probe.expectMessage("paint: ok");
    } finally {
      app.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void monitorCopiesAndLogMessagesLogs() {
    TestProbe<String> replies = testKit.createTestProbe();
    // tag::typed-monitor[]
    TestProbe<Work> copies = testKit.createTestProbe();
    ActorRef<Work> w = testKit.spawn(
        Behaviors.monitor(Work.class, copies.getRef(), Behaviors.logMessages(worker())));
    w.tell(new Work("sweep", replies.getRef()));
    copies.expectMessage(new Work("sweep", replies.getRef()));       // what it was sent
    // end::typed-monitor[]
    replies.expectMessage("sweep: ok");
  }

  /** Answers every piece of work, and keeps going. */
  static Behavior<Work> indexer() {
    return Behaviors.receiveMessage(w -> {
      w.replyTo().tell(w.task() + ": ok");
      return Behaviors.same();
    });
  }

  @Test
  void aLibraryStartsItsActorUnderSystemAndWritesRefsAsText() {
    ActorSystem<?> system = testKit.testKit().system();
    // tag::typed-system-services[]
    ActorRef<Work> indexer = system.systemActorOf(indexer(), "indexer", Props.empty()); // /system/indexer
    indexer.tell(new Work("reindex", system.ignoreRef()));          // nobody wants the answer

    ActorRefResolver resolver = ActorRefResolver.get(system);       // for a serializer of one's own
    String text = resolver.toSerializationFormat(indexer);
    ActorRef<Work> same = resolver.resolveActorRef(text);            // here, or on another node
    // end::typed-system-services[]
    assertEquals(indexer, same);
    assertEquals("system", indexer.path().parent().name());
    TestProbe<String> probe = testKit.createTestProbe();
    same.tell(new Work("count", probe.getRef()));
    probe.expectMessage("count: ok");
  }

  /** A classic actor, for the interop snippet: it passes the light's answer on to an observer. */
  static final class Legacy extends dev.troupe.actor.AbstractActor {
    private final dev.troupe.actor.ActorRef observer;

    Legacy(dev.troupe.actor.ActorRef observer) {
      this.observer = observer;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("off", answer -> observer.tell("the light says " + answer, getSelf()))
          // tag::typed-adapter[]
          .match(String.class, name -> {
            ActorRef<Light> light = Adapter.spawn(getContext(), off(), name);       // a typed child
            ActorRef<String> me = Adapter.toTyped(getSelf());                       // my ref, typed
            light.tell(new Query(me));
          })
          // end::typed-adapter[]
          .build();
    }
  }

  @Test
  void aClassicActorSpawnsATypedChild() {
    dev.troupe.actor.ActorSystem classic = Adapter.toClassic(testKit.testKit().system());
    TestProbe<String> probe = testKit.createTestProbe();
    dev.troupe.actor.ActorRef observer = Adapter.toClassic(probe.getRef());
    dev.troupe.actor.ActorRef legacy = classic.actorOf(dev.troupe.actor.Props.create(Legacy.class, () -> new Legacy(observer)));
    legacy.tell("lamp", dev.troupe.actor.ActorRef.noSender());
    probe.expectMessage("the light says off");
  }

  @Test
  void aProbeAndASynchronousKitTestTheCounter() {
    // tag::typed-probe[]
    TestProbe<Integer> probe = testKit.createTestProbe(Integer.class);
    ActorRef<Counter.Command> counter = testKit.spawn(Counter.create());
    counter.tell(new Counter.Increment(3));
    counter.tell(new Counter.Get(probe.getRef()));
    probe.expectMessage(3);
    // end::typed-probe[]
    // tag::typed-behavior-testkit[]
    BehaviorTestKit<Boss> kit = BehaviorTestKit.create(boss(TestInbox.<String>create().getRef()));
    kit.expectEffectClass(Effect.MessageAdapter.class);           // from the setup
    kit.run(new Hire("carol"));                                     // handled now, on this thread
    assertEquals("carol", kit.expectEffectClass(Effect.Spawned.class).childName());
    kit.<Work>childInbox("carol").receiveMessage();                 // what the boss sent it
    // end::typed-behavior-testkit[]
  }
}
