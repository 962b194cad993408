package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.AbstractActorWithStash;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Inbox;
import dev.troupe.actor.Props;
import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.actor.Scheduler;
import dev.troupe.actor.Status;
import dev.troupe.guide.GuideSnippetsActorsTest.Add;
import dev.troupe.guide.GuideSnippetsActorsTest.Counter;
import dev.troupe.guide.GuideSnippetsActorsTest.Get;
import dev.troupe.pattern.AskTimeoutException;
import dev.troupe.pattern.CircuitBreaker;
import dev.troupe.pattern.CircuitBreakerOpenException;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The guide's chapters on ask, pipe and gracefulStop; become, stash and receive timeout; the scheduler. */
@ExtendWith(ActorSystemExtension.class)
class GuideSnippetsMessagingTest {
  // tag::pipe[]
  static final class Reporter extends AbstractActor {
    private final ActorRef counter;

    Reporter(ActorRef counter) {
      this.counter = counter;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("report", m -> {
            CompletionStage<String> line = Patterns.ask(counter, new Get(), Duration.ofSeconds(2))
                .thenApply(total -> "total: " + total);                 // runs on some thread: touch no field
            Patterns.pipe(line, getContext().dispatcher()).to(getSender()); // the reply, or a Status.Failure
          })
          .build();
    }
  }
  // end::pipe[]

  // tag::become[]
  static final class Turnstile extends AbstractActor {
    @Override
    public Receive createReceive() {
      return locked();
    }

    private Receive locked() {
      return receiveBuilder()
          .matchEquals("coin", m -> getContext().become(unlocked()))
          .matchEquals("push", m -> getSender().tell("locked", getSelf()))
          .build();
    }

    private Receive unlocked() {
      return receiveBuilder()
          .matchEquals("push", m -> {
            getSender().tell("welcome", getSelf());
            getContext().become(locked());
          })
          .matchEquals("coin", m -> getSender().tell("already open", getSelf()))
          .build();
    }
  }
  // end::become[]

  // tag::stash[]
  record Loaded(Map<String, String> entries) {}

  record Lookup(String key) {}

  static final class Catalog extends AbstractActorWithStash {
    private final Map<String, String> entries = new HashMap<>();

    @Override
    public Receive createReceive() { // until loaded: set every question aside
      return receiveBuilder()
          .match(Loaded.class, loaded -> {
            entries.putAll(loaded.entries());
            getContext().become(ready());
            unstashAll();              // the questions come back, oldest first
          })
          .matchAny(m -> stash())
          .build();
    }

    private Receive ready() {
      return receiveBuilder()
          .match(Lookup.class, q -> getSender().tell(entries.getOrDefault(q.key(), "unknown"), getSelf()))
          .build();
    }
  }
  // end::stash[]

  // tag::receive-timeout[]
  static final class Session extends AbstractActor {
    private final Duration idle;

    Session(Duration idle) {
      this.idle = idle;
    }

    @Override
    public void preStart() {
      getContext().setReceiveTimeout(idle);   // ReceiveTimeout after this long without a message
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ReceiveTimeout.class, t -> getContext().stop(getSelf()))
          .matchAny(m -> getSender().tell("still here", getSelf()))
          .build();
    }
  }
  // end::receive-timeout[]

  // tag::ticks[]
  static final class Poller extends AbstractActor {
    private final ActorRef reportTo;
    private Cancellable ticks;

    Poller(ActorRef reportTo) {
      this.reportTo = reportTo;
    }

    @Override
    public void preStart() {
      ticks = getContext().getSystem().scheduler().scheduleWithFixedDelay(
          Duration.ofMillis(100), Duration.ofMillis(100), getSelf(), "poll",
          getContext().dispatcher(), ActorRef.noSender());
    }

    @Override
    public void postStop() {
      ticks.cancel();                 // else the ticks go on, to dead letters
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("poll", m -> reportTo.tell("polled", getSelf()))
          .build();
    }
  }
  // end::ticks[]

  // tag::timers[]
  static final class TimedPoller extends AbstractActorWithTimers {
    private final ActorRef reportTo;

    TimedPoller(ActorRef reportTo) {
      this.reportTo = reportTo;
    }

    @Override
    public void preStart() {
      getTimers().startTimerWithFixedDelay("poll", "poll", Duration.ofMillis(100));
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("poll", m -> reportTo.tell("polled", getSelf()))
          .matchEquals("pause", m -> getTimers().cancel("poll"))       // no "poll" after this one
          .matchEquals("once", m -> getTimers().startSingleTimer("poll", "poll", Duration.ZERO))
          .build();
    }
  }
  // end::timers[]

  @Test
  void askPipeAndGracefulStop(ActorSystem system, TestKit kit) throws Exception {
    ActorRef counter = system.actorOf(Props.create(Counter.class), "counter");
    counter.tell(new Add(4), ActorRef.noSender());
    // tag::ask[]
    CompletionStage<Object> total = Patterns.ask(counter, new Get(), Duration.ofSeconds(2));
    total.thenAccept(t -> System.out.println("total is " + t))                    // no blocking
        .exceptionally(e -> { System.out.println("no answer: " + e); return null; }); // AskTimeoutException
    // end::ask[]
    assertEquals(4, kit.awaitResult(total));

    ActorRef reporter = system.actorOf(Props.create(Reporter.class, counter));
    kit.send(reporter, "report");
    kit.expectMsg("total: 4");

    // tag::graceful-stop[]
    CompletionStage<Boolean> stopped = Patterns.gracefulStop(counter, Duration.ofSeconds(5));
    boolean gone = stopped.toCompletableFuture().get(10, TimeUnit.SECONDS); // after what was queued before
    // end::graceful-stop[]
    assertTrue(gone);

    kit.send(reporter, "report"); // the counter is gone: the ask fails at once, the pipe says so
    Status.Failure failure = kit.expectMsgClass(Status.Failure.class);
    assertInstanceOf(AskTimeoutException.class, failure.cause());
  }

  @Test
  void anInboxTakesRepliesOnAThreadThatIsNoActor(ActorSystem system) throws Exception {
    ActorRef counter = system.actorOf(Props.create(Counter.class));
    counter.tell(new Add(7), ActorRef.noSender());
    // tag::inbox[]
    Object total;
    try (Inbox inbox = Inbox.create(system)) {                   // close() stops its actor
      inbox.send(counter, new Get());                            // the inbox is the sender
      total = inbox.receive(Duration.ofSeconds(2));              // TimeoutException if none came
    }
    // end::inbox[]
    assertEquals(7, total);
  }

  @Test
  void aCircuitBreakerStopsCallingAServiceThatKeepsFailing(ActorSystem system) throws Exception {
    java.util.function.Supplier<CompletionStage<String>> prices =
        () -> java.util.concurrent.CompletableFuture.failedFuture(new IllegalStateException("price service down"));
    // tag::circuit-breaker[]
    CircuitBreaker breaker =
        CircuitBreaker.create(system.scheduler(), 3, Duration.ofSeconds(2), Duration.ofSeconds(30))
            .addOnOpenListener(() -> system.log().warning("price service failing: calls refused for 30 s"));
    CompletionStage<String> price = breaker.callWithCircuitBreakerCS(prices::get); // fails at once while open
    // end::circuit-breaker[]
    assertTrue(price.toCompletableFuture().isCompletedExceptionally());
    breaker.callWithCircuitBreakerCS(prices::get);
    breaker.callWithCircuitBreakerCS(prices::get);
    assertTrue(breaker.isOpen(), "three failures in a row");
    CompletionStage<String> refused = breaker.callWithCircuitBreakerCS(prices::get);
    java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
        java.util.concurrent.ExecutionException.class, () -> refused.toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertInstanceOf(CircuitBreakerOpenException.class, e.getCause());
  }

  @Test
  void becomeStashAndReceiveTimeout(ActorSystem system, TestKit kit) {
    ActorRef turnstile = system.actorOf(Props.create(Turnstile.class));
    kit.send(turnstile, "push");
    kit.expectMsg("locked");
    kit.send(turnstile, "coin");
    kit.send(turnstile, "coin");
    kit.expectMsg("already open");
    kit.send(turnstile, "push");
    kit.expectMsg("welcome");
    kit.send(turnstile, "push");
    kit.expectMsg("locked");

    ActorRef catalog = system.actorOf(Props.create(Catalog.class));
    kit.send(catalog, new Lookup("apple"));
    kit.send(catalog, new Lookup("pear"));
    kit.expectNoMessage(Duration.ofMillis(100)); // stashed: nothing to answer with yet
    kit.send(catalog, new Loaded(Map.of("apple", "red")));
    kit.expectMsg("red");
    kit.expectMsg("unknown");

    ActorRef session = system.actorOf(Props.create(Session.class, Duration.ofMillis(200)));
    kit.watch(session);
    kit.send(session, "hello");
    kit.expectMsg("still here");
    kit.expectTerminated(session); // 200 ms without a message
  }

  @Test
  void theSchedulerSendsLaterAndRepeatedly(ActorSystem system, TestKit kit) {
    ActorRef counter = system.actorOf(Props.create(Counter.class));
    // tag::scheduler[]
    Scheduler scheduler = system.scheduler();
    Cancellable once = scheduler.scheduleOnce(                   // one Add(1), 200 ms from now
        Duration.ofMillis(200), counter, new Add(1), system.dispatcher(), ActorRef.noSender());
    Cancellable every = scheduler.scheduleAtFixedRate(           // Add(10) every second, from now
        Duration.ZERO, Duration.ofSeconds(1), counter, new Add(10), system.dispatcher(), ActorRef.noSender());
    every.cancel();                                              // no more of these
    // end::scheduler[]
    kit.awaitCond(() -> {
      Object t = kit.awaitResult(Patterns.ask(counter, new Get(), Duration.ofSeconds(3)));
      return ((Integer) t) % 10 == 1; // the Add(1) arrived (and at most the first Add(10))
    });
    assertFalse(once.cancel(), "it ran: too late to cancel");

    system.actorOf(Props.create(Poller.class, kit.getRef()));
    kit.expectMsg("polled");
    kit.expectMsg("polled");
  }

  @Test
  void timersAreKeyedAndEndWithTheActor(ActorSystem system, TestKit kit) {
    TestKit other = new TestKit(system);
    ActorRef poller = system.actorOf(Props.create(TimedPoller.class, other.getRef()));
    other.expectMsg("polled");
    other.expectMsg("polled");
    poller.tell("pause", ActorRef.noSender());
    poller.tell("once", ActorRef.noSender()); // a single timer under the same key
    other.fishForMessage(Duration.ofSeconds(10), "the single poll", m -> true);
    kit.watch(poller);
    system.stop(poller);
    kit.expectTerminated(poller);
  }
}
