package dev.troupe.testkit.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** BehaviorTestKit: one behaviour, run synchronously, with its effects and messages inspected. */
class BehaviorTestKitTest {
  sealed interface Command {}

  record SpawnWorker(String name) implements Command {}

  record Forward(String worker, String text) implements Command {}

  record Tell(ActorRef<String> to, String text) implements Command {}

  record Adapted(int n) implements Command {}

  record Stop() implements Command {}

  static Behavior<Command> manager(List<String> log) {
    return Behaviors.setup(ctx -> {
      ActorRef<Integer> numbers = ctx.messageAdapter(Integer.class, Adapted::new);
      ctx.setReceiveTimeout(Duration.ofSeconds(1), new Stop());
      return Behaviors.receive(Command.class)
          .onMessage(SpawnWorker.class, s -> {
            ctx.watch(ctx.spawn(Behaviors.<String>ignore(), s.name()));
            return Behaviors.same();
          })
          .onMessage(Forward.class, f -> {
            ctx.getChild(f.worker()).orElseThrow().<String>unsafeUpcast().tell(f.text());
            return Behaviors.same();
          })
          .onMessage(Tell.class, t -> {
            t.to().tell(t.text());
            numbers.tell(t.text().length());
            return Behaviors.same();
          })
          .onMessage(Adapted.class, a -> {
            log.add("adapted " + a.n());
            return Behaviors.same();
          })
          .onMessage(Stop.class, s -> Behaviors.stopped())
          .onSignal(PostStop.class, s -> {
            log.add("post stop");
            return Behaviors.same();
          })
          .build();
    });
  }

  @Test
  void theSetupsEffectsAreRecordedAndSpawnedChildrenGetInboxes() {
    List<String> log = new java.util.ArrayList<>();
    BehaviorTestKit<Command> kit = BehaviorTestKit.create(manager(log));
    assertEquals(Integer.class, kit.expectEffectClass(Effect.MessageAdapter.class).messageClass());
    kit.expectEffect(new Effect.ReceiveTimeoutSet(Duration.ofSeconds(1), new Stop()));
    assertFalse(kit.hasEffects());

    kit.run(new SpawnWorker("w1"));
    Effect.Spawned<?> spawned = kit.expectEffectClass(Effect.Spawned.class);
    assertEquals("w1", spawned.childName());
    kit.expectEffect(new Effect.Watched(spawned.ref()));

    kit.run(new Forward("w1", "hello"));
    kit.<String>childInbox("w1").expectMessage("hello");
    assertThrows(IllegalArgumentException.class, () -> kit.childInbox("nobody"));
  }

  @Test
  void messagesToInboxesAndAdaptedMessagesToSelfAreVisibleAtOnce() {
    List<String> log = new java.util.ArrayList<>();
    BehaviorTestKit<Command> kit = BehaviorTestKit.create(manager(log));
    TestInbox<String> inbox = TestInbox.create();
    kit.run(new Tell(inbox.getRef(), "abc"));
    inbox.expectMessage("abc");
    assertFalse(inbox.hasMessages());
    assertEquals(new Adapted(3), kit.selfInbox().receiveMessage());
    kit.run(new Adapted(3));
    assertEquals(List.of("adapted 3"), log);
  }

  @Test
  void stoppingRunsPostStopAndEndsTheKit() {
    List<String> log = new java.util.ArrayList<>();
    BehaviorTestKit<Command> kit = BehaviorTestKit.create(manager(log));
    assertTrue(kit.isAlive());
    kit.run(new Stop());
    assertFalse(kit.isAlive());
    assertEquals(List.of("post stop"), log);
    assertThrows(IllegalStateException.class, () -> kit.run(new Stop()));
  }

  @Test
  void supervisionTimersAndPipeToSelfRunInTheKit() {
    CompletableFuture<String> later = new CompletableFuture<>();
    Behavior<String> b = Behaviors.supervise(Behaviors.<String>withTimers(timers -> Behaviors.setup(ctx -> {
      timers.startSingleTimer("t", "tick", Duration.ofMillis(10));
      ctx.pipeToSelf(later, (v, t) -> "piped " + v);
      return Behaviors.receiveMessage(m -> {
        if (m.equals("fail")) {
          throw new IllegalStateException("resume me");
        }
        return Behaviors.unhandled();
      });
    }))).onFailure(SupervisorStrategy.resume());
    BehaviorTestKit<String> kit = BehaviorTestKit.create(b);
    kit.expectEffect(new Effect.TimerScheduled("t", "tick", Duration.ofMillis(10), false));
    kit.run("fail"); // resumed, no exception reaches the test
    kit.run("other");
    assertEquals(List.of("other"), kit.getAllUnhandled());
    later.complete("v");
    assertEquals("piped v", kit.selfInbox().receiveMessage());
  }
}
