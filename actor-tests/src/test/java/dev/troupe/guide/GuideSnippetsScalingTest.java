package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.actor.Props;
import dev.troupe.executors.AffinityPool;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.Broadcast;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.Routees;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** The guide's chapters on routers and resizers, dispatchers and the affinity executor, and configuration. */
class GuideSnippetsScalingTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod("");

  /** Squares numbers; answers with its own name too when asked "who". */
  static final class Squarer extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Integer.class, n -> getSender().tell(n * n, getSelf()))
          .matchEquals("who", m -> getSender().tell(getSelf().path().name(), getSelf()))
          .matchEquals("thread", m -> getSender().tell(Thread.currentThread().getName(), getSelf()))
          .matchEquals("reset", m -> { })
          .build();
    }
  }

  private static int routees(TestKit kit, ActorRef router) {
    return ((Routees) kit.awaitResult(Patterns.ask(router, GetRoutees.getInstance(), Duration.ofSeconds(3)))).routees().size();
  }

  @Test
  void poolsGroupsAndResizers() {
    ActorSystem system = troupe.system();
    TestKit kit = new TestKit(system);
    // tag::pool[]
    ActorRef squarers = system.actorOf(
        Props.create(Squarer.class).withRouter(new RoundRobinPool(4)), "squarers");
    CompletionStage<Object> square = Patterns.ask(squarers, 7, Duration.ofSeconds(2)); // 49, from one routee
    squarers.tell(new Broadcast("reset"), ActorRef.noSender());                       // to every routee
    // end::pool[]
    assertEquals(49, kit.awaitResult(square));
    assertEquals(4, routees(kit, squarers));
    Set<Object> who = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      kit.send(squarers, "who");
      who.add(kit.expectMsgClass(String.class));
    }
    assertEquals(4, who.size(), "round robin visits every routee: " + who);

    // tag::group[]
    system.actorOf(Props.create(Squarer.class), "left");
    system.actorOf(Props.create(Squarer.class), "right");
    ActorRef both = system.actorOf(
        Props.create(Squarer.class).withRouter(new RoundRobinGroup("/user/left", "/user/right")), "both");
    // end::group[]
    Set<Object> names = new HashSet<>();
    for (int i = 0; i < 2; i++) {
      kit.send(both, "who");
      names.add(kit.expectMsgClass(String.class));
    }
    assertEquals(Set.of("left", "right"), names);

    // tag::resizer[]
    DefaultResizer resizer = new DefaultResizer(2, 10) // between 2 and 10 routees
        .withPressureThreshold(1)                      // busy: a routee with a message waiting
        .withRampupRate(0.5)                           // all busy: grow by half
        .withBackoffThreshold(0.3)                     // under 30% busy: shrink
        .withMessagesPerResize(10);                    // look again every 10 messages
    ActorRef elastic = system.actorOf(
        Props.create(Squarer.class).withRouter(new RoundRobinPool(2).withResizer(resizer)), "elastic");
    // end::resizer[]
    kit.send(elastic, 3);
    kit.expectMsg(9);
    int size = routees(kit, elastic);
    assertTrue(size >= 2 && size <= 10, "within its bounds: " + size);
  }

  @Test
  void routersFromConfiguration() {
    ActorSystem system = troupe.createSystem(Regions.text("router-config"));
    TestKit kit = new TestKit(system);
    // tag::from-config[]
    ActorRef checkout = system.actorOf(
        Props.create(Squarer.class).withRouter(FromConfig.getInstance()), "checkout");
    // end::from-config[]
    assertEquals(3, routees(kit, checkout));
    system.actorOf(Props.create(Squarer.class), "left");
    system.actorOf(Props.create(Squarer.class), "right");
    ActorRef frontends = system.actorOf(Props.create(Squarer.class).withRouter(FromConfig.getInstance()), "frontends");
    assertEquals(2, routees(kit, frontends));
    kit.send(checkout, 5);
    kit.expectMsg(25);
  }

  @Test
  void actorsRunOnTheDispatcherTheirPropsName() throws Exception {
    ActorSystem system = troupe.createSystem(Regions.text("dispatchers"));
    TestKit kit = new TestKit(system);
    // tag::with-dispatcher[]
    ActorRef files = system.actorOf(Props.create(Squarer.class).withDispatcher("blocking-io"), "files");
    // end::with-dispatcher[]
    for (String id : List.of("blocking-io", "low-latency", "one-thread-each")) {
      ActorRef a = id.equals("blocking-io") ? files : system.actorOf(Props.create(Squarer.class).withDispatcher(id));
      kit.send(a, "thread");
      String thread = kit.expectMsgClass(String.class);
      assertTrue(thread.startsWith(system.name() + "-" + id), id + " ran on " + thread);
    }

    // tag::affinity-pool[]
    AffinityPool pool = AffinityPool.builder()
        .parallelism(2)            // threads, each with its own queue
        .idleCpuLevel(3)           // 1 parks at once .. 10 spins longest
        .build();
    Future<Integer> answer = pool.submit(() -> 6 * 7);
    System.out.println(answer.get());   // 42
    pool.shutdown();
    pool.awaitTermination(5, TimeUnit.SECONDS);
    // end::affinity-pool[]
    assertEquals(42, answer.get());
    assertTrue(pool.isTerminated());
  }

  // tag::extension[]
  /** One per system: reached from any actor or thread with Counters.get(system). */
  public static final class Counters implements Extension {
    public static final ExtensionId<Counters> ID = system -> new Counters();

    public static Counters get(ActorSystem system) {
      return ID.get(system);                          // made on the first call, then the same one
    }

    public final AtomicLong hits = new AtomicLong();
  }
  // end::extension[]

  @Test
  void anExtensionIsOnePerSystem() {
    ActorSystem system = troupe.system();
    Counters.get(system).hits.incrementAndGet();
    Counters.get(system).hits.incrementAndGet();
    assertEquals(2, Counters.get(system).hits.get());
    assertTrue(system.hasExtension(Counters.ID));
  }

  @Test
  void theGuidesConfigurationHasNoUnknownKey() throws Exception {
    String name = "configured";
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor"); // the parent of every system's logger
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    ActorSystem tuned;
    try {
      // tag::config-in-code[]
      Config overrides = ConfigFactory.parseString("troupe.actor.default-dispatcher.throughput = 10");
      tuned = ActorSystem.create(name, overrides.withFallback(ConfigFactory.load())); // over application.conf
      int throughput = tuned.settings().config().getInt("troupe.actor.default-dispatcher.throughput");
      // end::config-in-code[]
      assertEquals(10, throughput);
      TestKit.shutdownActorSystem(tuned);

      ActorSystem fromGuide = ActorSystem.create("guide-conf", ConfigFactory.parseString(Regions.text("application-conf")));
      assertEquals(3, fromGuide.settings().config().getInt("troupe.log-dead-letters"));
      assertEquals(Duration.ofMillis(5), fromGuide.settings().config().getDuration("troupe.scheduler.tick-duration"));
      TestKit.shutdownActorSystem(fromGuide);
    } finally {
      logger.detachAppender(log);
    }
    List<String> warnings = new ArrayList<>();
    synchronized (log) {
      for (ILoggingEvent e : log.list) {
        boolean ours = e.getLoggerName().endsWith("." + name) || e.getLoggerName().endsWith(".guide-conf");
        if (ours && e.getLevel().isGreaterOrEqual(Level.WARN)) {
          warnings.add(e.getFormattedMessage());
        }
      }
    }
    assertEquals(List.of(), warnings);
  }
}
