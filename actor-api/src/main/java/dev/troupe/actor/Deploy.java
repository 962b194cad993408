package dev.troupe.actor;

import java.util.Objects;
import java.util.Optional;

/** Where an actor is deployed: in its parent's system (the default) or on a remote system. */
public final class Deploy {
  private static final Deploy LOCAL = new Deploy(null);

  private final Address remote; // null = local

  private Deploy(Address remote) {
    this.remote = remote;
  }

  /** @return deployment in the parent's own system */
  public static Deploy local() {
    return LOCAL;
  }

  /**
   * Deployment onto another system (needs {@code troupe.actor.provider = remote}).
   *
   * @param address the target system's address
   * @return the deployment
   */
  public static Deploy remote(Address address) {
    Objects.requireNonNull(address, "address");
    if (address.hasLocalScope()) {
      throw new IllegalArgumentException(
          "remote deployment needs an address with host and port, got " + address);
    }
    return new Deploy(address);
  }

  /** @return the remote address, empty for local deployment */
  public Optional<Address> remoteAddress() {
    return Optional.ofNullable(remote);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Deploy d && Objects.equals(remote, d.remote);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(remote);
  }

  @Override
  public String toString() {
    return remote == null ? "Deploy[local]" : "Deploy[remote=" + remote + "]";
  }
}
