package dev.troupe.remote.internal.provider;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Deploy;
import dev.troupe.actor.Props;
import java.io.IOException;
import java.time.Duration;

/**
 * A node in a JVM of its own, for {@link RemoteDeploymentNodeLossTest}: deploys one {@link
 * RemoteDeploymentNodeLossTest.Reporting} actor onto the node named by its first argument, which
 * reports to the actor at the path of its second, prints {@value #DEPLOYED_LINE} and the deployed
 * actor's path, and lives until its standard input closes or it is killed.
 */
public final class DeployingNode {
  static final String DEPLOYED_LINE = "deployed ";

  private DeployingNode() {}

  public static void main(String[] args) throws IOException {
    Address target = Address.parse(args[0]);
    ActorSystem system =
        ActorSystem.create(
            "deploying", ConfigFactory.parseString(NodeLossTest.FAST_DETECTION).withFallback(ConfigFactory.load()));
    ActorRef reporter =
        system.actorSelection(args[1]).resolveOne(Duration.ofSeconds(10)).toCompletableFuture().join();
    ActorRef child =
        system.actorOf(
            Props.create(RemoteDeploymentNodeLossTest.Reporting.class, reporter).withDeploy(Deploy.remote(target)),
            "child");
    System.out.println(DEPLOYED_LINE + child.path().toSerializationFormat());
    System.out.flush();
    while (System.in.read() >= 0) {
      // until the parent closes the pipe
    }
    system.terminate();
  }
}
