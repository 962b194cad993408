package dev.troupe.cluster.internal.inmemory;

import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipProviderFactory;

/**
 * {@code troupe.cluster.membership.provider = in-memory}: the test engine (see {@link
 * InMemoryCluster}). It reads no settings of its own.
 */
public final class InMemoryProviderFactory implements MembershipProviderFactory {
  /** The name {@code troupe.cluster.membership.provider} selects this engine by. */
  public static final String NAME = "in-memory";

  /** For {@link java.util.ServiceLoader}. */
  public InMemoryProviderFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public MembershipProvider create(MembershipContext context) {
    return new InMemoryMembershipProvider(context);
  }
}
