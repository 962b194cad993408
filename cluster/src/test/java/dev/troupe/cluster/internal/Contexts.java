package dev.troupe.cluster.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.MembershipContext;
import java.time.Duration;
import java.util.Set;

/** Membership contexts for engine tests: nodes on 127.0.0.1 that never start remoting. */
public final class Contexts {
  private Contexts() {}

  /** Fast failure detection for tests: a heartbeat each 200 ms, suspected after 1 s of silence. */
  public static final Duration HEARTBEAT = Duration.ofMillis(200);
  /** See {@link #HEARTBEAT}. */
  public static final Duration PAUSE = Duration.ofSeconds(1);

  /** @return the node {@code troupe://system@127.0.0.1:port} with this uid */
  public static UniqueAddress node(String system, int port, long uid) {
    return new UniqueAddress(Address.remote(system, "127.0.0.1", port), uid);
  }

  /** @return the {@code troupe.cluster} section: {@code hocon} over the reference */
  public static Config clusterConfig(String hocon) {
    return ConfigFactory.parseString(hocon)
        .withFallback(ConfigFactory.defaultReference())
        .resolve()
        .getConfig("troupe.cluster");
  }

  /** @return a context for {@code self} in the cluster named after its system, with the test timings */
  public static MembershipContext context(UniqueAddress self, Set<String> roles, String hocon) {
    return new MembershipContext(
        self, roles, self.address().system(), HEARTBEAT, PAUSE, clusterConfig(hocon));
  }
}
