package dev.troupe.cluster.zookeeper;

import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A member's node data: a version line, its incarnation's uid, its address and one line per role,
 * in UTF-8. Read back with bounds (size, role count, line content): what is in the ensemble was
 * written by members, but an ensemble is shared, and a bad node must cost one refused member, not a
 * failed view.
 */
final class MemberRecord {
  static final String VERSION = "troupe-member-1";
  static final int MAX_BYTES = 8 * 1024;
  static final int MAX_ROLES = 128;

  private MemberRecord() {}

  static byte[] encode(EngineMember m) {
    StringBuilder b = new StringBuilder(VERSION).append('\n')
        .append(m.node().uid()).append('\n')
        .append(m.node().address()).append('\n');
    for (String role : m.roles()) {
      if (role.isEmpty() || role.indexOf('\n') >= 0 || role.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("a role must be non-empty and on one line, was '" + role + "'");
      }
      b.append(role).append('\n');
    }
    byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES || m.roles().size() > MAX_ROLES) {
      throw new IllegalArgumentException("at most " + MAX_ROLES + " roles in " + MAX_BYTES + " bytes, were "
          + m.roles().size() + " in " + bytes.length);
    }
    return bytes;
  }

  /**
   * @param data a member node's data
   * @return the member
   * @throws IllegalArgumentException if the data is not a member record within the bounds
   */
  static EngineMember decode(byte[] data) {
    if (data == null || data.length == 0 || data.length > MAX_BYTES) {
      throw new IllegalArgumentException("a member record is 1.." + MAX_BYTES + " bytes, was "
          + (data == null ? "none" : data.length));
    }
    String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", -1);
    if (lines.length < 4 || !lines[0].equals(VERSION) || !lines[lines.length - 1].isEmpty()) {
      throw new IllegalArgumentException("not a " + VERSION + " record");
    }
    if (lines.length - 4 > MAX_ROLES) {
      throw new IllegalArgumentException("more than " + MAX_ROLES + " roles");
    }
    long uid;
    try {
      uid = Long.parseLong(lines[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a uid is a number, was '" + lines[1] + "'", e);
    }
    Address address = Address.parse(lines[2]);
    if (address.hasLocalScope()) {
      throw new IllegalArgumentException("a member's address has a host and port, was " + address);
    }
    Set<String> roles = new LinkedHashSet<>();
    for (int i = 3; i < lines.length - 1; i++) {
      if (lines[i].isEmpty()) {
        throw new IllegalArgumentException("an empty role");
      }
      roles.add(lines[i]);
    }
    return new EngineMember(new UniqueAddress(address, uid), roles);
  }
}
