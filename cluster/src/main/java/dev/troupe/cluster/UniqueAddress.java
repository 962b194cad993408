package dev.troupe.cluster;

import dev.troupe.actor.Address;
import java.util.Objects;

/**
 * One incarnation of a node: its address and the uid that actor system drew when it started. A node
 * that restarts on the same host and port is a new incarnation with a new uid; a removed
 * incarnation never comes back.
 *
 * @param address the node's remote address ({@code troupe://sys@host:port})
 * @param uid the incarnation's uid, never 0
 */
public record UniqueAddress(Address address, long uid) implements Comparable<UniqueAddress> {
  public UniqueAddress {
    Objects.requireNonNull(address, "address");
    if (uid == 0) {
      throw new IllegalArgumentException("a node's uid is never 0: " + address);
    }
  }

  /** Orders by host, then port, then uid: the deterministic order ties are broken by. */
  @Override
  public int compareTo(UniqueAddress o) {
    int c = address.host().orElse("").compareTo(o.address.host().orElse(""));
    if (c == 0) {
      c = Integer.compare(address.port().orElse(0), o.address.port().orElse(0));
    }
    if (c == 0) {
      c = address.toString().compareTo(o.address.toString());
    }
    return c != 0 ? c : Long.compare(uid, o.uid);
  }

  @Override
  public String toString() {
    return address + "#" + uid;
  }
}
