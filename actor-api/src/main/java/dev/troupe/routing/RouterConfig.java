package dev.troupe.routing;

import dev.troupe.actor.Props;

/**
 * How a router picks routees and where they come from: a {@link Pool} creates its routees as
 * children, a {@link Group} sends to actors given by path, and {@link FromConfig} reads either from
 * the deployment configuration.
 *
 * <p>Instances are immutable and thread-safe; the {@code with…} methods return new instances.
 * Invalid arguments fail at construction with an {@link IllegalArgumentException} naming the
 * parameter.
 */
public abstract sealed class RouterConfig permits Pool, Group, FromConfig {
  RouterConfig() {}

  /**
   * The dispatcher the router actor itself runs on (not the routees), or {@code null} for the
   * default dispatcher.
   *
   * @return the dispatcher id, or {@code null}
   */
  public abstract String routerDispatcher();

  /**
   * Props for a router of this kind whose pool routees are made from {@code routeeProps}: the same
   * as {@code routeeProps.withRouter(this)}, under the name Pekko's Java API gives it.
   *
   * @param routeeProps the routees' props (for a group, only their router is used)
   * @return the router's props
   */
  public Props props(Props routeeProps) {
    return routeeProps.withRouter(this);
  }

  static int positive(int value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, was " + value);
    }
    return value;
  }

  static java.time.Duration positive(java.time.Duration value, String name) {
    if (value == null) {
      throw new NullPointerException(name);
    }
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
    return value;
  }
}
