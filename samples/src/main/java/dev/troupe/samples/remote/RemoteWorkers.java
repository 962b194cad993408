package dev.troupe.samples.remote;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.samples.Sample;
import dev.troupe.samples.routing.WatchTheRoutees;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code watch-the-routees} job with its workers on other nodes: the master's pool stays on the
 * master's node, and the deployment section {@code "/master/workers" { target.nodes = [...] }}
 * deploys its routees onto the worker nodes in turn. The master supervises them (a poisoned task's
 * worker is restarted across the wire, then stopped) and watches them (it aborts when one dies).
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar remote-workers                       # two worker nodes in this JVM
 * java -jar samples/target/troupe-samples.jar remote-workers --serve 2553          # a worker node (terminal 1)
 * java -jar samples/target/troupe-samples.jar remote-workers --serve 2554          # another one (terminal 2)
 * java -jar samples/target/troupe-samples.jar remote-workers \
 *     --nodes troupe://workers@127.0.0.1:2553,troupe://workers@127.0.0.1:2554 --poison-task 4
 * </pre>
 *
 * A worker node accepts only {@code WatchTheRoutees$Worker}, as its {@code
 * troupe.remote.deployment.allowed-classes} (the {@code remote-workers-node} section of the samples'
 * configuration) says.
 */
@Command(
    name = "remote-workers",
    description = "watch-the-routees with the workers deployed onto other nodes (target.nodes)")
public final class RemoteWorkers extends Sample {
  @Option(names = "--serve", paramLabel = "PORT",
      description = "run a worker node on PORT until Ctrl-C, 0 = any free port (default: none)")
  private Integer serve;

  @Option(names = "--nodes", paramLabel = "ADDRESS", split = ",", converter = AddressConverter.class,
      description = "the worker nodes to deploy onto (default: two started in this JVM)")
  private List<Address> nodes;

  @Option(names = "--tasks", paramLabel = "N", description = "the job's tasks: squares of 1..N (default ${DEFAULT-VALUE})")
  private int tasks = 10;

  @Option(names = "--workers", paramLabel = "W",
      description = "the pool's size, spread over the nodes in turn (default ${DEFAULT-VALUE})")
  private int workers = 4;

  @Option(names = "--poison-task", paramLabel = "N",
      description = "the number of a task that always fails, -1 for none (default ${DEFAULT-VALUE})")
  private int poison = -1;

  /** Reads a node's address, {@code troupe://system@host:port}. */
  static final class AddressConverter implements ITypeConverter<Address> {
    @Override
    public Address convert(String value) {
      try {
        return Address.parse(value.trim());
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    atLeast("--tasks", tasks, 1);
    atLeast("--workers", workers, 1);
    atLeast("--poison-task", poison, -1);
    if (serve != null) {
      ActorSystem node = startWorkerNode(within("--serve", serve, 0, 65_535), out);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> terminate(node), "remote-workers-shutdown"));
      out.println("Ctrl-C to stop");
      node.getWhenTerminated().toCompletableFuture().join();
      return 0;
    }
    List<ActorSystem> local = new ArrayList<>();
    try {
      List<Address> targets = new ArrayList<>();
      if (nodes == null) {
        for (int i = 0; i < 2; i++) {
          ActorSystem n = startWorkerNode(0, out);
          local.add(n);
          targets.add(n.address());
        }
      } else {
        targets.addAll(nodes);
      }
      return runJob(targets, tasks, workers, poison, out);
    } finally {
      for (ActorSystem n : local) {
        terminate(n);
      }
    }
  }

  /** The master node: deploys the pool's workers onto {@code targets} in turn and runs the job. */
  private static int runJob(List<Address> targets, int tasks, int workers, int poison, PrintStream out) throws Exception {
    String list = targets.stream().map(a -> "\"" + a + "\"").collect(Collectors.joining(", "));
    Config deployment =
        ConfigFactory.parseString("troupe.actor.deployment { \"/master/workers\" { target.nodes = [" + list + "] } }");
    ActorSystem master = ActorSystem.create("master", deployment.withFallback(config("remote-workers", 0)));
    try {
      WatchTheRoutees.runJobShowingWorkers(master, tasks, workers, poison, out);
      return 0;
    } finally {
      terminate(master);
    }
  }

  /**
   * Starts a worker node and prints its address.
   *
   * @param port the port; 0 = any free port
   * @param out where the address goes
   * @return the node
   */
  static ActorSystem startWorkerNode(int port, PrintStream out) {
    ActorSystem node =
        ActorSystem.create(
            "workers", ConfigFactory.load().getConfig("remote-workers-node").withFallback(config("remote-workers", port)));
    out.println("worker node listening at " + node.address());
    return node;
  }

  /** The section {@code name} of the samples' configuration over the rest, at {@code port}. */
  private static Config config(String name, int port) {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.load();
    return app.getConfig(name)
        .withValue("troupe.remote.canonical.port", ConfigValueFactory.fromAnyRef(port))
        .withFallback(app);
  }

  private static void terminate(ActorSystem system) {
    try {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(system.name() + " did not terminate in 10 s", e);
    }
  }
}
