package dev.troupe.actor.internal.telemetry;

import dev.troupe.actor.internal.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Telemetry;
import dev.troupe.actor.Telemetry.ActorClassStats;
import dev.troupe.actor.Telemetry.DispatcherStats;
import dev.troupe.actor.Telemetry.Snapshot;
import dev.troupe.pattern.Patterns;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Telemetry's counts, samples, opt-in paths and MBeans, through the public API and JMX. */
class TelemetryTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
  private static final String ON = """
      troupe.telemetry { enabled = on, sample-every = 1, mailbox-depth = on }
      work-dispatcher { type = Dispatcher, throughput = 5 }
      """;

  private final List<ActorSystem> systems = new ArrayList<>();

  @AfterEach
  void terminate() throws Exception {
    for (ActorSystem s : systems) {
      s.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  private ActorSystem system(String name, String hocon) {
    ActorSystem s = ActorSystem.create(name, ConfigFactory.parseString(hocon));
    systems.add(s);
    return s;
  }

  /** Counts what it gets; answers "count" with the count; fails on "boom". */
  static final class Counter extends AbstractActor {
    private int n;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("boom", m -> {
            throw new IllegalStateException("boom (expected by the test)");
          })
          .matchEquals("count", m -> getSender().tell(n, getSelf()))
          .matchAny(m -> n++)
          .build();
    }
  }

  /** Another class, so that per-class figures are told apart. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  /** Creates the named children it is told to. */
  static final class Parent extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, name -> getSender().tell(
              getContext().actorOf(Props.create(Echo.class, Echo::new), name), getSelf()))
          .build();
    }
  }

  private static Object ask(ActorRef ref, Object message) throws Exception {
    return Patterns.ask(ref, message, WAIT)
        .toCompletableFuture()
        .get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
  }

  /** Polls snapshots until {@code done} holds: counts are added when a mailbox run ends. */
  private static Snapshot await(ActorSystem s, String what, Predicate<Snapshot> done) {
    Snapshot[] last = new Snapshot[1];
    Await.until("telemetry to show " + what, WAIT,
        () -> done.test(last[0] = Telemetry.get(s).snapshot()), () -> "last snapshot: " + last[0]);
    return last[0];
  }

  private static Props counter() {
    return Props.create(Counter.class, Counter::new).withDispatcher("work-dispatcher");
  }

  @Test
  void countsPerDispatcherAndClassAreExactOnceQuiet() throws Exception {
    ActorSystem s = system("telcounts", ON);
    ActorRef c = s.actorOf(counter());
    ActorRef e = s.actorOf(Props.create(Echo.class, Echo::new).withDispatcher("work-dispatcher"));
    for (int i = 0; i < 1000; i++) {
      c.tell(i, ActorRef.noSender());
    }
    for (int i = 0; i < 300; i++) {
      e.tell(i, ActorRef.noSender()); // replies go to dead letters: counted there, not here
    }
    assertEquals(1000, ask(c, "count"));
    Snapshot snap = await(s, "1301 messages on work-dispatcher", x ->
        x.dispatcher("work-dispatcher") != null
            && x.dispatcher("work-dispatcher").messagesProcessed() == 1301);
    assertTrue(snap.enabled());
    DispatcherStats d = snap.dispatcher("work-dispatcher");
    assertEquals(1001, snap.actorClass(Counter.class).messagesProcessed());
    assertEquals(300, snap.actorClass(Echo.class).messagesProcessed());
    // sample-every = 1: every message timed, every run's delay and depth sampled
    snap = await(s, "a processing-time sample per message", x ->
        x.actorClass(Counter.class).processingTime().samples() == 1001
            && x.dispatcher("work-dispatcher").processingTime().samples() == 1301);
    d = snap.dispatcher("work-dispatcher");
    assertTrue(d.mailboxRuns() >= 1301 / 5, "at most 5 messages per run: " + d);
    assertEquals(d.mailboxRuns(), d.schedulingDelay().samples(), "a delay sample per run: " + d);
    assertEquals(d.mailboxRuns(), d.mailboxDepth().samples(), "a depth sample per run: " + d);
    assertTrue(d.mailboxDepth().max() <= 1001, "depth bounded by what was sent: " + d);
    assertTrue(snap.actors().isEmpty(), "no path opted in: " + snap.actors());
  }

  @Test
  void restartsAndDeadLettersAreCounted() throws Exception {
    ActorSystem s = system("telfaults", ON);
    ActorRef c = s.actorOf(counter());
    for (int i = 0; i < 3; i++) {
      c.tell("boom", ActorRef.noSender());
    }
    assertEquals(0, ask(c, "count")); // restarted three times: a fresh instance answers
    Snapshot snap = await(s, "3 restarts", x -> x.restarts() == 3);
    assertEquals(3, snap.actorClass(Counter.class).restarts());
    long before = snap.deadLetters();
    assertTrue(Patterns.gracefulStop(c, WAIT, PoisonPill.getInstance())
        .toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS));
    for (int i = 0; i < 7; i++) {
      c.tell(i, ActorRef.noSender());
    }
    await(s, "7 more dead letters", x -> x.deadLetters() == before + 7);
    // the stopped actor's messages stay counted with its class: 3 booms, the ask, the PoisonPill
    assertEquals(3 + 1 + 1, Telemetry.get(s).snapshot().actorClass(Counter.class).messagesProcessed());
  }

  @Test
  void onlyMatchingPathsGetAnEntryOfTheirOwn() throws Exception {
    ActorSystem s = system("telpaths", ON + "troupe.telemetry.actor-paths = [\"/user/orders/*\"]\n");
    ActorRef orders = s.actorOf(Props.create(Parent.class, Parent::new), "orders");
    ActorRef o1 = (ActorRef) ask(orders, "o1");
    ActorRef o2 = (ActorRef) ask(orders, "o2");
    ActorRef other = s.actorOf(Props.create(Echo.class, Echo::new), "other");
    for (int i = 0; i < 4; i++) {
      ask(o1, i);
      ask(other, i);
    }
    ask(o2, "x");
    Snapshot snap = await(s, "o1's four messages", x ->
        x.actor("/user/orders/o1") != null && x.actor("/user/orders/o1").messagesProcessed() == 4);
    assertEquals(
        List.of("/user/orders/o1", "/user/orders/o2"),
        snap.actors().stream().map(Telemetry.ActorStats::path).collect(Collectors.toList()));
    assertEquals(Echo.class.getName(), snap.actor("/user/orders/o1").className());
    assertEquals(4, snap.actor("/user/orders/o1").processingTime().samples());
    await(s, "o2's message", x -> x.actor("/user/orders/o2").messagesProcessed() == 1);
    assertTrue(Patterns.gracefulStop(o1, WAIT, PoisonPill.getInstance())
        .toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS));
    snap = await(s, "o1's entry gone", x -> x.actor("/user/orders/o1") == null);
    assertEquals(1, snap.actors().size());
    // still counted with its class: o1 4 + its PoisonPill (a user message) + other 4 + o2 1 (a
    // run's counts reach the class when the run ends, which may be after the stop was observed)
    await(s, "Echo's ten messages counted with its class", x -> x.actorClass(Echo.class).messagesProcessed() == 10);
    snap = Telemetry.get(s).snapshot();
    assertEquals(10, snap.actorClass(Echo.class).messagesProcessed(), "no more than ten either");
  }

  private static Set<ObjectName> mbeans(String systemKey) throws Exception {
    return JMX.queryNames(new ObjectName("dev.troupe:system=" + systemKey + ",*"), null);
  }

  @Test
  void mbeansAreRegisteredPerSystemAndGoneAfterTerminate() throws Exception {
    String hocon = ON + "troupe.telemetry.actor-paths = [\"/user/**\"]\n";
    ActorSystem a = system("teljmx", hocon);
    ActorSystem b = system("teljmx", hocon); // same name: must not collide
    ActorRef ca = a.actorOf(counter(), "ca");
    ActorRef cb = b.actorOf(counter(), "cb");
    for (int i = 0; i < 10; i++) {
      ca.tell(i, ActorRef.noSender());
    }
    assertEquals(10, ask(ca, "count"));
    assertEquals(0, ask(cb, "count"));
    Set<ObjectName> na = mbeans("teljmx");
    Set<ObjectName> nb = mbeans("teljmx-2");
    ObjectName dispatcher = new ObjectName("dev.troupe:type=Dispatcher,system=teljmx,name=work-dispatcher");
    ObjectName actorClass = new ObjectName(
        "dev.troupe:type=ActorClass,system=teljmx,name=" + Counter.class.getName());
    ObjectName actor = new ObjectName("dev.troupe:type=Actor,system=teljmx,name=/user/ca");
    ObjectName sys = new ObjectName("dev.troupe:type=System,system=teljmx");
    for (ObjectName n : List.of(dispatcher, actorClass, actor, sys)) {
      assertTrue(na.contains(n), n + " not among " + na);
    }
    assertTrue(nb.contains(new ObjectName("dev.troupe:type=Actor,system=teljmx-2,name=/user/cb")), "" + nb);
    await(a, "11 messages", x -> x.actorClass(Counter.class).messagesProcessed() == 11);
    assertEquals(11L, JMX.getAttribute(dispatcher, "MessagesProcessed"));
    assertEquals(11L, JMX.getAttribute(actorClass, "MessagesProcessed"));
    assertEquals(11L, JMX.getAttribute(actor, "MessagesProcessed"));
    assertEquals(11L, JMX.getAttribute(actorClass, "ProcessingTimeSamples"));
    assertEquals(0L, JMX.getAttribute(sys, "Restarts"));
    a.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(Set.of(), mbeans("teljmx"), "a's MBeans after it terminated");
    assertFalse(mbeans("teljmx-2").isEmpty(), "b's MBeans went with a's");
    b.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(Set.of(), mbeans("teljmx-2"), "b's MBeans after it terminated");
  }

  @Test
  void offByDefaultWithNoMBeans() throws Exception {
    ActorSystem s = system("teloff", "troupe.telemetry.actor-paths = [\"/user/**\"]");
    ActorRef e = s.actorOf(Props.create(Echo.class, Echo::new), "e");
    assertEquals("hi", ask(e, "hi"));
    Telemetry t = Telemetry.get(s);
    assertFalse(t.enabled());
    Snapshot snap = t.snapshot();
    assertFalse(snap.enabled());
    assertTrue(snap.dispatchers().isEmpty() && snap.actorClasses().isEmpty() && snap.actors().isEmpty());
    assertNull(snap.actor("/user/e"));
    assertEquals(Set.of(), mbeans("teloff"));
  }

  @Test
  void jmxCanBeSwitchedOffAlone() throws Exception {
    ActorSystem s = system("telnojmx", ON + "troupe.telemetry.jmx = off\n");
    ActorRef c = s.actorOf(counter());
    assertEquals(0, ask(c, "count"));
    await(s, "the ask's message", x -> x.actorClass(Counter.class).messagesProcessed() == 1);
    assertEquals(Set.of(), mbeans("telnojmx"));
  }

  @Test
  void badValuesFailCreationNamingTheKey() {
    for (String[] bad : new String[][] {
        {"troupe.telemetry.sample-every = 0", "troupe.telemetry.sample-every"},
        {"troupe.telemetry.enabled = maybe", "troupe.telemetry.enabled"},
        {"troupe.telemetry.mailbox-depth = 3", "troupe.telemetry.mailbox-depth"},
        {"troupe.telemetry.actor-paths = \"/user\"", "troupe.telemetry.actor-paths"},
        {"troupe.telemetry.actor-paths = [\"user/x\"]", "troupe.telemetry.actor-paths"},
    }) {
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> ActorSystem.create("telbad", ConfigFactory.parseString(bad[0])), bad[0]);
      assertTrue(e.getMessage().contains(bad[1]), bad[0] + ": " + e.getMessage());
    }
  }

  /**
   * Many senders, many actors, some of them stopped half way: the totals add up exactly once the
   * actors are quiet, whether the actors are alive or retired.
   */
  @Test
  void concurrentSendersTotalsAddUp() throws Exception {
    ActorSystem s = system("telstress", """
        troupe.telemetry { enabled = on, sample-every = 7 }
        work-dispatcher { type = Dispatcher, throughput = 3 }
        """);
    int actors = 16;
    int senders = 8;
    int perSender = 20_000;
    List<ActorRef> refs = new ArrayList<>();
    for (int i = 0; i < actors; i++) {
      refs.add(s.actorOf(counter()));
    }
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < senders; t++) {
      int seed = t;
      Thread th = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < perSender; i++) {
          refs.get((i + seed) % actors).tell(i, ActorRef.noSender());
        }
      }, "telemetry-sender-" + t);
      th.start();
      threads.add(th);
    }
    go.countDown();
    for (Thread th : threads) {
      th.join(WAIT.toMillis());
      assertFalse(th.isAlive(), th.getName() + " still sending");
    }
    long expected = (long) senders * perSender;
    long answered = 0;
    for (int i = 0; i < actors; i++) {
      answered += (Integer) ask(refs.get(i), "count");
    }
    assertEquals(expected, answered);
    expected += actors + actors / 2; // the asks, and the PoisonPills (user messages too)
    for (int i = 0; i < actors / 2; i++) { // half of them retire
      assertTrue(Patterns.gracefulStop(refs.get(i), WAIT, PoisonPill.getInstance())
          .toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }
    long total = expected;
    Snapshot snap = await(s, total + " messages", x ->
        x.actorClass(Counter.class).messagesProcessed() == total
            && x.dispatcher("work-dispatcher").messagesProcessed() == total);
    DispatcherStats d = snap.dispatcher("work-dispatcher");
    assertTrue(d.mailboxRuns() >= total / 3, "throughput 3 bounds a run: " + d);
    ActorClassStats c = snap.actorClass(Counter.class);
    // one run in 7 of each mailbox is timed (its delay, and each of its at most 3 messages)
    long sampledRuns = d.schedulingDelay().samples();
    assertTrue(sampledRuns > 0 && sampledRuns <= d.mailboxRuns() / 7 + actors,
        "one run in 7 sampled: " + d);
    assertTrue(c.processingTime().samples() > 0 && c.processingTime().samples() <= 3 * sampledRuns,
        "only the messages of sampled runs timed: " + c + " with " + d);
    assertEquals(0, d.mailboxDepth().samples(), "mailbox-depth is off by default: " + d);
    // quiet: a second snapshot reads the same
    assertEquals(total, Telemetry.get(s).snapshot().dispatcher("work-dispatcher").messagesProcessed());
  }
}
