package dev.troupe.cluster.internal.jgroups;

import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jgroups.util.ExtendedUUID;

/**
 * A Troupe member's identity (its {@link UniqueAddress} and roles) carried in its JGroups address.
 *
 * <p>JGroups names each member by a UUID; an {@link ExtendedUUID} adds key/value pairs that travel
 * wherever the address does (in discovery responses, join requests and every view), so every node
 * reads a member's identity from the view itself, with no second lookup. The identity is one small
 * blob, split over the keys {@code t0} .. {@code t7} because JGroups caps each value at 255 bytes:
 *
 * <pre>
 *   byte    format (1)
 *   UTF     the node's address, troupe://system@host:port
 *   long    the incarnation's uid (never 0)
 *   ubyte   number of roles (at most 64), then each role as UTF (non-empty)
 * </pre>
 *
 * <p>At most {@value #MAX_BYTES} bytes: a node whose address and roles do not fit is refused at
 * start ({@code troupe.cluster.roles} too long). A peer's identity is read with the same bounds; a
 * member whose identity is missing, too long or malformed is not a Troupe member ({@link
 * #decode} answers empty and the engine leaves it out of its views, with a warning).
 */
final class MemberIdentity {
  private static final byte FORMAT = 1;
  private static final int CHUNK = 255;
  private static final int MAX_CHUNKS = 8;
  static final int MAX_BYTES = CHUNK * MAX_CHUNKS;
  static final int MAX_ROLES = 64;
  private static final String[] KEYS = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"};

  private MemberIdentity() {}

  /**
   * @return the identity's bytes
   * @throws IllegalArgumentException when they exceed {@value #MAX_BYTES} bytes or there are more
   *     than {@value #MAX_ROLES} roles
   */
  static byte[] encode(UniqueAddress self, Set<String> roles) {
    if (roles.size() > MAX_ROLES) {
      throw new IllegalArgumentException("at most " + MAX_ROLES + " roles, was " + roles.size());
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeUTF(self.address().toString());
      out.writeLong(self.uid());
      out.writeByte(roles.size());
      for (String role : roles) {
        if (role.isEmpty()) {
          throw new IllegalArgumentException("a role must not be empty");
        }
        out.writeUTF(role);
      }
    } catch (IOException e) {
      // a byte array never fails; only a string over 64KiB of modified UTF-8 does
      throw new IllegalArgumentException("the node's address or a role is too long: " + e.getMessage(), e);
    }
    byte[] b = bytes.toByteArray();
    if (b.length > MAX_BYTES) {
      throw new IllegalArgumentException(
          "the node's address and roles take " + b.length + " bytes, at most " + MAX_BYTES + " fit");
    }
    return b;
  }

  /** @return a fresh JGroups address (random UUID) that carries {@code identity} */
  static ExtendedUUID address(byte[] identity) {
    ExtendedUUID uuid = ExtendedUUID.randomUUID();
    for (int i = 0, off = 0; off < identity.length; i++, off += CHUNK) {
      uuid.put(KEYS[i], Arrays.copyOfRange(identity, off, Math.min(identity.length, off + CHUNK)));
    }
    return uuid;
  }

  /** @return the identity's chunks as {@code member} carries them, in order (empty when it has none) */
  static List<byte[]> chunks(ExtendedUUID member) {
    List<byte[]> chunks = new ArrayList<>(2);
    for (String key : KEYS) {
      byte[] chunk = member.get(key);
      if (chunk == null) {
        break;
      }
      chunks.add(chunk);
    }
    return chunks;
  }

  /**
   * @param member a JGroups member's address, from a view
   * @return its Troupe identity, or empty when it has none or a malformed one
   */
  static Optional<EngineMember> decode(org.jgroups.Address member) {
    if (!(member instanceof ExtendedUUID uuid)) {
      return Optional.empty();
    }
    ByteArrayOutputStream blob = new ByteArrayOutputStream(64);
    for (String key : KEYS) {
      byte[] chunk = uuid.get(key);
      if (chunk == null) {
        break;
      }
      blob.writeBytes(chunk);
    }
    if (blob.size() == 0) {
      return Optional.empty();
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(blob.toByteArray()))) {
      if (in.readByte() != FORMAT) {
        return Optional.empty();
      }
      Address address = Address.parse(in.readUTF());
      if (address.host().isEmpty()) {
        return Optional.empty();
      }
      long uid = in.readLong();
      if (uid == 0) {
        return Optional.empty();
      }
      int count = in.readUnsignedByte();
      if (count > MAX_ROLES) {
        return Optional.empty();
      }
      Set<String> roles = new LinkedHashSet<>();
      for (int i = 0; i < count; i++) {
        String role = in.readUTF();
        if (role.isEmpty()) {
          return Optional.empty();
        }
        roles.add(role);
      }
      if (in.available() != 0) {
        return Optional.empty();
      }
      return Optional.of(new EngineMember(new UniqueAddress(address, uid), roles));
    } catch (IOException | IllegalArgumentException e) {
      // truncated, bad modified UTF-8, or not an address: not a Troupe member
      return Optional.empty();
    }
  }
}
