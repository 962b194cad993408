package dev.troupe.cluster.spi;

import dev.troupe.cluster.UniqueAddress;
import java.util.Objects;
import java.util.Set;

/**
 * A member as an engine knows it.
 *
 * @param node its incarnation
 * @param roles the roles it joined with
 */
public record EngineMember(UniqueAddress node, Set<String> roles) {
  public EngineMember {
    Objects.requireNonNull(node, "node");
    roles = Set.copyOf(roles);
  }
}
