package dev.troupe.cluster.zookeeper;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipProviderFactory;
import dev.troupe.cluster.spi.EngineMember;

/**
 * {@code troupe.cluster.membership.provider = zookeeper}: membership on an Apache ZooKeeper ensemble
 * through Apache Curator, with settings under {@code troupe.cluster.zookeeper}. Found by {@link
 * java.util.ServiceLoader} (on the class path: ZooKeeper's jars split packages between them, so it
 * cannot run on a module path).
 */
public final class ZooKeeperProviderFactory implements MembershipProviderFactory {
  /** The name {@code troupe.cluster.membership.provider} selects this engine by. */
  public static final String NAME = "zookeeper";

  /** For {@link java.util.ServiceLoader}. */
  public ZooKeeperProviderFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public MembershipProvider create(MembershipContext context) {
    ZooKeeperSettings settings = ZooKeeperSettings.from(context);
    try {
      MemberRecord.encode(new EngineMember(context.self(), context.roles()));
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("invalid configuration value at 'troupe.cluster.roles': " + e.getMessage()
          + " (the ZooKeeper engine keeps a member's address and roles in its node)", e);
    }
    return new ZooKeeperMembershipProvider(context, settings);
  }
}
