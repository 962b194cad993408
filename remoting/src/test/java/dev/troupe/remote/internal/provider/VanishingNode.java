package dev.troupe.remote.internal.provider;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import java.io.IOException;

/**
 * A node in a JVM of its own, for {@link NodeLossTest}: starts a remote system with one actor,
 * {@code /user/target}, prints {@value #PORT_LINE} and its port, and lives until its standard input
 * closes (its parent went) or it is killed.
 */
public final class VanishingNode {
  static final String SYSTEM = "vanishing";
  static final String PORT_LINE = "vanishing-node-port ";

  private VanishingNode() {}

  public static void main(String[] args) throws IOException {
    ActorSystem system = ActorSystem.create(SYSTEM, ConfigFactory.parseString(NodeLossTest.FAST_DETECTION).withFallback(ConfigFactory.load()));
    system.actorOf(Props.create(NodeLossTest.Idle.class), "target");
    System.out.println(PORT_LINE + system.address().port().orElseThrow());
    System.out.flush();
    while (System.in.read() >= 0) {
      // until the parent closes the pipe
    }
    system.terminate();
  }
}
