package dev.troupe.cluster.spi;

/**
 * Makes one node's membership engine. Registered as a {@link java.util.ServiceLoader} service (or
 * named by class in {@code troupe.cluster.membership.provider}); needs a public no-argument
 * constructor.
 */
public interface MembershipProviderFactory {
  /** @return the name {@code troupe.cluster.membership.provider} selects it by, e.g. {@code jgroups} */
  String name();

  /**
   * @param context who this node is and the engine's settings
   * @return an engine not yet joined to anything
   * @throws dev.troupe.actor.ConfigurationException when the engine's settings are malformed,
   *     naming the full key
   */
  MembershipProvider create(MembershipContext context);
}
