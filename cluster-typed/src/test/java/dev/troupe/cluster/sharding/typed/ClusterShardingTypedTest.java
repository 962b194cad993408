package dev.troupe.cluster.sharding.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.typed.Members;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Typed sharding on a two-member cluster in this JVM (the in-memory engine, remoting on 127.0.0.1,
 * port 0): entities reached by {@link EntityRef} from either member answer from wherever they live
 * (the envelopes cross the wire), keep their state between messages, and a passivated entity gets
 * the type's stop message and starts fresh on its next message, which waited meanwhile.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(90)
class ClusterShardingTypedTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final int IDS = 20;
  static final EntityTypeKey<Command> COUNTER = EntityTypeKey.create(Command.class, "Counter");
  /** Counters passivated after 300 ms without a message. */
  static final EntityTypeKey<Command> SLEEPER = EntityTypeKey.create(Command.class, "Sleeper");

  /** Every message of this test that goes between the members (Jackson writes them). */
  interface Wire {}

  /** The counters' protocol. */
  interface Command extends Wire {}

  record Add(int n) implements Command {}

  record Get(ActorRef<Value> replyTo) implements Command {}

  /** Asks the entity to passivate itself. */
  record Sleep() implements Command {}

  /** The type's stop message. */
  record Stop() implements Command {}

  /** A counter's answer: its id, count and the member it runs on. */
  record Value(String entityId, int n, String node) implements Wire {}

  private dev.troupe.actor.ActorSystem a;
  private dev.troupe.actor.ActorSystem b;
  private TestProbe<String> lifecycle; // what entities report of their stops, on a

  /** A counter that reports its stops (by stop message, or stopped directly) to {@code lifecycle}. */
  static Behavior<Command> counter(EntityContext<Command> ctx, ActorRef<String> lifecycle) {
    return Behaviors.setup(self -> {
      String node = Cluster.get(Adapter.toClassic(self.getSystem())).selfAddress().toString();
      int[] n = {0};
      return Behaviors.receive(Command.class)
          .onMessage(Add.class, m -> {
            n[0] += m.n();
            return Behaviors.same();
          })
          .onMessage(Get.class, m -> {
            m.replyTo().tell(new Value(ctx.getEntityId(), n[0], node));
            return Behaviors.same();
          })
          .onMessage(Sleep.class, m -> {
            ctx.getShard().tell(new ClusterSharding.Passivate<>(self.getSelf()));
            return Behaviors.same();
          })
          .onMessage(Stop.class, m -> {
            lifecycle.tell("stop message " + ctx.getEntityId() + " at " + n[0]);
            return Behaviors.stopped();
          })
          .onSignal(PostStop.class, s -> {
            lifecycle.tell("stopped " + ctx.getEntityId());
            return Behaviors.same();
          })
          .build();
    });
  }

  @BeforeAll
  void cluster() {
    List<dev.troupe.actor.ActorSystem> members = Members.start("typed-sharding", 2, Wire.class, WAIT);
    a = members.get(0);
    b = members.get(1);
    lifecycle = TestProbe.create(Adapter.toTyped(a));
    ActorRef<String> report = lifecycle.getRef();
    for (dev.troupe.actor.ActorSystem s : List.of(a, b)) {
      ClusterSharding.get(s).init(Entity.of(COUNTER, ctx -> counter(ctx, report)).withStopMessage(new Stop()));
      ClusterSharding.get(s).init(Entity.of(SLEEPER, ctx -> counter(ctx, report)).withStopMessage(new Stop())
          .withSettings(ClusterShardingSettings.create(s).withPassivateIdleAfter(Duration.ofMillis(300))));
    }
  }

  @AfterAll
  void stop() {
    Members.stop(List.of(a, b));
  }

  private static Value get(EntityRef<Command> ref) {
    CompletionStage<Value> v = ref.ask(Get::new, WAIT);
    try {
      return v.toCompletableFuture().get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("no answer from " + ref + ": " + e, e);
    }
  }

  @Test
  void entitiesAnswerFromWhereverTheyLiveAndKeepTheirStateForEveryMember() {
    ClusterSharding fromA = ClusterSharding.get(a);
    Map<String, String> where = new HashMap<>();
    for (int i = 0; i < IDS; i++) {
      EntityRef<Command> ref = fromA.entityRefFor(COUNTER, "counter-" + i);
      ref.tell(new Add(i));
      ref.tell(new Add(1));
      Value v = get(ref);
      assertEquals(new Value("counter-" + i, i + 1, v.node()), v, "the entity's own count, in order");
      where.put(v.entityId(), v.node());
    }
    assertEquals(Set.of(a.address().toString(), b.address().toString()), new HashSet<>(where.values()),
        "entities live on both members");
    ClusterSharding fromB = ClusterSharding.get(b);
    for (int i = 0; i < IDS; i++) {
      Value v = get(fromB.entityRefFor(COUNTER, "counter-" + i));
      assertEquals(new Value("counter-" + i, i + 1, where.get("counter-" + i)), v,
          "from the other member: the same entity, where it lives, with its state");
    }
  }

  @Test
  void anEnvelopeToTheRegionReachesItsEntityAndAnIdIsAnyString() {
    ActorRef<ShardingEnvelope<Command>> region = ClusterSharding.get(b).init(
        Entity.of(COUNTER, ctx -> counter(ctx, lifecycle.getRef())));
    TestProbe<Value> answers = TestProbe.create(Adapter.toTyped(b));
    String id = "a/b c+d?\u00e9";
    region.tell(new ShardingEnvelope<>(id, new Add(7)));
    region.tell(new ShardingEnvelope<>(id, new Get(answers.getRef())));
    Value v = answers.receiveMessage(WAIT);
    assertEquals(id, v.entityId(), "the entity's context has its id as given");
    assertEquals(7, v.n());
    assertEquals(v, get(ClusterSharding.get(a).entityRefFor(COUNTER, id)), "the same entity through a ref");
  }

  @Test
  void aPassivatedEntityGetsTheStopMessageAndStartsFreshOnItsNextMessage() {
    EntityRef<Command> sleepy = ClusterSharding.get(a).entityRefFor(COUNTER, "sleepy");
    sleepy.tell(new Add(5));
    assertEquals(5, get(sleepy).n());
    sleepy.tell(new Sleep());
    lifecycle.expectMessage(WAIT, "stop message sleepy at 5");
    sleepy.tell(new Add(2)); // the entity is stopping: the shard holds it, then starts the entity again
    lifecycle.expectMessage(WAIT, "stopped sleepy");
    assertEquals(2, get(sleepy).n(), "a fresh entity, with the message sent while it stopped");
  }

  @Test
  void anIdleEntityGetsTheStopMessageToo() {
    EntityRef<Command> idle = ClusterSharding.get(b).entityRefFor(SLEEPER, "idle-1");
    idle.tell(new Add(4));
    assertEquals(4, get(idle).n());
    lifecycle.expectMessage(WAIT, "stop message idle-1 at 4");
    lifecycle.expectMessage(WAIT, "stopped idle-1");
    assertEquals(0, get(idle).n(), "its next message starts it again, fresh");
  }

  @Test
  void misuseIsRefusedWhereItHappens() {
    ClusterSharding sharding = ClusterSharding.get(a);
    IllegalArgumentException notStarted = assertThrows(IllegalArgumentException.class,
        () -> sharding.entityRefFor(EntityTypeKey.create(String.class, "Nowhere"), "x"));
    assertTrue(notStarted.getMessage().contains("'Nowhere' has not been started"), notStarted.getMessage());
    EntityTypeKey<String> clash = EntityTypeKey.create(String.class, COUNTER.name());
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> sharding.init(Entity.of(clash, ctx -> Behaviors.empty())));
    assertTrue(other.getMessage().contains("must match"), other.getMessage());
    assertThrows(IllegalArgumentException.class, () -> sharding.entityRefFor(clash, "x"));
    assertThrows(IllegalArgumentException.class, () -> sharding.entityRefFor(COUNTER, ""));
    assertThrows(IllegalArgumentException.class, () -> EntityTypeKey.create(String.class, " "));
    assertThrows(IllegalArgumentException.class, () -> new ShardingEnvelope<>("", "x"));
    assertEquals(sharding.entityRefFor(COUNTER, "x"), ClusterSharding.get(a).entityRefFor(COUNTER, "x"));

    dev.troupe.actor.ActorSystem local = dev.troupe.actor.ActorSystem.create("not-a-member");
    try {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> ClusterSharding.get(local).init(Entity.of(COUNTER, ctx -> Behaviors.empty())));
      assertTrue(e.getMessage().contains("troupe.actor.provider = cluster"), e.getMessage());
    } finally {
      TestKit.shutdownActorSystem(local);
    }
  }
}
