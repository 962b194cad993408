package dev.troupe.samples.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.samples.Sample;
import dev.troupe.samples.routing.WatchTheRoutees;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code watch-the-routees} job with its workers spread over the cluster's members by a
 * cluster-aware pool: the master's pool (built in code, {@code RoundRobinPool}) takes the section
 * {@code "/master/workers" { cluster { enabled = on, use-roles = ["worker"], ... } }} and deploys
 * its routees onto the members with the role {@code worker}, two per member, {@code --workers} in
 * all. Nobody lists the worker nodes: they join the cluster, and the pool finds them. The master
 * supervises and watches its workers across the wire, as in {@code remote-workers}.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar cluster-workers                         # master + two worker members in this JVM
 * java -jar samples/target/troupe-samples.jar cluster-workers --port 2551 --local-workers 0 --expect-workers 2   # terminal 1
 * java -jar samples/target/troupe-samples.jar cluster-workers --serve 0 --seed troupe://cluster-workers@127.0.0.1:2551   # terminals 2 and 3
 * </pre>
 *
 * The master founds the cluster (it is its own seed) and has no role; a worker member has the role
 * {@code worker} and accepts only {@code WatchTheRoutees$Worker} by remote deployment (the {@code
 * cluster-workers-node} section of the samples' configuration).
 */
@Command(
    name = "cluster-workers",
    description = "watch-the-routees with the workers on the cluster's worker members (a cluster-aware pool)")
public final class ClusterWorkers extends Sample {
  /** The system name every member of the sample's cluster has. */
  static final String SYSTEM = "cluster-workers";

  @Option(names = "--serve", paramLabel = "PORT",
      description = "run a worker member on PORT until Ctrl-C, 0 = any free port; needs --seed (default: none)")
  private Integer serve;

  @Option(names = "--seed", paramLabel = "ADDRESS", converter = AddressConverter.class,
      description = "the master's address, which a worker member joins (with --serve; default: none)")
  private Address seed;

  @Option(names = "--port", paramLabel = "PORT", description = "the master's port, 0 = any free port (default ${DEFAULT-VALUE})")
  private int port = 0;

  @Option(names = "--local-workers", paramLabel = "N",
      description = "worker members started in this JVM (default ${DEFAULT-VALUE})")
  private int localWorkers = 2;

  @Option(names = "--expect-workers", paramLabel = "N",
      description = "worker members the master waits for before the job, at most 60 s (default: --local-workers)")
  private Integer expectWorkers;

  @Option(names = "--tasks", paramLabel = "N", description = "the job's tasks: squares of 1..N (default ${DEFAULT-VALUE})")
  private int tasks = 10;

  @Option(names = "--workers", paramLabel = "W",
      description = "the pool's routees in all (total-instances), at most two per worker member (default ${DEFAULT-VALUE})")
  private int workers = 4;

  @Option(names = "--poison-task", paramLabel = "N",
      description = "the number of a task that always fails, -1 for none (default ${DEFAULT-VALUE})")
  private int poison = -1;

  /** Reads a node's address, {@code troupe://system@host:port}. */
  static final class AddressConverter implements ITypeConverter<Address> {
    @Override
    public Address convert(String value) {
      try {
        Address a = Address.parse(value.trim());
        if (a.hasLocalScope() || !a.system().equals(SYSTEM)) {
          throw new TypeConversionException("expected troupe://" + SYSTEM + "@host:port, was " + value);
        }
        return a;
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
    atLeast("--local-workers", localWorkers, 0);
    within("--port", port, 0, 65_535);
    if (serve != null) {
      if (seed == null) {
        throw usageError("--serve needs --seed, the master's address");
      }
      ActorSystem node = startWorker(within("--serve", serve, 0, 65_535), seed, out);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> terminate(node), "cluster-workers-shutdown"));
      out.println("Ctrl-C to leave the cluster");
      node.getWhenTerminated().toCompletableFuture().join();
      return 0;
    }
    int expected = expectWorkers == null ? localWorkers : atLeast("--expect-workers", expectWorkers, 1);
    if (expected < 1) {
      throw usageError("no worker member to wait for: give --local-workers or --expect-workers at least 1");
    }
    ActorSystem master = ActorSystem.create(SYSTEM, config("cluster-workers", port, "troupe.actor.deployment {"
        + " \"/master/workers\" { total-instances = " + workers + " } }"));
    List<ActorSystem> local = new ArrayList<>();
    try {
      Cluster.get(master).join(master.address());
      out.println("master listening at " + master.address());
      for (int i = 0; i < localWorkers; i++) {
        local.add(startWorker(0, master.address(), out));
        awaitWorkers(master, i + 1, null); // one join at a time: the engine admits them sooner so
      }
      awaitWorkers(master, expected, out);
      WatchTheRoutees.runJobShowingWorkers(master, tasks, workers, poison, out);
      return 0;
    } finally {
      for (ActorSystem n : local) {
        terminate(n);
      }
      terminate(master);
    }
  }

  /** Waits until {@code n} members with the role {@code worker} are Up, as the master sees them; says so on {@code out} (if not null). */
  private static void awaitWorkers(ActorSystem master, int n, PrintStream out) throws InterruptedException {
    Cluster cluster = Cluster.get(master);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (workersUp(cluster) < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + workersUp(cluster) + " of " + n + " worker members came Up in 60 s");
      }
      Thread.sleep(50); // a poll of the membership the master publishes, bounded by the deadline
    }
    if (out != null) {
      out.println(n + " worker members Up");
    }
  }

  private static long workersUp(Cluster cluster) {
    return cluster.state().members().stream()
        .filter(m -> m.status() == MemberStatus.UP && m.hasRole("worker"))
        .map(Member::address)
        .count();
  }

  /**
   * Starts a worker member that joins {@code seed}, and prints its address.
   *
   * @param port the port; 0 = any free port
   * @param seed the master's address
   * @param out where the address goes
   * @return the node
   */
  static ActorSystem startWorker(int port, Address seed, PrintStream out) {
    ActorSystem node = ActorSystem.create(SYSTEM, config("cluster-workers-node", port, ""));
    Cluster.get(node).join(seed);
    out.println("worker member listening at " + node.address() + ", joining " + seed);
    return node;
  }

  /** {@code extra}, then the section {@code name} of the samples' configuration, then the rest, at {@code port}. */
  private static Config config(String name, int port, String extra) {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.load();
    return ConfigFactory.parseString(extra)
        .withFallback(app.getConfig(name))
        .withFallback(app.getConfig("cluster-workers"))
        .withValue("troupe.remote.canonical.port", ConfigValueFactory.fromAnyRef(port))
        .withFallback(app);
  }

  private static void terminate(ActorSystem system) {
    try {
      system.terminate().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(system.name() + " at " + system.address() + " did not terminate in 20 s", e);
    }
  }
}
