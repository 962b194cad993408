package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.ActorRef;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * How a running router picks a routee; one instance per running router, used by its actor only.
 *
 * @param <T> what the routees accept
 */
abstract class RoutingLogic<T> {
  /**
   * The routee for a message.
   *
   * @param msg the message
   * @param routees the current routees, at least one
   * @return the routee, or null if the message cannot be routed (it goes to dead letters)
   */
  abstract ActorRef<T> select(T msg, ActorRef<T>[] routees);

  /**
   * The routees changed (also called once before the first {@link #select}).
   *
   * @param routees the new routees, possibly none
   */
  void routeesChanged(ActorRef<T>[] routees) {}

  /**
   * Sends a message a router cannot route to dead letters, with a warning that says why.
   *
   * @param ctx the router's context
   * @param msg the message
   * @param why the reason, for the log
   */
  static <T> void unroutable(ActorContext<T> ctx, T msg, String why) {
    ctx.getLog().warn("Router {} sent a message of class {} to dead letters: {}",
        ctx.getSelf().path(), msg.getClass().getName(), why);
    ctx.getSystem().deadLetters().tell(msg);
  }

  /**
   * A router's choice of logic: immutable, makes a fresh logic for each start of the router.
   *
   * @param <T> what the routees accept
   */
  interface Choice<T> {
    RoutingLogic<T> create();
  }

  static <T> Choice<T> roundRobin() {
    return RoundRobin::new;
  }

  static <T> Choice<T> random() {
    return RandomPick::new;
  }

  static <T> Choice<T> consistentHashing(int virtualNodesFactor, Function<T, String> mapping) {
    if (virtualNodesFactor < 1) {
      throw new IllegalArgumentException("virtualNodesFactor must be at least 1, was " + virtualNodesFactor);
    }
    Objects.requireNonNull(mapping, "mapping");
    return () -> new ConsistentHashing<>(virtualNodesFactor, mapping);
  }

  private static final class RoundRobin<T> extends RoutingLogic<T> {
    private int next;

    @Override
    ActorRef<T> select(T msg, ActorRef<T>[] routees) {
      int i = next;
      if (i >= routees.length) {
        i = 0;
      }
      next = i + 1;
      return routees[i];
    }
  }

  private static final class RandomPick<T> extends RoutingLogic<T> {
    @Override
    ActorRef<T> select(T msg, ActorRef<T>[] routees) {
      return routees[ThreadLocalRandom.current().nextInt(routees.length)];
    }
  }

  /**
   * A hash ring: each routee at {@code virtualNodesFactor} points (hashes of its path and the
   * point's number), a message at the hash of its key, owned by the first point at or after it.
   * Paths without uid, so that routers with the same routees agree.
   */
  static final class ConsistentHashing<T> extends RoutingLogic<T> {
    private final int virtualNodesFactor;
    private final Function<T, String> mapping;
    private int[] points = new int[0];
    private ActorRef<T>[] owners;

    ConsistentHashing(int virtualNodesFactor, Function<T, String> mapping) {
      this.virtualNodesFactor = virtualNodesFactor;
      this.mapping = mapping;
    }

    @Override
    @SuppressWarnings("unchecked")
    void routeesChanged(ActorRef<T>[] routees) {
      int n = routees.length * virtualNodesFactor;
      long[] keyed = new long[n]; // hash in the high half, index into `nodes` in the low half
      ActorRef<T>[] nodes = (ActorRef<T>[]) new ActorRef<?>[n];
      int k = 0;
      for (ActorRef<T> r : routees) {
        String node = r.path().toString();
        for (int v = 0; v < virtualNodesFactor; v++) {
          keyed[k] = ((long) hash(node + "#" + v) << 32) | k;
          nodes[k] = r;
          k++;
        }
      }
      Arrays.sort(keyed); // signed order of the hashes, then by index: deterministic for equal hashes
      int[] p = new int[n];
      ActorRef<T>[] o = (ActorRef<T>[]) new ActorRef<?>[n];
      for (int i = 0; i < n; i++) {
        p[i] = (int) (keyed[i] >> 32);
        o[i] = nodes[(int) keyed[i]];
      }
      points = p;
      owners = o;
    }

    @Override
    ActorRef<T> select(T msg, ActorRef<T>[] routees) {
      String key = mapping.apply(msg);
      if (key == null) {
        return null;
      }
      int[] p = points;
      int h = hash(key);
      int i = Arrays.binarySearch(p, h);
      if (i < 0) {
        i = -i - 1; // the first point after the key's hash
      } else {
        while (i > 0 && p[i - 1] == h) {
          i--; // the first of equal points (the search finds any of them)
        }
      }
      return owners[i == p.length ? 0 : i];
    }

    /** FNV-1a over the UTF-16 units, then murmur3's finalizer: well spread, the same on every JVM. */
    static int hash(String s) {
      int h = 0x811c9dc5;
      for (int i = 0; i < s.length(); i++) {
        h ^= s.charAt(i);
        h *= 0x01000193;
      }
      h ^= h >>> 16;
      h *= 0x85ebca6b;
      h ^= h >>> 13;
      h *= 0xc2b2ae35;
      h ^= h >>> 16;
      return h;
    }
  }
}
