package dev.troupe.samples.cluster;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.sharding.typed.ClusterSharding;
import dev.troupe.cluster.sharding.typed.Entity;
import dev.troupe.cluster.sharding.typed.EntityRef;
import dev.troupe.cluster.sharding.typed.EntityTypeKey;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Typed entities sharded over a cluster: every member starts the {@code Counter} type, every member
 * increments every counter through an {@link EntityRef} (an ask: the answer is the new count), and
 * the first member then reads each counter, wherever it lives.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar typed-sharding --members 3 --counters 6
 * </pre>
 *
 * The members are cluster systems in this JVM on 127.0.0.1 (the {@code typed-sharding} section of
 * the samples' configuration: the JGroups engine, free ports, 30 shards). The counters' protocol is
 * bound to {@code jackson-cbor}; between members it travels inside the sharding envelope.
 */
@Command(name = "typed-sharding", description = "typed counters sharded over the members of a cluster, reached by EntityRef")
public final class TypedShardedCounters extends Sample {
  /** The system name every member of the sample's cluster has. */
  static final String SYSTEM = "typed-sharding";

  private static final Duration ASK = Duration.ofSeconds(30);

  @Option(names = "--members", paramLabel = "N", description = "cluster members in this JVM (default ${DEFAULT-VALUE})")
  private int members = 3;

  @Option(names = "--counters", paramLabel = "N", description = "counters, each incremented once from every member (default ${DEFAULT-VALUE})")
  private int counters = 6;

  /** A counter's protocol. */
  public interface Command {}

  /** Adds one, answering the new count. */
  public record Increment(ActorRef<Count> replyTo) implements Command {}

  /** Answers the count. */
  public record Get(ActorRef<Count> replyTo) implements Command {}

  /** A counter's answer: its id, its count and the member it runs on. */
  public record Count(String id, int value, String member) {}

  /** The counters' type: the same key on every member. */
  public static final EntityTypeKey<Command> COUNTERS = EntityTypeKey.create(Command.class, "Counter");

  /**
   * @param id the counter's id
   * @param member the member it runs on
   * @return a counter that starts at zero
   */
  static Behavior<Command> counter(String id, String member) {
    int[] value = {0};
    return Behaviors.receive(Command.class)
        .onMessage(Increment.class, m -> {
          value[0]++;
          m.replyTo().tell(new Count(id, value[0], member));
          return Behaviors.same();
        })
        .onMessage(Get.class, m -> {
          m.replyTo().tell(new Count(id, value[0], member));
          return Behaviors.same();
        })
        .build();
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    within("--members", members, 2, 9);
    within("--counters", counters, 1, 100);
    List<ActorSystem> nodes = InJvmCluster.start(SYSTEM, members, out);
    try {
      for (ActorSystem node : nodes) {
        String member = node.address().toString();
        ClusterSharding.get(node).init(Entity.of(COUNTERS, ctx -> counter(ctx.getEntityId(), member)));
      }

      List<CompletableFuture<Count>> increments = new ArrayList<>();
      for (ActorSystem node : nodes) {
        for (int c = 1; c <= counters; c++) {
          EntityRef<Command> counter = ClusterSharding.get(node).entityRefFor(COUNTERS, "counter-" + c);
          increments.add(counter.<Count>ask(Increment::new, ASK).toCompletableFuture());
        }
      }
      CompletableFuture.allOf(increments.toArray(CompletableFuture[]::new)).get(ASK.toSeconds(), TimeUnit.SECONDS);
      out.println((members * counters) + " increments answered (every member incremented every counter)");

      Set<String> hosts = new TreeSet<>();
      ClusterSharding first = ClusterSharding.get(nodes.get(0));
      for (int c = 1; c <= counters; c++) {
        Count n = first.entityRefFor(COUNTERS, "counter-" + c).<Count>ask(Get::new, ASK).toCompletableFuture()
            .get(ASK.toSeconds(), TimeUnit.SECONDS);
        out.println(n.id() + " = " + n.value() + ", on " + n.member());
        hosts.add(n.member());
      }
      out.println(counters + " counters on " + hosts.size() + " of " + members + " members");
      return 0;
    } finally {
      InJvmCluster.terminate(nodes);
    }
  }
}
