package dev.troupe.samples.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.LeaderChanged;
import dev.troupe.cluster.ClusterEvent.MemberEvent;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.ClusterEvent.ReachabilityEvent;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.management.ClusterHttpManagement;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A cluster member that prints every member event as it happens, one line each, with the time:
 * {@code MemberUp troupe://cluster@127.0.0.1:2551}, {@code UnreachableMember ...}, {@code
 * LeaderChanged ...}. Start a seed in one terminal and more nodes in others:
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar cluster-node --port 2551
 * java -jar samples/target/troupe-samples.jar cluster-node --seed troupe://cluster@127.0.0.1:2551
 * java -jar samples/target/troupe-samples.jar cluster-node --seed troupe://cluster@127.0.0.1:2551 --role worker
 * java -jar samples/target/troupe-samples.jar cluster-node --seed troupe://cluster@127.0.0.1:2551 --http-port 8558
 * curl http://127.0.0.1:8558/cluster/members
 * </pre>
 *
 * A node without {@code --seed} founds a new cluster (it joins itself); a node whose first seed is
 * its own address founds the cluster when no other seed answers. Ctrl-C (SIGTERM) runs coordinated
 * shutdown through the JVM's hook, which leaves the cluster gracefully; the other nodes print
 * {@code MemberLeft}, {@code MemberExited}, {@code MemberRemoved}. A node killed with {@code kill -9}
 * is {@code UnreachableMember}, then {@code MemberDowned} and {@code MemberRemoved} on the others once
 * downing decides ({@code troupe.cluster.downing.stable-after}, 7 s by default). The membership
 * engine is JGroups (the default); any {@code troupe.*} key may be set with {@code -D}. With {@code
 * --http-port} the node also serves cluster management over HTTP on 127.0.0.1 ({@code
 * /cluster/members}, {@code /health/ready}, {@code /health/alive}; read-only).
 */
@Command(name = "cluster-node",
    description = "a cluster member printing member events; Ctrl-C leaves (flags: --port --seed --role --http-port)")
public final class ClusterNode extends Sample {
  /** The actor system's name: every node of the sample's cluster carries it. */
  public static final String SYSTEM = "cluster";

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  @Option(names = "--port", paramLabel = "P",
      description = "remoting TCP port, 0 = any free port (default ${DEFAULT-VALUE})")
  private int port = 0;

  @Option(names = "--host", paramLabel = "H",
      description = "address other nodes reach this one at (default ${DEFAULT-VALUE})")
  private String host = "127.0.0.1";

  @Option(names = "--seed", paramLabel = "ADDRESS",
      description = "a seed node, troupe://cluster@host:port; repeatable, the first founds the cluster"
          + " (default: none, this node founds a new cluster)")
  private List<String> seeds; // null until given: picocli shows no default list

  @Option(names = "--role", paramLabel = "ROLE", description = "a role of this node; repeatable (default: none)")
  private List<String> roles;

  @Option(names = "--http-port", paramLabel = "P",
      description = "serve cluster management over HTTP on 127.0.0.1 at this port, 0 = any free port (default: off)")
  private Integer httpPort; // null: no endpoint

  /** Prints each cluster event it hears on one line, with the time it heard it. */
  static final class EventPrinter extends AbstractActor {
    private final PrintStream out;

    EventPrinter(PrintStream out) {
      this.out = out;
    }

    @Override
    public void preStart() {
      Cluster.get(getContext().getSystem()).subscribe(getSelf(), ClusterEvent.initialStateAsEvents(),
          MemberEvent.class, ReachabilityEvent.class, LeaderChanged.class);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ClusterEvent.class, e -> out.println(LocalTime.now().format(TIME) + " " + describe(e)))
          .build();
    }
  }

  /**
   * @param event a member, reachability or leader event
   * @return e.g. {@code MemberUp troupe://cluster@127.0.0.1:2551 [worker]}, {@code MemberRemoved
   *     troupe://cluster@127.0.0.1:2552 (was EXITING)}, {@code LeaderChanged none}
   */
  static String describe(ClusterEvent event) {
    String name = event.getClass().getSimpleName();
    if (event instanceof LeaderChanged l) {
      return name + " " + l.leader().map(Address::toString).orElse("none");
    }
    Member m = event instanceof MemberEvent me ? me.member() : ((ReachabilityEvent) event).member();
    String roles = m.roles().isEmpty() ? "" : " " + m.roles().stream().sorted().toList();
    String was = event instanceof MemberRemoved r ? " (was " + r.previousStatus() + ")" : "";
    return name + " " + m.address() + roles + was;
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    within("--port", port, 0, 65_535);
    if (httpPort != null) {
      within("--http-port", httpPort, 0, 65_535);
    }
    List<String> seeds = this.seeds == null ? List.of() : this.seeds;
    List<String> roles = this.roles == null ? List.of() : this.roles;
    List<Address> seedAddresses = new ArrayList<>();
    for (String s : seeds) {
      Address a;
      try {
        a = Address.parse(s.trim());
      } catch (IllegalArgumentException e) {
        throw usageError("--seed '" + s + "' is not a troupe://" + SYSTEM + "@host:port address: " + e.getMessage());
      }
      if (!a.system().equals(SYSTEM)) {
        throw usageError("--seed '" + s + "' names system '" + a.system() + "'; the sample's nodes are '" + SYSTEM + "'");
      }
      seedAddresses.add(a);
    }
    for (String r : roles) {
      if (r.isBlank()) {
        throw usageError("--role must not be blank");
      }
    }
    ActorSystem system;
    try {
      Config config = config(host, port, seedAddresses, roles);
      if (httpPort != null) {
        config = ConfigFactory.parseString("troupe.cluster.management.http.port = " + httpPort).withFallback(config);
      }
      system = ActorSystem.create(SYSTEM, config);
    } catch (ConfigurationException e) {
      throw usageError(e.getMessage());
    }
    Cluster cluster = Cluster.get(system);
    out.println("node " + system.address() + (roles.isEmpty() ? "" : " roles " + roles));
    if (seedAddresses.isEmpty()) {
      out.println("no --seed: founding a new cluster; join it with --seed " + system.address());
      cluster.join(system.address());
    } else {
      out.println("joining through " + seedAddresses);
    }
    system.actorOf(Props.create(EventPrinter.class, () -> new EventPrinter(out)), "events");
    if (httpPort != null) {
      InetSocketAddress http = ClusterHttpManagement.get(system).boundAddress();
      out.println("management: http://" + http.getHostString() + ":" + http.getPort() + "/cluster/members");
    }
    cluster.registerOnMemberUp(() -> out.println("this node is up; Ctrl-C to leave"));
    cluster.registerOnMemberRemoved(() -> out.println("this node is out of the cluster; stopping"));
    system.getWhenTerminated().toCompletableFuture().join();
    return 0;
  }

  /**
   * The {@code cluster-node} section of the samples' configuration (provider cluster, loopback)
   * over the rest of it, with this node's address, seeds and roles.
   *
   * @param host the canonical host
   * @param port the remoting port; 0 = any free port
   * @param seeds the seed nodes (empty: none in configuration)
   * @param roles this node's roles
   * @return the node's configuration
   */
  static Config config(String host, int port, List<Address> seeds, List<String> roles) {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.load();
    return ConfigFactory.empty()
        .withValue("troupe.remote.canonical.hostname", ConfigValueFactory.fromAnyRef(host))
        .withValue("troupe.remote.canonical.port", ConfigValueFactory.fromAnyRef(port))
        .withValue("troupe.cluster.seed-nodes",
            ConfigValueFactory.fromIterable(seeds.stream().map(Address::toString).toList()))
        .withValue("troupe.cluster.roles", ConfigValueFactory.fromIterable(roles))
        .withFallback(ConfigFactory.systemProperties())
        .withFallback(app.getConfig("cluster-node"))
        .withFallback(app);
  }
}
