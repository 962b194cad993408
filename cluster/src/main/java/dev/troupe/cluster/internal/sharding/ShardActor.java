package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.remote.Dropped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One shard on its owner: a child of the region, the parent of the shard's entities. Creates an
 * entity on its first message; handles {@link ShardRegion.Passivate} (sends the entity its stop
 * message and holds its messages until it has stopped, then starts it again if any came) and idle
 * passivation (with the type's hand-off stop message, {@code PoisonPill} by default); on {@link
 * Protocol.HandOff} stops every entity after the messages already in its mailbox (with the same
 * message), sends what arrives meanwhile back to the region (which routes it to the new owner), and
 * stops itself when the last entity has.
 *
 * <p>All state is the shard's own (actor thread only).
 */
final class ShardActor extends AbstractActorWithTimers {
  private final String typeName;
  private final String shardId;
  private final Props entityProps;
  private final ShardRegion.MessageExtractor extractor;
  private final int bufferSize;
  private final Object handOffStopMessage;
  private final long idleNanos; // 0 = no idle passivation
  private final Map<String, Entity> entities = new HashMap<>();
  private final Map<ActorRef, String> idsByRef = new HashMap<>();
  private boolean handingOff;

  /** One live entity; {@code pending} is non-null while it is being stopped (passivation). */
  private static final class Entity {
    final ActorRef ref;
    long lastMessageNanos;
    ArrayDeque<Protocol.Buffered> pending;

    Entity(ActorRef ref, long now) {
      this.ref = ref;
      this.lastMessageNanos = now;
    }
  }

  ShardActor(String typeName, String shardId, Props entityProps, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor, Object handOffStopMessage) {
    this.handOffStopMessage = handOffStopMessage;
    this.typeName = typeName;
    this.shardId = shardId;
    this.entityProps = entityProps;
    this.extractor = extractor;
    this.bufferSize = settings.bufferSize();
    this.idleNanos = settings.passivateIdleAfter().map(Duration::toNanos).orElse(0L);
  }

  static Props props(String typeName, String shardId, Props entityProps, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor, Object handOffStopMessage) {
    return Props.create(ShardActor.class,
        () -> new ShardActor(typeName, shardId, entityProps, settings, extractor, handOffStopMessage));
  }

  @Override
  public void preStart() {
    if (idleNanos > 0) {
      Duration every = Duration.ofNanos(Math.max(idleNanos / 4, Duration.ofMillis(10).toNanos()));
      getTimers().startTimerWithFixedDelay(Protocol.IdleTick.INSTANCE, Protocol.IdleTick.INSTANCE, every);
    }
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(Terminated.class, this::onTerminated)
        .match(ShardRegion.Passivate.class, this::onPassivate)
        .matchEquals(Protocol.HandOff.INSTANCE, m -> onHandOff())
        .matchEquals(Protocol.IdleTick.INSTANCE, m -> onIdleTick())
        .matchEquals(Protocol.GetShardState.INSTANCE,
            m -> getSender().tell(new ShardRegion.ShardState(shardId, Set.copyOf(entities.keySet())), getSelf()))
        .matchAny(this::deliver)
        .build();
  }

  private void deliver(Object message) {
    deliver(message, getSender());
  }

  private void deliver(Object message, ActorRef sender) {
    if (handingOff) {
      getContext().getParent().tell(message, sender); // the region routes it to the new owner
      return;
    }
    String id;
    Object entityMessage;
    if (message instanceof ShardRegion.StartEntity s) {
      id = s.entityId();
      entityMessage = s;
    } else {
      try {
        id = extractor.entityId(message);
        entityMessage = id == null ? null : extractor.entityMessage(message);
      } catch (RuntimeException x) { // the user's code: a failure here must not restart the shard
        getContext().getSystem().getEventStream().publish(new Dropped(message,
            "sharding type '" + typeName + "': the extractor failed on it: " + x, sender, getSelf()));
        return;
      }
    }
    if (id == null || id.isEmpty() || entityMessage == null) {
      getContext().getSystem().getEventStream().publish(new Dropped(message,
          "sharding type '" + typeName + "': the extractor gave no entity id or message", sender, getSelf()));
      return;
    }
    Entity e = entities.get(id);
    if (e == null) {
      e = start(id);
    } else if (e.pending != null) {
      hold(e, message, sender);
      return;
    }
    if (idleNanos > 0) {
      e.lastMessageNanos = System.nanoTime();
    }
    if (!(entityMessage instanceof ShardRegion.StartEntity)) {
      e.ref.tell(entityMessage, sender);
    }
  }

  private Entity start(String id) {
    ActorRef ref = getContext().actorOf(entityProps, URLEncoder.encode(id, StandardCharsets.UTF_8));
    getContext().watch(ref);
    Entity e = new Entity(ref, idleNanos > 0 ? System.nanoTime() : 0L);
    entities.put(id, e);
    idsByRef.put(ref, id);
    return e;
  }

  private void hold(Entity e, Object message, ActorRef sender) {
    if (e.pending.size() >= bufferSize) {
      getContext().getSystem().getEventStream().publish(new Dropped(message, "sharding type '" + typeName
          + "': buffer of a passivating entity in shard " + shardId + " is full (buffer-size = " + bufferSize + ")",
          sender, getSelf()));
      return;
    }
    e.pending.add(new Protocol.Buffered(message, sender));
  }

  private void onPassivate(ShardRegion.Passivate p) {
    String id = idsByRef.get(getSender());
    if (id == null) {
      return; // not one of ours, or already gone
    }
    passivate(entities.get(id), p.stopMessage());
  }

  private void passivate(Entity e, Object stopMessage) {
    if (e.pending == null) {
      e.pending = new ArrayDeque<>();
      e.ref.tell(stopMessage, getSelf());
    }
  }

  private void onIdleTick() {
    long now = System.nanoTime();
    for (Entity e : entities.values()) {
      if (e.pending == null && now - e.lastMessageNanos >= idleNanos) {
        passivate(e, handOffStopMessage); // the type's stop message: the entity may save its state
      }
    }
  }

  private void onHandOff() {
    handingOff = true;
    getTimers().cancelAll();
    if (entities.isEmpty()) {
      getContext().stop(getSelf());
      return;
    }
    for (Entity e : entities.values()) {
      if (e.pending == null) {
        e.pending = new ArrayDeque<>();
        e.ref.tell(handOffStopMessage, getSelf()); // after the messages already in its mailbox
      }
    }
  }

  private void onTerminated(Terminated t) {
    String id = idsByRef.remove(t.actor());
    if (id == null) {
      return;
    }
    Entity e = entities.remove(id);
    ArrayDeque<Protocol.Buffered> pending = e.pending;
    if (pending != null) {
      for (Protocol.Buffered b : pending) {
        deliver(b.message(), b.sender()); // starts it again, or (handing off) back to the region
      }
    }
    if (handingOff && entities.isEmpty()) {
      getContext().stop(getSelf());
    }
  }

  /** @return the ids of the live entities, sorted (for logs) */
  @Override
  public String toString() {
    return "Shard(" + typeName + "/" + shardId + ", " + new TreeSet<>(entities.keySet()) + ")";
  }
}
