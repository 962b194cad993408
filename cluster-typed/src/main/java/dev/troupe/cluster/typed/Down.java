package dev.troupe.cluster.typed;

import dev.troupe.actor.Address;
import java.util.Objects;

/**
 * Downs the member at {@code address}: it is removed on every member, never comes back under that
 * incarnation, and shuts down.
 *
 * @param address a member's address
 */
public record Down(Address address) implements ClusterCommand {
  /** @param address not null */
  public Down {
    Objects.requireNonNull(address, "address");
  }
}
