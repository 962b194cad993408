package dev.troupe.routing;

import java.util.Objects;

/**
 * Adds a routee to a router (pool or group). An {@link ActorRefRoutee} added to a pool is watched
 * and removed when it stops, but it is not the pool's child, so the pool does not supervise or stop
 * it.
 *
 * @param routee the routee
 */
public record AddRoutee(Routee routee) implements RouterManagementMessage {
  /** @throws NullPointerException if {@code routee} is null */
  public AddRoutee {
    Objects.requireNonNull(routee, "routee");
  }
}
