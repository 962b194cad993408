package dev.troupe.cluster.internal.jgroups;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipProviderFactory;

/**
 * {@code troupe.cluster.membership.provider = jgroups}: the embedded default engine, a JGroups
 * channel on a fixed stack (see {@link JGroupsStack}) with settings under {@code
 * troupe.cluster.jgroups}. Found by {@link java.util.ServiceLoader}.
 */
public final class JGroupsProviderFactory implements MembershipProviderFactory {
  /** The name {@code troupe.cluster.membership.provider} selects this engine by. */
  public static final String NAME = "jgroups";

  /** For {@link java.util.ServiceLoader}. */
  public JGroupsProviderFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public MembershipProvider create(MembershipContext context) {
    JGroupsSettings settings = JGroupsSettings.from(context);
    byte[] identity;
    try {
      identity = MemberIdentity.encode(context.self(), context.roles());
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(
          "invalid configuration value at 'troupe.cluster.roles': " + e.getMessage()
              + " (the JGroups engine carries a member's address and roles in its identity)",
          e);
    }
    JGroupsLogging.install();
    return new JGroupsMembershipProvider(context, settings, identity);
  }
}
