package dev.troupe.cluster.internal.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.spi.EngineMember;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

/** A member's identity in its JGroups address: round trips, bounds, and every malformed form read as "none". */
class MemberIdentityTest {
  private static final UniqueAddress NODE = Contexts.node("identity", 2552, 42);

  @Test
  void anIdentityRoundTripsWithItsRoles() {
    Set<String> roles = new LinkedHashSet<>(Set.of("worker", "frontend"));
    Optional<EngineMember> m = MemberIdentity.decode(MemberIdentity.address(MemberIdentity.encode(NODE, roles)));
    assertEquals(Optional.of(new EngineMember(NODE, roles)), m);
  }

  @Test
  void anIdentityLongerThanOneValueIsSplitAndJoinedAgain() {
    // 1,800 bytes of roles: over seven of JGroups' 255-byte values
    Set<String> roles = IntStream.range(0, 18).mapToObj(i -> i + "-" + "r".repeat(97)).collect(Collectors.toSet());
    byte[] identity = MemberIdentity.encode(NODE, roles);
    assertTrue(identity.length > 255 * 7, "spans many values: " + identity.length);
    assertEquals(Optional.of(new EngineMember(NODE, roles)), MemberIdentity.decode(MemberIdentity.address(identity)));
  }

  @Test
  void anIdentityThatDoesNotFitIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> MemberIdentity.encode(NODE, Set.of("r".repeat(MemberIdentity.MAX_BYTES))));
    Set<String> many = IntStream.range(0, MemberIdentity.MAX_ROLES + 1).mapToObj(i -> "r" + i).collect(Collectors.toSet());
    assertThrows(IllegalArgumentException.class, () -> MemberIdentity.encode(NODE, many));
    assertThrows(IllegalArgumentException.class, () -> MemberIdentity.encode(NODE, Set.of("")));
  }

  @Test
  void malformedIdentitiesAreNone() throws IOException {
    byte[] good = MemberIdentity.encode(NODE, Set.of("a"));
    assertEquals(Optional.empty(), MemberIdentity.decode(UUID.randomUUID()), "a plain JGroups member");
    assertEquals(Optional.empty(), MemberIdentity.decode(ExtendedUUID.randomUUID()), "no identity keys");
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(new byte[0])), "empty");
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(Arrays.copyOf(good, good.length - 1))), "truncated");
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(Arrays.copyOf(good, good.length + 1))), "trailing bytes");
    byte[] otherFormat = good.clone();
    otherFormat[0] = 2;
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(otherFormat)), "an unknown format");
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(blob("troupe://identity@127.0.0.1:2552", 0, 0))), "uid 0");
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(blob("troupe://identity", 1, 0))), "a local address");
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(blob("not an address", 1, 0))), "not an address");
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(blob("troupe://identity@127.0.0.1:2552", 1, 65))), "too many roles");
    byte[] badUtf = good.clone();
    badUtf[3] = (byte) 0xff; // inside the address's modified UTF-8
    assertEquals(Optional.empty(), MemberIdentity.decode(withT0(badUtf)), "bad UTF-8");
  }

  private static ExtendedUUID withT0(byte[] value) {
    return ExtendedUUID.randomUUID().put("t0", value);
  }

  /** An identity blob with this address and uid, and {@code roles} role entries announced but only empty names written. */
  private static byte[] blob(String address, long uid, int roles) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(1);
      out.writeUTF(address);
      out.writeLong(uid);
      out.writeByte(roles);
      for (int i = 0; i < roles; i++) {
        out.writeUTF("r");
      }
    }
    return bytes.toByteArray();
  }
}
