package dev.troupe.samples.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.MemberDowned;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.ClusterEvent.MemberUp;
import dev.troupe.cluster.ClusterEvent.UnreachableMember;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.cluster.singleton.ClusterSingletonManager;
import dev.troupe.cluster.singleton.ClusterSingletonManagerSettings;
import dev.troupe.cluster.singleton.ClusterSingletonProxy;
import dev.troupe.cluster.singleton.ClusterSingletonProxySettings;
import dev.troupe.pattern.Patterns;
import dev.troupe.samples.cluster.ShardedCounters.Get;
import dev.troupe.samples.cluster.ShardedCounters.Increment;
import dev.troupe.samples.cluster.ShardedCounters.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One node of the sharded counters, one per process: {@code sharded-counters --port 2551} founds a
 * cluster, {@code sharded-counters --seed troupe://counters@127.0.0.1:2551} joins it, from as many
 * terminals as there are nodes. Every node hosts a share of the {@code Counter} entities (the
 * same entity as the one-JVM demo's, which also reports each increment to the tally) and runs a
 * manager of the {@code tally} singleton, which counts the increments of the whole cluster on the
 * oldest member. The node reads commands from its standard input and prints what happens to it,
 * with the time:
 *
 * <ul>
 *   <li>{@code inc NAME...} increments counters, {@code get NAME...} reads them; each answer is one
 *       line, {@code apples = 3 (hosted on troupe://counters@127.0.0.1:2552)};
 *   <li>{@code tally} asks the singleton, {@code here} lists the counters this node hosts, {@code
 *       members} the members; an empty line or {@code help} lists the commands; {@code quit} or the
 *       end of the input (Ctrl-D) leaves, as Ctrl-C does;
 *   <li>member events ({@code MemberUp}, {@code UnreachableMember}, {@code MemberDowned}, {@code
 *       MemberRemoved}), a counter starting on this node or handing off to another, the singleton
 *       starting or stopping here.
 * </ul>
 *
 * A node killed with {@code kill -9} is removed about a second later (its sockets closed: a sure
 * death); its counters start again on the survivors with their next message, from 0, and if it ran
 * the tally the next oldest member starts a new one, from 0: the state of an entity or a singleton
 * is the user's, not carried by the cluster. A node that joins takes a share of the counters: their
 * old hosts hand them off ({@code counter c3 hands off}), and they start on the new node with their
 * next message.
 */
final class CounterNode {
  /** The actor system's name: every node of the sample's cluster carries it. */
  static final String SYSTEM = "counters";

  /** The entity type's name. */
  static final String TYPE = "Counter";

  /** The singleton manager's name, under /user on every node. */
  static final String TALLY = "tally";

  /**
   * How long one answer may take: above a sure death's removal (about 1 s) and a join's hand-over
   * (at most the sample's {@code hand-over-timeout}, 5 s).
   */
  static final Duration ANSWER = Duration.ofSeconds(15);

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private static final String HELP = String.join("\n",
      "commands:",
      "  inc NAME...   add one to each counter; prints NAME = count (hosted on NODE)",
      "  get NAME...   read each counter",
      "  tally         ask the tally singleton how many increments it counted, and where it runs",
      "  here          the counters this node hosts",
      "  members       the cluster's members, oldest first",
      "  quit          leave the cluster and stop (as Ctrl-C and Ctrl-D do)");

  /** A counter's report to the tally: one increment. */
  public record Counted(String counter) {}

  /** Asks the tally for its {@link TallyValue}. */
  public record ReadTally(String from) {}

  /**
   * The tally's answer.
   *
   * @param increments the increments it counted since it started
   * @param host the address of the node it runs on
   */
  public record TallyValue(long increments, String host) {}

  /** The hand-off stop message of the counters: a counter moving to another node gets it last. */
  record HandOff() {}

  private CounterNode() {}

  /** The entity: one counter, named by its id, reporting each increment to the tally. */
  static final class Counter extends AbstractActor {
    private final ActorRef tally;
    private final PrintStream out;
    private long count;

    Counter(ActorRef tally, PrintStream out) {
      this.tally = tally;
      this.out = out;
    }

    @Override
    public void preStart() {
      say(out, "counter " + getSelf().path().name() + " starts on this node");
    }

    @Override
    public Receive createReceive() {
      String host = Cluster.get(getContext().getSystem()).selfAddress().toString();
      String id = getSelf().path().name();
      return receiveBuilder()
          .match(Increment.class, i -> {
            getSender().tell(new Value(id, ++count, host), getSelf());
            tally.tell(new Counted(id), getSelf());
          })
          .match(Get.class, g -> getSender().tell(new Value(id, count, host), getSelf()))
          .match(HandOff.class, h -> {
            say(out, "counter " + id + " hands off to another node (its count here, " + count + ", stays behind)");
            getContext().stop(getSelf());
          })
          .build();
    }
  }

  /** The singleton: counts the increments of every counter of the cluster, from when it starts. */
  static final class Tally extends AbstractActor {
    private final PrintStream out;
    private long increments;

    Tally(PrintStream out) {
      this.out = out;
    }

    @Override
    public void preStart() {
      say(out, "tally singleton starts on this node (the oldest member), counting from 0");
    }

    @Override
    public void postStop() {
      say(out, "tally singleton stops on this node (it counted " + increments + ")");
    }

    @Override
    public Receive createReceive() {
      String host = Cluster.get(getContext().getSystem()).selfAddress().toString();
      return receiveBuilder()
          .match(Counted.class, c -> increments++)
          .match(ReadTally.class, r -> getSender().tell(new TallyValue(increments, host), getSelf()))
          .build();
    }
  }

  /** Prints the member events that matter to the counters, one line each with the time. */
  static final class MemberPrinter extends AbstractActor {
    private final PrintStream out;

    MemberPrinter(PrintStream out) {
      this.out = out;
    }

    @Override
    public void preStart() {
      Cluster.get(getContext().getSystem()).subscribe(getSelf(), ClusterEvent.initialStateAsEvents(),
          MemberUp.class, UnreachableMember.class, MemberDowned.class, MemberRemoved.class);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ClusterEvent.class, e -> say(out, ClusterNode.describe(e)))
          .build();
    }
  }

  /**
   * Runs one node until it leaves or its system ends.
   *
   * @param host the canonical host
   * @param port the remoting port; 0 = any free port
   * @param seeds the seeds; empty = found a new cluster
   * @param in the commands, one a line
   * @param out where the node prints
   * @return the exit code
   */
  static int run(String host, int port, List<Address> seeds, InputStream in, PrintStream out) throws Exception {
    ActorSystem system = ActorSystem.create(SYSTEM, config(host, port, seeds));
    Cluster cluster = Cluster.get(system);
    out.println("node " + system.address());
    if (seeds.isEmpty()) {
      out.println("no --seed: founding a new cluster; join it with --seed " + system.address());
      cluster.join(system.address());
    } else {
      out.println("joining through " + seeds);
    }
    system.actorOf(Props.create(MemberPrinter.class, () -> new MemberPrinter(out)), "members");
    system.actorOf(ClusterSingletonManager.props(Props.create(Tally.class, () -> new Tally(out)),
        PoisonPill.getInstance(), ClusterSingletonManagerSettings.create(system)), TALLY);
    ActorRef tally = system.actorOf(
        ClusterSingletonProxy.props("/user/" + TALLY, ClusterSingletonProxySettings.create(system)), "tally-proxy");
    ClusterShardingSettings settings = ClusterShardingSettings.create(system);
    ActorRef counters = ClusterSharding.get(system).start(TYPE, Props.create(Counter.class, () -> new Counter(tally, out)),
        settings, ShardedCounters.extractor(settings.numberOfShards()), new HandOff());
    cluster.registerOnMemberUp(() -> out.println("this node is up; commands: inc NAME..., get NAME..., tally, here,"
        + " members, quit (an empty line explains them)"));
    cluster.registerOnMemberRemoved(() -> out.println("this node is out of the cluster; stopping"));

    BufferedReader commands = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    Thread reader = new Thread(() -> {
      try {
        String line;
        while ((line = commands.readLine()) != null && !system.getWhenTerminated().toCompletableFuture().isDone()) {
          if (!command(line.trim(), system, counters, tally, out)) {
            break;
          }
        }
      } catch (IOException e) {
        out.println("standard input failed: " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!system.getWhenTerminated().toCompletableFuture().isDone()) {
        out.println("leaving the cluster");
        system.terminate();
      }
    }, "sharded-counters-commands");
    reader.setDaemon(true); // Ctrl-C ends the JVM while it waits for a line
    reader.start();
    system.getWhenTerminated().toCompletableFuture().join();
    return 0;
  }

  /**
   * Runs one command line.
   *
   * @return false to leave
   */
  private static boolean command(String line, ActorSystem system, ActorRef counters, ActorRef tally, PrintStream out)
      throws InterruptedException {
    List<String> words = line.isEmpty() ? List.of() : Arrays.asList(line.split("\\s+"));
    String verb = words.isEmpty() ? "help" : words.get(0);
    List<String> names = words.size() > 1 ? words.subList(1, words.size()) : List.of();
    switch (verb) {
      case "inc", "get" -> {
        if (names.isEmpty()) {
          out.println(verb + " needs counter names, e.g. " + verb + " apples pears");
        }
        for (String name : names) {
          Object command = verb.equals("inc") ? new Increment(name) : new Get(name);
          Object answer = ask(counters, command);
          if (answer instanceof Value v) {
            out.println(v.counter() + " = " + v.count() + " (hosted on " + v.host() + ")");
          } else {
            out.println(name + ": " + answer);
          }
        }
      }
      case "tally" -> {
        Object answer = ask(tally, new ReadTally(system.address().toString()));
        if (answer instanceof TallyValue t) {
          out.println("tally = " + t.increments() + " increments (the singleton runs on " + t.host() + ")");
        } else {
          out.println("tally: " + answer);
        }
      }
      case "here" -> {
        Object answer = ask(counters, ShardRegion.getShardRegionStateInstance());
        if (answer instanceof ShardRegion.CurrentShardRegionState state) {
          TreeSet<String> ids = new TreeSet<>();
          state.shards().forEach(s -> ids.addAll(s.entityIds()));
          out.println(ids.isEmpty() ? "no counters on this node" : "counters on this node: " + String.join(" ", ids));
        } else {
          out.println("here: " + answer);
        }
      }
      case "members" -> {
        List<String> members = new ArrayList<>();
        for (Member m : Cluster.get(system).state().members()) {
          members.add(m.address() + " " + m.status());
        }
        out.println("members, oldest first: " + String.join(", ", members));
      }
      case "quit" -> {
        return false;
      }
      case "help" -> out.println(HELP);
      default -> out.println("unknown command '" + verb + "'; " + HELP);
    }
    return true;
  }

  /** @return the answer, or why none came */
  private static Object ask(ActorRef to, Object question) throws InterruptedException {
    try {
      return Patterns.ask(to, question, ANSWER).toCompletableFuture().get(ANSWER.toSeconds() + 1, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return "no answer within " + ANSWER.toSeconds() + " s (" + e.getCause().getMessage() + ")";
    } catch (TimeoutException e) {
      return "no answer within " + ANSWER.toSeconds() + " s";
    }
  }

  private static void say(PrintStream out, String line) {
    out.println(LocalTime.now().format(TIME) + " " + line);
  }

  /**
   * The {@code sharded-counters-node} section over {@code sharded-counters} over the rest of the
   * samples' configuration, with this node's address and seeds; {@code -D troupe.*} wins.
   */
  static Config config(String host, int port, List<Address> seeds) {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.load();
    return ConfigFactory.empty()
        .withValue("troupe.remote.canonical.hostname", ConfigValueFactory.fromAnyRef(host))
        .withValue("troupe.remote.canonical.port", ConfigValueFactory.fromAnyRef(port))
        .withValue("troupe.cluster.seed-nodes",
            ConfigValueFactory.fromIterable(seeds.stream().map(Address::toString).toList()))
        .withFallback(ConfigFactory.systemProperties())
        .withFallback(app.getConfig("sharded-counters-node"))
        .withFallback(app.getConfig("sharded-counters"))
        .withFallback(app);
  }
}
