package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.Props;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.pattern.AskTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** AskPattern (plain and with StatusReply), the Adapter both ways, and withMdc. */
class AskAndAdapterTest {
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("ask");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private record Divide(int a, int b, ActorRef<StatusReply<Integer>> replyTo) {}

  private static final Behavior<Divide> DIVIDER = Behaviors.receiveMessage(d -> {
    d.replyTo().tell(d.b() == 0 ? StatusReply.error("division by zero") : StatusReply.success(d.a() / d.b()));
    return Behaviors.same();
  });

  private static Throwable failure(CompletionStage<?> stage) throws Exception {
    try {
      stage.toCompletableFuture().get(5, TimeUnit.SECONDS);
      throw new AssertionError("the stage succeeded");
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  @Test
  void askWithStatusGivesTheValueOrFailsWithTheError() throws Exception {
    ActorRef<Divide> divider = Adapter.spawnAnonymous(Adapter.toClassic(system), DIVIDER);
    assertEquals(
        3,
        AskPattern.askWithStatus(divider, (ActorRef<StatusReply<Integer>> r) -> new Divide(7, 2, r), Duration.ofSeconds(3), system.scheduler())
            .toCompletableFuture().get(5, TimeUnit.SECONDS));
    Throwable t = failure(AskPattern.askWithStatus(divider, (ActorRef<StatusReply<Integer>> r) -> new Divide(1, 0, r), Duration.ofSeconds(3), system.scheduler()));
    assertEquals(new StatusReply.ErrorMessage("division by zero"), t);
  }

  @Test
  void anUnansweredAskFailsWithAskTimeoutException() throws Exception {
    ActorRef<Divide> silent = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Divide>ignore());
    assertInstanceOf(AskTimeoutException.class,
        failure(AskPattern.ask(silent, (ActorRef<Integer> r) -> new Divide(1, 1, null), Duration.ofMillis(100), system.scheduler())));
  }

  @Test
  void contextAskWithStatusBringsTheErrorBackAsAMessage() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Divide> divider = Adapter.spawnAnonymous(Adapter.toClassic(system), DIVIDER);
    Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Object>setup(ctx -> {
      ctx.askWithStatus(Integer.class, divider, Duration.ofSeconds(3), r -> new Divide(1, 0, r),
          (v, t) -> t != null ? "failed: " + t.getMessage() : v);
      return Behaviors.receiveMessage(m -> {
        probe.ref().tell(m);
        return Behaviors.same();
      });
    }));
    probe.expect("failed: division by zero");
  }

  /** A classic actor that greets typed actors and spawns a typed child. */
  static final class ClassicParent extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, name -> {
            dev.troupe.actor.typed.ActorRef<String> child =
                Adapter.spawn(getContext(), Behaviors.<String>ignore(), name);
            getSender().tell(child, getSelf());
          })
          .build();
    }
  }

  @Test
  void classicAndTypedActorsTalkBothWays() throws Exception {
    dev.troupe.actor.ActorRef classic = Adapter.toClassic(system).actorOf(Props.create(ClassicParent.class), "classic");
    Object child = dev.troupe.pattern.Patterns.ask(classic, "typed-child", Duration.ofSeconds(3))
        .toCompletableFuture().get(5, TimeUnit.SECONDS);
    @SuppressWarnings("unchecked")
    ActorRef<String> typedChild = (ActorRef<String>) child;
    assertEquals(classic.path().child("typed-child"), typedChild.path().withUid(0));
    // a typed actor sends to a classic one through the typed view of its ref
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Object> viewOfProbe = Adapter.toTyped(Adapter.toClassic(probe.ref()));
    viewOfProbe.tell("through the view");
    probe.expect("through the view");
    assertTrue(Adapter.toClassic(system).name().equals("ask"));
  }

  @Test
  void withMdcSetsTheEntriesWhileTheMessageIsHandledOnly() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.withMdc(
        Map.of("service", "billing"),
        (String m) -> Map.of("msg", m),
        Behaviors.receiveMessage(m -> {
          probe.ref().tell(MDC.get("service") + "/" + MDC.get("msg"));
          return Behaviors.same();
        })));
    ref.tell("one");
    probe.expect("billing/one");
  }
}
