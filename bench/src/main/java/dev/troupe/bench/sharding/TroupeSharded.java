package dev.troupe.bench.sharding;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.ClusterNodes;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.RemoteMessages.Pong;
import dev.troupe.bench.common.RemoteMessages.RemoteStart;
import dev.troupe.bench.common.TroupeSystems;
import dev.troupe.bench.sharding.ShardedMessages.ShardedPing;
import dev.troupe.bench.sharding.ShardedMessages.Where;
import dev.troupe.bench.sharding.ShardedMessages.WhereAreYou;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.HdrHistogram.Histogram;

/**
 * Troupe side of the sharding benchmarks; mirrors {@link PekkoSharded}. Nodes are {@code
 * troupe.actor.provider = cluster} on 127.0.0.1 with the default JGroups engine and every sharding
 * default (hand-over timeout, buffers); the messages on jackson-cbor.
 */
final class TroupeSharded implements ShardedPingPongDriver, ShardHandOver.Cluster, ShardRebalance.Nodes {
  private static final String CLUSTER = ClusterNodes.TROUPE;

  private final List<ActorSystem> nodes = new ArrayList<>();
  private final List<ActorRef> regions = new ArrayList<>();
  private ActorRef[] pingers;
  private String name;
  private int shards = ShardedMessages.SHARDS;

  private static ActorSystem node(String name) {
    return TroupeSystems.start(name, CLUSTER + Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
  }

  private ActorRef startRegion(ActorSystem s) {
    return ClusterSharding.get(s).start("Ponger", Props.create(Entity.class, Entity::new)
        .withDispatcher(Dispatchers.ID), ClusterShardingSettings.create(s), new Extractor(shards));
  }

  /** Forms a cluster of {@code n} nodes and starts the region on each. */
  @Override
  public void start(int n) {
    name = Names.unique("sharded");
    for (int i = 0; i < n; i++) {
      nodes.add(node(name));
    }
    for (ActorSystem s : nodes) {
      Cluster.get(s).join(nodes.get(0).address());
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!allUp(n)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("troupe: the cluster of " + n + " did not form: "
            + Cluster.get(nodes.get(0)).state());
      }
      sleep(20);
    }
    for (ActorSystem s : nodes) {
      regions.add(startRegion(s));
    }
  }

  @Override
  public void start(int n, int shards) {
    this.shards = shards;
    start(n);
  }

  @Override
  public void addNode() {
    ActorSystem s = node(name);
    Cluster.get(s).join(nodes.get(0).address());
    nodes.add(s);
    regions.add(startRegion(s)); // at once, as an application starts its regions: before the node is Up
  }

  @Override
  public boolean allUp(int n) {
    for (ActorSystem s : nodes) {
      if (Cluster.get(s).state().members().size() != n
          || !Cluster.get(s).state().members().stream().allMatch(m -> m.status() == MemberStatus.UP)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String systemName() {
    return name;
  }

  @Override
  public void startChild(String systemName, String seed, int shards) {
    this.shards = shards;
    this.name = systemName;
    ActorSystem s = node(systemName);
    nodes.add(s);
    Cluster.get(s).join(dev.troupe.actor.Address.parse(seed));
    regions.add(startRegion(s));
  }

  @Override
  public CompletionStage<Integer> hostedShards(int node) {
    return Patterns.ask(regions.get(node), ShardRegion.getShardRegionStateInstance(), Duration.ofSeconds(10))
        .thenApply(o -> ((ShardRegion.CurrentShardRegionState) o).shards().size());
  }

  @Override
  public void setup(int pairs, int inFlight) {
    start(ShardedPingPongDriver.NODES);
    pingers = new ActorRef[pairs];
    int local = 0;
    for (int i = 0; i < pairs; i++) {
      String id = "entity-" + i;
      int node = i % ShardedPingPongDriver.NODES; // pingers on every node, each through its own node's region
      if (where(node, id).equals(address(node))) {
        local++;
      } // the entity runs before the first iteration
      pingers[i] = nodes.get(node).actorOf(Props.create(Pinger.class, () -> new Pinger(regions.get(node), id, inFlight))
          .withDispatcher(Dispatchers.ID));
    }
    // where the cluster put the entities decides the mix of local and remote hops: print it
    System.out.printf("%n%s: %d of %d entities on their pinger's node (local hops), %d on another%n",
        "troupe", local, pairs, pairs - local);
  }

  @Override
  public void runIteration(int roundTripsPerPair, Histogram[] histograms) {
    Completion done = new Completion(pingers.length);
    for (int i = 0; i < pingers.length; i++) {
      pingers[i].tell(new RemoteStart(done, roundTripsPerPair, 0, histograms[i]), ActorRef.noSender());
    }
    done.await("troupe sharded ping-pong");
  }

  @Override
  public void teardown() {
    for (ActorSystem s : nodes) {
      s.terminate();
    }
    for (ActorSystem s : nodes) {
      TroupeSystems.stop(s);
    }
  }

  @Override
  public String where(int node, String entityId) {
    return whereAsync(node, entityId, Duration.ofSeconds(30)).toCompletableFuture().join();
  }

  @Override
  public CompletionStage<String> whereAsync(int node, String entityId, Duration timeout) {
    return Patterns.ask(regions.get(node), new WhereAreYou(entityId), timeout).thenApply(o -> ((Where) o).host());
  }

  @Override
  public String address(int node) {
    return nodes.get(node).address().toString();
  }

  @Override
  public void leave(int node) {
    nodes.get(node).terminate();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Entity ids and shards as {@link ShardedMessages} defines them. */
  static final class Extractor implements ShardRegion.MessageExtractor {
    private final int shards;

    Extractor(int shards) {
      this.shards = shards;
    }

    @Override
    public String entityId(Object message) {
      return ShardedMessages.entityId(message);
    }

    @Override
    public Object entityMessage(Object message) {
      return message;
    }

    @Override
    public String shardId(Object message) {
      String id = ShardedMessages.entityId(message);
      return id == null ? null : ShardedMessages.shardId(id, shards);
    }
  }

  /** The entity: answers a ping with a pong, and where it lives. */
  static final class Entity extends UntypedActor {
    private final String host = Cluster.get(getContext().getSystem()).selfAddress().toString();

    @Override
    public void onReceive(Object message) {
      if (message instanceof ShardedPing p) {
        getSender().tell(new Pong(p.sentAt(), p.payload()), getSelf());
      } else if (message instanceof WhereAreYou w) {
        getSender().tell(new Where(w.entityId(), host), getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  /** Keeps {@code inFlight} pings to one entity outstanding, through the region. */
  static final class Pinger extends UntypedActor {
    private final ActorRef region;
    private final String entityId;
    private final int inFlight;
    private final byte[] payload = RemoteMessages.payload();
    private Completion done;
    private Histogram histogram;
    private int quota;
    private int sent;
    private int received;

    Pinger(ActorRef region, String entityId, int inFlight) {
      this.region = region;
      this.entityId = entityId;
      this.inFlight = inFlight;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Pong p) {
        histogram.recordValue(System.nanoTime() - p.sentAt());
        received++;
        if (sent < quota) {
          sent++;
          region.tell(new ShardedPing(entityId, System.nanoTime(), payload), getSelf());
        } else if (received == quota) {
          done.done();
        }
      } else if (message instanceof RemoteStart s) {
        done = s.done();
        histogram = s.histogram();
        quota = s.roundTrips();
        sent = 0;
        received = 0;
        int initial = Math.min(inFlight, quota);
        for (int i = 0; i < initial; i++) {
          sent++;
          region.tell(new ShardedPing(entityId, System.nanoTime(), payload), getSelf());
        }
      } else {
        unhandled(message);
      }
    }
  }
}
