package dev.troupe.routing;

import java.util.List;

/**
 * A router's answer to {@link GetRoutees}: a snapshot of its routees, in routing order.
 *
 * @param routees the routees (an immutable copy)
 */
public record Routees(List<Routee> routees) {
  /** Copies the list. */
  public Routees {
    routees = List.copyOf(routees);
  }
}
