package dev.troupe.samples.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.pattern.Patterns;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Cluster sharding, in one JVM or one node per process. With {@code --port} or {@code --seed} the
 * process is one node of a cluster across terminals, driven from its standard input ({@link
 * CounterNode}: counters, a tally singleton, kill -9 and joins to watch). Without them it is the
 * one-JVM demo: a small cluster of nodes on 127.0.0.1 (remoting and the default
 * JGroups membership engine on free ports), a {@code Counter} entity per id spread over the nodes
 * by {@link ClusterSharding}, increments and reads sent through any node's region, each answer
 * naming the node that hosts the counter. Then one node leaves ({@code ActorSystem.terminate()}):
 * it hands its shards over before it exits, and its counters answer from the others.
 *
 * <p>A counter's count lives in its entity: sharding does not carry an entity's state to its new
 * owner (as in Pekko without persistence), so a counter that moves starts again from 0 there. An
 * entity that must keep its state saves it when it gets its hand-off message and loads it when it
 * starts.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar sharded-counters
 * java -jar samples/target/troupe-samples.jar sharded-counters --nodes 4 --counters 8 --increments 2
 * java -jar samples/target/troupe-samples.jar sharded-counters --port 2551
 * java -jar samples/target/troupe-samples.jar sharded-counters --port 2552 --seed troupe://counters@127.0.0.1:2551
 * </pre>
 */
@Command(
    name = "sharded-counters",
    description = "counters by id over a cluster (sharding): 3 nodes in one JVM, or one per terminal (--port --seed)")
public final class ShardedCounters extends Sample {
  @Option(names = "--nodes", paramLabel = "N", description = "cluster nodes in this JVM, 2..6 (default ${DEFAULT-VALUE})")
  private int nodes = 3;

  @Option(names = "--counters", paramLabel = "K", description = "counters, ids c1..cK (default ${DEFAULT-VALUE})")
  private int counters = 6;

  @Option(names = "--increments", paramLabel = "I",
      description = "increments per counter before and after the leave (default ${DEFAULT-VALUE})")
  private int increments = 2;

  @Option(names = "--port", paramLabel = "P",
      description = "one node per process: this node's remoting port, 0 = any free port; without --seed it founds"
          + " a cluster (default: the one-JVM demo)")
  private Integer port; // null until given: the one-JVM demo

  @Option(names = "--seed", paramLabel = "ADDRESS",
      description = "one node per process: join through this member, troupe://counters@host:port; repeatable"
          + " (default: none)")
  private List<String> seeds; // null until given

  @Option(names = "--host", paramLabel = "H",
      description = "one node per process: the address other nodes reach this one at (default ${DEFAULT-VALUE})")
  private String host = "127.0.0.1";

  @Spec private CommandSpec spec;

  /** How long one answer, the cluster's forming and a node's leave may take. */
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** Adds one to a counter; answered with its {@link Value}. */
  public record Increment(String counter) {}

  /** Reads a counter; answered with its {@link Value}. */
  public record Get(String counter) {}

  /**
   * A counter's count and where it lives.
   *
   * @param counter its id
   * @param count its count
   * @param host the address of the node that hosts it
   */
  public record Value(String counter, long count, String host) {}

  /** The entity: one counter, named by its id. */
  static final class Counter extends AbstractActor {
    private long count;

    @Override
    public Receive createReceive() {
      String host = Cluster.get(getContext().getSystem()).selfAddress().toString();
      String id = getSelf().path().name();
      return receiveBuilder()
          .match(Increment.class, i -> getSender().tell(new Value(id, ++count, host), getSelf()))
          .match(Get.class, g -> getSender().tell(new Value(id, count, host), getSelf()))
          .build();
    }
  }

  /** Both commands carry the counter's id; shards by its hash. */
  static ShardRegion.MessageExtractor extractor(int shards) {
    return new ShardRegion.HashCodeMessageExtractor(shards) {
      @Override
      public String entityId(Object message) {
        if (message instanceof Increment i) {
          return i.counter();
        }
        return message instanceof Get g ? g.counter() : null;
      }
    };
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    if (port != null || seeds != null) {
      return node(out);
    }
    if (spec.commandLine().getParseResult().hasMatchedOption("--host")) {
      throw usageError("--host is an option of a node of its own; give --port or --seed with it");
    }
    within("--nodes", nodes, 2, 6);
    within("--counters", counters, 1, 1000);
    within("--increments", increments, 0, 1000);
    List<ActorSystem> systems = new ArrayList<>();
    Map<String, String> names = new HashMap<>(); // address -> node-N
    try {
      for (int i = 0; i < nodes; i++) {
        ActorSystem s = ActorSystem.create("counters", config());
        systems.add(s);
        names.put(s.address().toString(), "node-" + (i + 1));
      }
      Address seed = systems.get(0).address();
      for (ActorSystem s : systems) {
        Cluster.get(s).join(seed);
      }
      for (ActorSystem s : systems) {
        awaitMembers(s, nodes);
      }
      out.println("cluster of " + nodes + " nodes up: " + String.join(", ",
          systems.stream().map(s -> names.get(s.address().toString()) + " = " + s.address()).toList()));

      List<ActorRef> regions = new ArrayList<>();
      List<String> regionNodes = new ArrayList<>();
      for (ActorSystem s : systems) {
        regionNodes.add(names.get(s.address().toString()));
        regions.add(ClusterSharding.get(s).start("Counter", Props.create(Counter.class, Counter::new),
            ClusterShardingSettings.create(s), extractor(ClusterShardingSettings.create(s).numberOfShards())));
      }

      Map<String, Value> before = traffic(regions, regionNodes, names, out);

      ActorSystem leaver = systems.get(systems.size() - 1);
      String leaverName = names.get(leaver.address().toString());
      out.println(leaverName + " leaves (ActorSystem.terminate(): it hands its shards over, then exits)");
      leaver.terminate().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      systems.remove(leaver);
      regions.remove(regions.size() - 1);
      regionNodes.remove(regionNodes.size() - 1);
      for (ActorSystem s : systems) {
        awaitMembers(s, nodes - 1);
      }
      out.println(leaverName + " is out; the cluster has " + (nodes - 1) + " nodes");

      Map<String, Value> after = traffic(regions, regionNodes, names, out);
      int moved = 0;
      for (Map.Entry<String, Value> e : after.entrySet()) {
        Value was = before.get(e.getKey());
        if (!was.host().equals(e.getValue().host())) {
          moved++;
          out.println("moved " + e.getKey() + ": " + names.get(was.host()) + " -> " + names.get(e.getValue().host())
              + " (it had " + was.count() + " there and counted again from 0 here: sharding does not move an entity's"
              + " state)");
        }
      }
      out.println(moved + " of " + counters + " counters moved off " + leaverName + "; the others kept their counts");
      return 0;
    } finally {
      for (ActorSystem s : systems) {
        s.terminate();
      }
      for (ActorSystem s : systems) {
        s.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      }
    }
  }

  /** One node of a cluster across processes: {@link CounterNode}, reading commands from the standard input. */
  private int node(PrintStream out) throws Exception {
    for (String demo : List.of("--nodes", "--counters", "--increments")) {
      if (spec.commandLine().getParseResult().hasMatchedOption(demo)) {
        throw usageError(demo + " is an option of the one-JVM demo; with --port or --seed this process is one node");
      }
    }
    if (port != null) {
      within("--port", port, 0, 65_535);
    }
    List<Address> seedAddresses = new ArrayList<>();
    for (String s : seeds == null ? List.<String>of() : seeds) {
      Address a;
      try {
        a = Address.parse(s.trim());
      } catch (IllegalArgumentException e) {
        throw usageError("--seed '" + s + "' is not a troupe://" + CounterNode.SYSTEM + "@host:port address: "
            + e.getMessage());
      }
      if (!a.system().equals(CounterNode.SYSTEM)) {
        throw usageError("--seed '" + s + "' names system '" + a.system() + "'; the counters' nodes are '"
            + CounterNode.SYSTEM + "'");
      }
      seedAddresses.add(a);
    }
    try {
      return CounterNode.run(host, port == null ? 0 : port, seedAddresses, System.in, out);
    } catch (ConfigurationException e) {
      throw usageError(e.getMessage());
    }
  }

  /**
   * Increments every counter {@code --increments} times and reads it, through the nodes' regions in
   * turn, printing each answer.
   *
   * @return counter id -> its last value
   */
  private Map<String, Value> traffic(List<ActorRef> regions, List<String> regionNodes, Map<String, String> names,
      PrintStream out) throws Exception {
    Map<String, Value> last = new LinkedHashMap<>();
    int via = 0;
    for (int c = 1; c <= counters; c++) {
      String id = "c" + c;
      for (int i = 0; i < increments; i++) {
        int from = via++ % regions.size();
        Value v = ask(regions.get(from), new Increment(id));
        out.println("increment " + id + " via " + regionNodes.get(from) + " -> " + v.count()
            + " on " + names.get(v.host()));
      }
      int from = via++ % regions.size();
      Value v = ask(regions.get(from), new Get(id));
      out.println("read      " + id + " via " + regionNodes.get(from) + " -> " + v.count()
          + " on " + names.get(v.host()));
      last.put(id, v);
    }
    return last;
  }

  private static Value ask(ActorRef region, Object command) throws Exception {
    return (Value) Patterns.ask(region, command, WAIT).toCompletableFuture().get(WAIT.toSeconds() + 1, TimeUnit.SECONDS);
  }

  /** Waits until {@code system} sees {@code n} members, all up (bounded by {@link #WAIT}). */
  private static void awaitMembers(ActorSystem system, int n) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      List<Member> members = Cluster.get(system).state().members();
      if (members.size() == n && members.stream().allMatch(m -> m.status() == MemberStatus.UP)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(system.address() + " did not see " + n + " members up within " + WAIT
            + ": " + members);
      }
      Thread.sleep(50);
    }
  }

  /** The {@code sharded-counters} section of the samples' configuration over the rest. */
  private static Config config() {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.load();
    return app.getConfig("sharded-counters")
        .withValue("troupe.remote.canonical.port", ConfigValueFactory.fromAnyRef(0))
        .withFallback(app);
  }
}
