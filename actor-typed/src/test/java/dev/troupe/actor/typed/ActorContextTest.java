package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.pattern.AskTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What an actor does through its context: children, death watch, adapters, asks, timeouts. */
class ActorContextTest {
  private ActorSystem<Void> system;
  private Probe<Object> probe;

  @BeforeEach
  void start() {
    system = Systems.empty("context");
    probe = new Probe<>(system);
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  /** Runs {@code body} in a new top-level actor's setup; the actor then ignores messages. */
  private <T> ActorRef<T> actor(Function<ActorContext<T>, Behavior<T>> body) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.setup(body));
  }

  private static Behavior<String> failOn(String trigger) {
    return Behaviors.receiveMessage(m -> {
      if (m.equals(trigger)) {
        throw new IllegalStateException("boom on " + m);
      }
      return Behaviors.same();
    });
  }

  @Test
  void childrenAreSpawnedListedFoundAndStopped() {
    ActorRef<String> parent = this.<String>actor(ctx -> {
      ActorRef<String> a = ctx.spawn(Behaviors.ignore(), "a");
      ctx.spawnAnonymous(Behaviors.ignore());
      ctx.spawn(Behaviors.ignore(), "b", Props.empty().withDispatcher("troupe.actor.default-dispatcher"));
      probe.ref().tell(ctx.getChildren().size());
      probe.ref().tell(ctx.getChild("a").map(c -> c.equals(a)).orElse(false));
      probe.ref().tell(ctx.getChild("nobody").isPresent());
      ctx.watch(a);
      ctx.stop(a);
      return Behaviors.receive(String.class)
          .onSignal(Terminated.class, t -> {
            probe.ref().tell("terminated " + t.getRef().path().name());
            probe.ref().tell(ctx.getChild("a").isPresent());
            return Behaviors.same();
          })
          .build();
    });
    probe.expect(3);
    probe.expect(true);
    probe.expect(false);
    probe.expect("terminated a");
    probe.expect(false);
    assertTrue(parent.path().name().length() > 0);
  }

  @Test
  void stoppingAnActorThatIsNotAChildFailsAtTheCall() {
    ActorRef<String> stranger = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>ignore());
    this.<String>actor(ctx -> {
      try {
        ctx.stop(stranger);
        probe.ref().tell("stopped a stranger");
      } catch (IllegalArgumentException e) {
        probe.ref().tell(e.getMessage().contains("not a child"));
      }
      return Behaviors.ignore();
    });
    probe.expect(true);
  }

  @Test
  void aWatchingParentGetsChildFailedWithTheCauseAndAnUnwatchedFailureIsForgotten() {
    ActorRef<String> parent = this.<String>actor(ctx -> {
      ActorRef<String> child = ctx.spawn(failOn("fail"), "child");
      ctx.spawn(failOn("fail"), "unwatched").tell("fail");
      ctx.watch(child);
      child.tell("fail");
      return Behaviors.receive(String.class)
          .onSignal(ChildFailed.class, f -> {
            probe.ref().tell(f.getRef().path().name() + ": " + f.getCause().getMessage());
            return Behaviors.same();
          })
          .build();
    });
    probe.expect("child: boom on fail");
    probe.expectNothing(Duration.ofMillis(200));
    probe.watch(parent);
    probe.expectNothing(Duration.ofMillis(100));
  }

  @Test
  void aStoppedChildGivesTerminatedNotChildFailed() {
    this.<String>actor(ctx -> {
      ActorRef<String> child = ctx.spawn(Behaviors.receiveMessage(m -> Behaviors.stopped()), "quits");
      ctx.watch(child);
      child.tell("go");
      return Behaviors.receive(String.class)
          .onSignal(Terminated.class, t -> {
            probe.ref().tell(t.getClass().getSimpleName());
            return Behaviors.same();
          })
          .build();
    });
    probe.expect("Terminated");
  }

  @Test
  void anUnhandledTerminatedFailsTheWatcherWithADeathPact() {
    ActorRef<String> watcher = this.<String>actor(ctx -> {
      ActorRef<String> child = ctx.spawn(Behaviors.receiveMessage(m -> Behaviors.stopped()), "quits");
      ctx.watch(child);
      child.tell("go");
      return Behaviors.ignore().narrow();
    });
    // ignore() handles signals (drops them); an empty() watcher does not:
    ActorRef<String> pact = this.<String>actor(ctx -> {
      ActorRef<String> child = ctx.spawn(Behaviors.receiveMessage(m -> Behaviors.stopped()), "quits");
      ctx.watch(child);
      child.tell("go");
      return Behaviors.empty();
    });
    // the classic default decider stops an actor that failed with a DeathPactException
    probe.watch(watcher);
    probe.watch(pact);
    probe.expectTerminated(pact);
    probe.expectNothing(Duration.ofMillis(200));
  }

  @Test
  void watchWithDeliversTheGivenMessageAndUnwatchDeliversNothing() {
    this.<String>actor(ctx -> {
      ActorRef<String> a = ctx.spawn(Behaviors.receiveMessage(m -> Behaviors.stopped()), "a");
      ActorRef<String> b = ctx.spawn(Behaviors.receiveMessage(m -> Behaviors.stopped()), "b");
      ctx.watchWith(a, "a is gone");
      ctx.watch(b);
      ctx.unwatch(b);
      b.tell("stop");
      a.tell("stop");
      return Behaviors.receiveMessage(m -> {
        probe.ref().tell(m);
        return Behaviors.same();
      });
    });
    probe.expect("a is gone");
    probe.expectNothing(Duration.ofMillis(200));
  }

  private record Wrapped(String text) {}

  @Test
  void aMessageAdapterConvertsInTheActorAndTheNewestRegistrationWins() {
    ActorRef<Object> adapterHolder = this.<Object>actor(ctx -> {
      ActorRef<String> first = ctx.messageAdapter(String.class, s -> new Wrapped("first " + s));
      ActorRef<Integer> ints = ctx.messageAdapter(Integer.class, i -> new Wrapped("int " + i));
      ActorRef<String> again = ctx.messageAdapter(String.class, s -> new Wrapped("second " + s));
      probe.ref().tell(first.equals(again) && first.path().equals(ints.path()));
      again.tell("x");
      ints.tell(7);
      return Behaviors.receiveMessage(m -> {
        probe.ref().tell(m);
        return Behaviors.same();
      });
    });
    probe.expect(true);
    probe.expect(new Wrapped("second x"));
    probe.expect(new Wrapped("int 7"));
    assertTrue(adapterHolder.path().toString().contains("/user/"));
  }

  @Test
  void theReceiveTimeoutMessageArrivesAfterSilenceAndNotAfterCancel() {
    this.<String>actor(ctx -> {
      ctx.setReceiveTimeout(Duration.ofMillis(100), "idle");
      return Behaviors.receiveMessage(m -> {
        probe.ref().tell(m);
        ctx.cancelReceiveTimeout();
        return Behaviors.same();
      });
    });
    probe.expect("idle");
    probe.expectNothing(Duration.ofMillis(300));
  }

  @Test
  void scheduleOnceSendsAfterTheDelay() {
    this.<String>actor(ctx -> {
      ctx.scheduleOnce(Duration.ofMillis(50), probe.ref(), "later");
      return Behaviors.ignore();
    });
    probe.expect("later");
  }

  private record Question(String text, ActorRef<String> replyTo) {}

  @Test
  void contextAskTurnsTheReplyATimeoutAndAWrongClassIntoMessages() {
    ActorRef<Question> echo = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Question>receiveMessage(q -> {
      if (!q.text().equals("silence")) {
        q.replyTo().tell("echo " + q.text());
      }
      return Behaviors.same();
    }));
    ActorRef<Question> wrong = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Question>receiveMessage(q -> {
      q.replyTo().<Object>unsafeUpcast().tell(42);
      return Behaviors.same();
    }));
    this.<Object>actor(ctx -> {
      ctx.ask(String.class, echo, Duration.ofSeconds(3), r -> new Question("hi", r), (r, t) -> r != null ? r : t);
      ctx.ask(String.class, echo, Duration.ofMillis(100), r -> new Question("silence", r), (r, t) -> r != null ? r : t);
      ctx.ask(String.class, wrong, Duration.ofSeconds(3), r -> new Question("x", r), (r, t) -> r != null ? r : t);
      return Behaviors.receiveMessage(m -> {
        probe.ref().tell(m);
        return Behaviors.same();
      });
    });
    List<Object> got = List.of(probe.receive(), probe.receive(), probe.receive());
    assertTrue(got.contains("echo hi"), got.toString());
    assertTrue(got.stream().anyMatch(o -> o instanceof AskTimeoutException), got.toString());
    assertTrue(got.stream().anyMatch(o -> o instanceof ClassCastException), got.toString());
  }

  @Test
  void pipeToSelfBringsAValueOrAFailureBackIntoTheActor() {
    CompletableFuture<Integer> value = new CompletableFuture<>();
    CompletableFuture<Integer> failure = new CompletableFuture<>();
    this.<Object>actor(ctx -> {
      ctx.pipeToSelf(value, (v, t) -> "value " + v);
      ctx.pipeToSelf(failure, (v, t) -> t);
      return Behaviors.receiveMessage(m -> {
        probe.ref().tell(m);
        return Behaviors.same();
      });
    });
    value.complete(5);
    probe.expect("value 5");
    failure.completeExceptionally(new IllegalStateException("nope"));
    assertEquals("nope", assertInstanceOf(IllegalStateException.class, probe.receive()).getMessage());
  }

  @Test
  void theSelfRefTheSystemAndTheLogAreAtHand() {
    this.<String>actor(ctx -> {
      ctx.getLog().debug("starting {}", ctx.getSelf());
      probe.ref().tell(ctx.getSystem().name());
      probe.ref().tell(ctx.getExecutionContext() != null);
      return Behaviors.ignore();
    });
    probe.expect("context");
    probe.expect(true);
    assertThrows(NullPointerException.class, () -> probe.ref().tell(null));
  }
}
