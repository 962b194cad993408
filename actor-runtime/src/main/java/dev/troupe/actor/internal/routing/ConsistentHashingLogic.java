package dev.troupe.actor.internal.routing;

import dev.troupe.actor.internal.ref.DeadLetterReason;
import dev.troupe.actor.internal.ref.DeadLettersRef;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.ActorSelectionRoutee;
import dev.troupe.routing.ConsistentHashMapper;
import dev.troupe.routing.ConsistentHashable;
import dev.troupe.routing.ConsistentHashableEnvelope;
import dev.troupe.routing.Routee;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A hash ring: each routee owns {@code virtualNodesFactor} points, hashed from its path and the
 * point's number; a key goes to the owner of the first point at or after the key's hash (wrapping).
 * The ring is rebuilt (sorted arrays) only when the routees change; a lookup is one hash and a
 * binary search. Hashes use String/array hash codes mixed with the MurmurHash3 finalizer, so string,
 * number and byte-array keys map the same way in every run.
 */
final class ConsistentHashingLogic implements RoutingLogic {
  /** Sorted points and the routee owning each. */
  record Ring(int[] points, Routee[] owners) {}

  private final ActorSystem system;
  private final ActorRef self;
  private final ConsistentHashMapper mapper;
  private final int virtualNodesFactor;

  ConsistentHashingLogic(ActorSystem system, ActorRef self, ConsistentHashMapper mapper, int virtualNodesFactor) {
    this.system = system;
    this.self = self;
    this.mapper = mapper;
    this.virtualNodesFactor = virtualNodesFactor;
  }

  @Override
  public Object prepare(Routee[] routees, Object previous) {
    int n = routees.length * virtualNodesFactor;
    long[] packed = new long[n]; // hash in the high half, routee index in the low half: one sort
    int k = 0;
    for (int i = 0; i < routees.length; i++) {
      String id = identity(routees[i]);
      for (int v = 0; v < virtualNodesFactor; v++) {
        int h = mix((id + "#" + v).hashCode());
        packed[k++] = ((long) h << 32) | i;
      }
    }
    Arrays.sort(packed);
    int[] points = new int[n];
    Routee[] owners = new Routee[n];
    for (int j = 0; j < n; j++) {
      points[j] = (int) (packed[j] >> 32);
      owners[j] = routees[(int) packed[j]];
    }
    return new Ring(points, owners);
  }

  private static String identity(Routee r) {
    if (r instanceof ActorRefRoutee a) {
      return a.ref().path().toString();
    }
    if (r instanceof ActorSelectionRoutee s) {
      return s.selection().pathString();
    }
    return r.toString();
  }

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    Object key = mapper == null ? null : mapper.hashKey(message);
    Object payload = message;
    if (key == null) {
      if (message instanceof ConsistentHashableEnvelope e) {
        key = e.hashKey();
        payload = e.message();
      } else if (message instanceof ConsistentHashable h) {
        key = h.consistentHashKey();
      }
    }
    if (key == null) {
      system.log().warning(
          "message of type {} to consistent-hashing router {} has no hash key: use a hash mapper, "
              + "ConsistentHashable or ConsistentHashableEnvelope",
          message.getClass().getName(), self.path());
      DeadLettersRef.publish(system, message, sender, self, DeadLetterReason.NO_ROUTEE);
      return;
    }
    Ring ring = (Ring) prepared;
    ring.owners[indexFor(ring.points, hash(key))].send(payload, sender);
  }

  static int indexFor(int[] points, int h) {
    int i = Arrays.binarySearch(points, h);
    if (i < 0) {
      i = -i - 1;
    }
    return i == points.length ? 0 : i;
  }

  static int hash(Object key) {
    if (key instanceof byte[] b) {
      return mix(Arrays.hashCode(b));
    }
    if (key instanceof String s) {
      return mix(Arrays.hashCode(s.getBytes(StandardCharsets.UTF_8)));
    }
    return mix(key.hashCode());
  }

  /** The MurmurHash3 32-bit finalizer: spreads close hash codes over the ring. */
  static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
