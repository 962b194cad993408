package dev.troupe.cluster.internal.jgroups;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipProviderFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code troupe.cluster.membership.provider = jgroups}: the embedded default engine, a JGroups
 * channel on a fixed stack (see {@link JGroupsStack}) with settings under {@code
 * troupe.cluster.jgroups}. Found by {@link java.util.ServiceLoader}. Warns once, when the engine is
 * made, if it will listen on an address other than loopback with neither TLS nor {@code
 * auth-secret}.
 */
public final class JGroupsProviderFactory implements MembershipProviderFactory {
  private static final Logger log = LoggerFactory.getLogger(JGroupsProviderFactory.class);
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
    if (!settings.authenticated() && !settings.bindAddress().isLoopbackAddress()) {
      log.warn(
          "{}: the cluster's membership engine listens on {} (ports {} and + 100..103) with no authentication: anyone "
              + "who reaches those ports can join the membership. Set troupe.cluster.jgroups.auth-secret, or run "
              + "remoting with TLS (troupe.remote.tls.enabled = on), which puts the engine under TLS too.",
          context.self(), settings.bindAddress().getHostAddress(),
          settings.bindPort() == 0 ? "an ephemeral port" : String.valueOf(settings.bindPort()));
    }
    return new JGroupsMembershipProvider(context, settings, identity);
  }
}
