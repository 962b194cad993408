package dev.troupe.cluster.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A member's node data: round trip, and every malformed or oversized record refused with its own exception. */
class MemberRecordTest {
  private static final EngineMember M = new EngineMember(
      new UniqueAddress(Address.remote("sys", "127.0.0.1", 25520), -4711L), Set.of("backend", "eu-west"));

  @Test
  void aRecordRoundTrips() {
    assertEquals(M, MemberRecord.decode(MemberRecord.encode(M)));
    EngineMember noRoles = new EngineMember(M.node(), Set.of());
    assertEquals(noRoles, MemberRecord.decode(MemberRecord.encode(noRoles)));
  }

  @Test
  void malformedRecordsAreRefused() {
    String ok = new String(MemberRecord.encode(M), StandardCharsets.UTF_8);
    for (String bad : new String[] {"", "troupe-member-2\n1\ntroupe://sys@h:1\n", "troupe-member-1\nx\ntroupe://sys@h:1\n",
        "troupe-member-1\n1\ntroupe://sys\n", "troupe-member-1\n1\nnot an address\n", "troupe-member-1\n1\ntroupe://sys@h:1",
        "troupe-member-1\n1\ntroupe://sys@h:1\n\n", ok.substring(0, ok.length() - 1)}) {
      assertThrows(IllegalArgumentException.class, () -> MemberRecord.decode(bad.getBytes(StandardCharsets.UTF_8)),
          bad);
    }
    assertThrows(IllegalArgumentException.class, () -> MemberRecord.decode(null));
    assertThrows(IllegalArgumentException.class, () -> MemberRecord.decode(new byte[MemberRecord.MAX_BYTES + 1]));
    StringBuilder many = new StringBuilder("troupe-member-1\n1\ntroupe://sys@h:1\n");
    for (int i = 0; i <= MemberRecord.MAX_ROLES; i++) {
      many.append("r").append(i).append('\n');
    }
    assertThrows(IllegalArgumentException.class, () -> MemberRecord.decode(many.toString().getBytes(StandardCharsets.UTF_8)));
    assertThrows(IllegalArgumentException.class,
        () -> MemberRecord.encode(new EngineMember(M.node(), Set.of("two\nlines"))));
  }

  @Test
  void noiseIsRefusedWithTheRecordsOwnException() {
    Random random = new Random(7);
    byte[] ok = MemberRecord.encode(M);
    for (int i = 0; i < 2000; i++) {
      byte[] b = i % 2 == 0 ? new byte[random.nextInt(64)] : ok.clone();
      if (i % 2 == 0) {
        random.nextBytes(b);
      } else {
        b[random.nextInt(b.length)] = (byte) random.nextInt();
      }
      try {
        MemberRecord.decode(b);
      } catch (IllegalArgumentException expected) {
        // refused: the only way a record may fail
      }
    }
  }
}
