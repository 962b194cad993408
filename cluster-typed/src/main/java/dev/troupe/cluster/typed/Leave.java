package dev.troupe.cluster.typed;

import dev.troupe.actor.Address;
import java.util.Objects;

/**
 * Makes the member at {@code address} leave gracefully (left, exited, removed); that member then
 * shuts down.
 *
 * @param address a member's address: this member's own, or another's
 */
public record Leave(Address address) implements ClusterCommand {
  /** @param address not null */
  public Leave {
    Objects.requireNonNull(address, "address");
  }

  /**
   * @param address the member that leaves
   * @return the command
   */
  public static Leave create(Address address) {
    return new Leave(address);
  }
}
