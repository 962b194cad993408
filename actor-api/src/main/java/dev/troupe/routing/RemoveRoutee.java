package dev.troupe.routing;

import java.util.Objects;

/**
 * Removes a routee from a router. A pool stops a removed routee that is its child (after the
 * messages already in the routee's mailbox, by sending it a {@code PoisonPill}) and stops itself
 * when no routee is left.
 *
 * @param routee the routee, compared by equality
 */
public record RemoveRoutee(Routee routee) implements RouterManagementMessage {
  /** @throws NullPointerException if {@code routee} is null */
  public RemoveRoutee {
    Objects.requireNonNull(routee, "routee");
  }
}
