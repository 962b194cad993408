package dev.troupe.cluster.singleton.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.typed.Members;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A typed singleton on a two-member cluster in this JVM (the in-memory engine, remoting on
 * 127.0.0.1): one instance, on the oldest member, reached with its state from both members; when the
 * oldest leaves, the instance gets its stop message and the singleton starts on the other member,
 * where the same refs reach it.
 */
@Timeout(120)
class ClusterSingletonTypedTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** Every message of this test between the members. */
  interface Wire {}

  interface Command extends Wire {}

  record Add(int n) implements Command {}

  record Get(ActorRef<Value> replyTo) implements Command {}

  record Stop() implements Command {}

  record Value(int n, String node) implements Wire {}

  private List<ActorSystem> members = List.of();

  @AfterEach
  void stop() {
    Members.stop(members);
  }

  static Behavior<Command> boss(ActorRef<String> lifecycle) {
    return Behaviors.setup(ctx -> {
      String node = Cluster.get(Adapter.toClassic(ctx.getSystem())).selfAddress().toString();
      int[] n = {0};
      return Behaviors.receive(Command.class)
          .onMessage(Add.class, m -> {
            n[0] += m.n();
            return Behaviors.same();
          })
          .onMessage(Get.class, m -> {
            m.replyTo().tell(new Value(n[0], node));
            return Behaviors.same();
          })
          .onMessage(Stop.class, m -> {
            lifecycle.tell("stop message on " + node + " at " + n[0]);
            return Behaviors.stopped();
          })
          .build();
    });
  }

  private static Value get(ActorSystem from, ActorRef<Command> boss) throws Exception {
    return AskPattern.<Command, Value>ask(boss, Get::new, WAIT, Adapter.toTyped(from).scheduler())
        .toCompletableFuture().get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
  }

  @Test
  void oneInstanceOnTheOldestReachedFromEveryMemberThatMovesWithItsStopMessage() throws Exception {
    members = Members.start("typed-singleton", 2, Wire.class, WAIT);
    ActorSystem a = members.get(0);
    ActorSystem b = members.get(1);
    TestProbe<String> lifecycle = TestProbe.create(Adapter.toTyped(b));
    SingletonActor<Command> singleton = SingletonActor.of(boss(lifecycle.getRef()), "boss").withStopMessage(new Stop());
    ActorRef<Command> fromA = ClusterSingleton.get(a).init(singleton);
    ActorRef<Command> fromB = ClusterSingleton.get(b).init(singleton);
    assertEquals(fromB, ClusterSingleton.get(b).init(singleton), "a second init gives the same ref");
    assertEquals("/user/singleton-proxy-boss", fromB.path().toStringWithoutAddress());

    fromB.tell(new Add(3));
    assertEquals(new Value(3, a.address().toString()), get(b, fromB), "the instance runs on the oldest member");
    fromA.tell(new Add(4));
    assertEquals(new Value(7, a.address().toString()), get(a, fromA), "the same instance from the oldest itself");

    Cluster.get(a).leave(a.address());
    lifecycle.expectMessage(WAIT, "stop message on " + a.address() + " at 7");
    fromB.tell(new Add(1));
    assertEquals(new Value(1, b.address().toString()), get(b, fromB),
        "a fresh instance on the member left, reached by the same ref");
  }

  @Test
  void aBlankNameOrRoleIsRefused() {
    Behavior<Command> b = Behaviors.empty();
    assertThrows(IllegalArgumentException.class, () -> SingletonActor.of(b, " "));
    assertThrows(IllegalArgumentException.class, () -> SingletonActor.of(b, "boss").withRole(""));
  }
}
