package dev.troupe.cluster.sharding.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Kill;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.cluster.typed.Members;
import dev.troupe.remote.Dropped;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two members in untrusted mode: a sharding envelope from a peer that carries PoisonPill or Kill is
 * refused as those messages are on their own (a Dropped event naming untrusted mode), the entity
 * keeps running with its state, and envelopes with the entity's own messages still pass.
 */
@Timeout(60)
class UntrustedEnvelopeTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private List<ActorSystem> members = List.of();

  @AfterEach
  void stop() {
    Members.stop(members);
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void anEnvelopeFromAPeerCarryingPoisonPillOrKillIsRefusedAndTheEntityLivesOn() throws Exception {
    members = Members.start("untrusted", 2, ClusterShardingTypedTest.Wire.class, WAIT,
        "troupe.remote.untrusted-mode = on");
    ActorSystem a = members.get(0);
    ActorSystem b = members.get(1);
    TestProbe<String> lifecycle = TestProbe.create(Adapter.toTyped(a));
    ActorRef<String> report = lifecycle.getRef();
    ActorRef<ShardingEnvelope<ClusterShardingTypedTest.Command>> regionOnB = null;
    for (ActorSystem s : members) {
      ActorRef<ShardingEnvelope<ClusterShardingTypedTest.Command>> r = ClusterSharding.get(s).init(
          Entity.of(ClusterShardingTypedTest.COUNTER, ctx -> ClusterShardingTypedTest.counter(ctx, report)));
      if (s == b) {
        regionOnB = r;
      }
    }
    // an entity that lives on a, so that what b's region gets for it crosses to a
    String id = null;
    for (int i = 0; id == null && i < 64; i++) { // half the shards are a's: 64 misses in a row would be a bug
      EntityRef<ClusterShardingTypedTest.Command> ref = ClusterSharding.get(b).entityRefFor(ClusterShardingTypedTest.COUNTER, "e" + i);
      ref.tell(new ClusterShardingTypedTest.Add(5));
      if (get(ref).node().equals(a.address().toString())) {
        id = "e" + i;
      }
    }
    assertNotNull(id, "no entity of 64 lives on the first member");
    TestKit onA = new TestKit(a);
    a.eventStream().subscribe(onA.getRef(), Dropped.class);
    ActorRef raw = regionOnB;
    raw.tell(new ShardingEnvelope<>(id, PoisonPill.getInstance()));
    raw.tell(new ShardingEnvelope<>(id, Kill.getInstance()));
    for (String refused : List.of("PoisonPill", "Kill")) {
      Dropped d = onA.expectMsgClass(WAIT, Dropped.class);
      assertTrue(d.reason().contains("untrusted-mode") && d.reason().contains(refused), d.reason());
      assertInstanceOf(ShardingEnvelope.class, d.message());
    }
    EntityRef<ClusterShardingTypedTest.Command> entity = ClusterSharding.get(b).entityRefFor(ClusterShardingTypedTest.COUNTER, id);
    entity.tell(new ClusterShardingTypedTest.Add(1));
    assertEquals(new ClusterShardingTypedTest.Value(id, 6, a.address().toString()), get(entity),
        "the entity lived on, with its state, and its own messages pass");
    lifecycle.expectNoMessage(Duration.ofMillis(100));
  }

  private static ClusterShardingTypedTest.Value get(EntityRef<ClusterShardingTypedTest.Command> ref) throws Exception {
    return ref.<ClusterShardingTypedTest.Value>ask(ClusterShardingTypedTest.Get::new, WAIT).toCompletableFuture()
        .get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
  }
}
