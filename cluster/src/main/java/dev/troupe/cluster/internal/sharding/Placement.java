package dev.troupe.cluster.internal.sharding;

import dev.troupe.cluster.UniqueAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Where a shard lives: a pure function of the shard id and the members that may host it, so every
 * node computes the same owner from the same view. Rendezvous (highest-random-weight) hashing: each
 * (shard, member) pair gets a pseudo-random weight and the member with the highest weight owns the
 * shard. A member's arrival takes from each other member only the shards it now outweighs them on
 * (about 1/n of the shards); a departure moves only the departed member's shards. The weights use
 * only values that are the same on every JVM (the UTF-8 bytes of the shard id and of the member's
 * address, and its uid), never {@code Object.hashCode}.
 *
 * <p>Immutable and thread-safe; the members' hashes are computed once per view.
 */
public final class Placement {
  private final UniqueAddress[] members;
  private final long[] memberHashes;

  /**
   * @param members the members that may host shards (any order; duplicates are ignored in effect)
   */
  public Placement(List<UniqueAddress> members) {
    this.members = members.toArray(new UniqueAddress[0]);
    this.memberHashes = new long[this.members.length];
    for (int i = 0; i < this.members.length; i++) {
      memberHashes[i] = memberHash(this.members[i]);
    }
  }

  /** @return whether there is no member to place shards on */
  public boolean isEmpty() {
    return members.length == 0;
  }

  /**
   * @param shardId a shard id
   * @return its owner, or {@code null} when there are no members
   */
  public UniqueAddress owner(String shardId) {
    if (members.length == 0) {
      return null;
    }
    long sh = hash(shardId);
    UniqueAddress best = members[0];
    long bestWeight = weight(sh, memberHashes[0]);
    for (int i = 1; i < members.length; i++) {
      long w = weight(sh, memberHashes[i]);
      int c = Long.compareUnsigned(w, bestWeight);
      if (c > 0 || (c == 0 && members[i].compareTo(best) < 0)) {
        best = members[i];
        bestWeight = w;
      }
    }
    return best;
  }

  /**
   * @param shardId a shard id
   * @param members the members that may host it
   * @return its owner, or {@code null} when {@code members} is empty
   */
  public static UniqueAddress owner(String shardId, List<UniqueAddress> members) {
    return new Placement(members).owner(shardId);
  }

  static long weight(long shardHash, long memberHash) {
    return mix(shardHash ^ mix(memberHash + 0x9E3779B97F4A7C15L));
  }

  static long memberHash(UniqueAddress m) {
    return mix(hash(m.address().toString()) ^ (m.uid() * 0xC2B2AE3D27D4EB4FL));
  }

  /** FNV-1a over the UTF-8 bytes: the same on every JVM. */
  static long hash(String s) {
    long h = 0xCBF29CE484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xFF;
      h *= 0x100000001B3L;
    }
    return mix(h);
  }

  /** A 64-bit finalizer (the one of MurmurHash3): every input bit affects every output bit. */
  static long mix(long z) {
    z ^= z >>> 33;
    z *= 0xFF51AFD7ED558CCDL;
    z ^= z >>> 33;
    z *= 0xC4CEB9FE1A85EC53L;
    z ^= z >>> 33;
    return z;
  }
}
