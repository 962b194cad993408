package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.receptionist.Protocol;
import dev.troupe.testkit.TestKit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a peer can send the receptionist directory, fuzzed: valid frames of both kinds (up to the
 * bounds), then each cut, bit-flipped, overwritten with random bytes, grown or given another
 * manifest, and wholly random frames. Every frame must decode to a directory message that keeps the
 * bounds, or be refused with an {@link IllegalArgumentException} (the transport drops that message
 * and goes on); any other throwable, an over-bound message, or a message that decodes differently
 * twice is a failure, reported with the seed and the frame. Bounded in count and time.
 */
class ReceptionistMessageFuzzTest {
  private static final int ROUNDS = 20_000;
  private static final long MAX_NANOS = 10_000_000_000L;
  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  @Test
  void everyMutatedFrameDecodesWithinTheBoundsOrIsRefusedCleanly() {
    ActorSystem system = nodes.start("rfuzz", "in-memory");
    ReceptionistMessageSerializer ser = new ReceptionistMessageSerializer(system);
    long seed = Long.getLong("troupe.fuzz.seed", System.nanoTime());
    Random random = new Random(seed);

    List<ActorRef> refs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      refs.add(new TestKit(system).getRef());
    }
    UniqueAddress node = new UniqueAddress(Address.remote("sys", "127.0.0.1", 2552), 7);
    List<byte[]> valid = new ArrayList<>();
    List<String> manifests = new ArrayList<>();
    for (int k = 0; k < 16; k++) {
      Object m = random.nextBoolean() ? state(node, random, refs) : new Protocol.Update(node, name(random), instances(random, refs));
      valid.add(ser.toBinary(m));
      manifests.add(ser.manifest(m));
    }

    int decoded = 0;
    int refused = 0;
    long start = System.nanoTime();
    for (int round = 0; round < ROUNDS && System.nanoTime() - start < MAX_NANOS; round++) {
      int pick = random.nextInt(valid.size());
      byte[] frame = mutate(valid.get(pick), random);
      String manifest = random.nextInt(10) == 0 ? "" + (char) ('A' + random.nextInt(26)) : manifests.get(pick);
      Object first;
      try {
        first = ser.fromBinary(frame, manifest);
      } catch (IllegalArgumentException e) {
        refused++;
        continue;
      } catch (Throwable t) {
        throw new AssertionError("seed " + seed + ", round " + round + ", manifest " + manifest + ", frame " + Arrays.toString(frame) + ": " + t, t);
      }
      decoded++;
      assertWithinBounds(first, seed, round);
      Object again = ser.fromBinary(frame, manifest);
      if (!first.equals(again)) {
        fail("seed " + seed + ", round " + round + ": one frame decoded as " + first + " and as " + again);
      }
    }
    assertTrue(refused > 0 && decoded > 0, "the fuzzing reached both outcomes (seed " + seed + "): " + decoded + " decoded, " + refused + " refused");
  }

  private static void assertWithinBounds(Object m, long seed, int round) {
    Map<String, Set<ActorRef>> services;
    if (m instanceof Protocol.State s) {
      services = s.services();
    } else if (m instanceof Protocol.Update u) {
      services = Map.of(u.service(), u.instances());
    } else {
      throw new AssertionError("seed " + seed + ", round " + round + ": not a directory message: " + m);
    }
    int instances = services.values().stream().mapToInt(Set::size).sum();
    assertTrue(services.size() <= Protocol.MAX_SERVICES && instances <= Protocol.MAX_INSTANCES
            && services.keySet().stream().allMatch(n -> n.length() <= Protocol.MAX_NAME),
        "seed " + seed + ", round " + round + ": a decoded message past the bounds: " + services.size() + " services, " + instances + " instances");
  }

  private static Protocol.State state(UniqueAddress node, Random random, List<ActorRef> refs) {
    Map<String, Set<ActorRef>> services = new HashMap<>();
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      services.put(name(random) + i, instances(random, refs));
    }
    return new Protocol.State(node, random.nextBoolean(), services);
  }

  private static String name(Random random) {
    return "x.Msg#" + "k".repeat(random.nextInt(40));
  }

  private static Set<ActorRef> instances(Random random, List<ActorRef> refs) {
    Set<ActorRef> s = new HashSet<>();
    int n = random.nextInt(refs.size() + 1);
    for (int i = 0; i < n; i++) {
      s.add(refs.get(random.nextInt(refs.size())));
    }
    return s;
  }

  /** One of: a cut, up to 8 bit flips, a run of random bytes, random bytes appended, a random frame. */
  private static byte[] mutate(byte[] valid, Random random) {
    byte[] b = valid.clone();
    switch (random.nextInt(5)) {
      case 0 -> b = Arrays.copyOf(b, random.nextInt(b.length + 1));
      case 1 -> {
        for (int i = 1 + random.nextInt(8); i > 0; i--) {
          int at = random.nextInt(b.length);
          b[at] ^= (byte) (1 << random.nextInt(8));
        }
      }
      case 2 -> {
        int at = random.nextInt(b.length);
        for (int i = at; i < Math.min(b.length, at + 1 + random.nextInt(8)); i++) {
          b[i] = (byte) random.nextInt(256);
        }
      }
      case 3 -> {
        byte[] grown = Arrays.copyOf(b, b.length + 1 + random.nextInt(16));
        for (int i = b.length; i < grown.length; i++) {
          grown[i] = (byte) random.nextInt(256);
        }
        b = grown;
      }
      default -> {
        b = new byte[random.nextInt(64)];
        random.nextBytes(b);
      }
    }
    return b;
  }
}
