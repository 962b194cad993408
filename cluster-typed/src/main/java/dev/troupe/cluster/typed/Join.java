package dev.troupe.cluster.typed;

import dev.troupe.actor.Address;
import java.util.Objects;

/**
 * Joins the cluster through the member at {@code address}; this member's own address founds a new
 * cluster. Ignored once this member has joined.
 *
 * @param address a remote address of this system's name
 */
public record Join(Address address) implements ClusterCommand {
  /** @param address not null */
  public Join {
    Objects.requireNonNull(address, "address");
  }

  /**
   * @param address where to join
   * @return the command
   */
  public static Join create(Address address) {
    return new Join(address);
  }
}
