package dev.troupe.bench.sharding;

import dev.troupe.bench.common.ClusterNodes;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.RemoteMessages.Pong;
import dev.troupe.bench.common.RemoteMessages.RemoteStart;
import dev.troupe.bench.sharding.ShardedMessages.ShardedPing;
import dev.troupe.bench.sharding.ShardedMessages.Where;
import dev.troupe.bench.sharding.ShardedMessages.WhereAreYou;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.ClusterSharding;
import org.apache.pekko.cluster.sharding.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.pattern.Patterns;

/**
 * Pekko side of the sharding benchmarks; mirrors {@link TroupeSharded}. Nodes are Pekko Cluster
 * (classic) over Artery TCP on 127.0.0.1, Cluster Sharding with every default (ddata coordinator
 * state, least-shard allocation, hand-off and rebalance settings); the messages on Pekko's
 * jackson-cbor.
 */
final class PekkoSharded implements ShardedPingPongDriver, ShardHandOver.Cluster, ShardRebalance.Nodes {
  private static final String CLUSTER = ClusterNodes.PEKKO;

  private final List<ActorSystem> nodes = new ArrayList<>();
  private final List<ActorRef> regions = new ArrayList<>();
  private ActorRef[] pingers;
  private String name;
  private int shards = ShardedMessages.SHARDS;
  /** Extra configuration of every node (ShardRebalance turns on Pekko's split brain resolver). */
  private final String extra;

  PekkoSharded() {
    this("");
  }

  /** @param extra configuration added to every node's */
  PekkoSharded(String extra) {
    this.extra = extra;
  }

  private ActorSystem node(String name) {
    return PekkoSystems.start(name, extra + "\n" + CLUSTER + Dispatchers.section(Impl.PEKKO, Dispatchers.DEFAULT_THROUGHPUT));
  }

  private ActorRef startRegion(ActorSystem s) {
    return ClusterSharding.get(s).start("Ponger", Props.create(Entity.class, Entity::new)
        .withDispatcher(Dispatchers.ID), ClusterShardingSettings.create(s), new Extractor(shards));
  }

  @Override
  public void start(int n) {
    name = Names.unique("sharded");
    for (int i = 0; i < n; i++) {
      nodes.add(node(name));
    }
    for (ActorSystem s : nodes) {
      Cluster.get(s).join(Cluster.get(nodes.get(0)).selfAddress());
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!allUp(n)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("pekko: the cluster of " + n + " did not form: "
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
    Cluster.get(s).join(Cluster.get(nodes.get(0)).selfAddress());
    nodes.add(s);
    regions.add(startRegion(s)); // at once, as an application starts its regions: before the node is Up
  }

  @Override
  public boolean allUp(int n) {
    for (ActorSystem s : nodes) {
      if (!allUp(s, n)) {
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
    Cluster.get(s).join(org.apache.pekko.actor.AddressFromURIString.parse(seed));
    regions.add(startRegion(s));
  }

  @Override
  public CompletionStage<Integer> hostedShards(int node) {
    return Patterns.ask(regions.get(node), ShardRegion.getShardRegionStateInstance(), Duration.ofSeconds(10))
        .thenApply(o -> ((ShardRegion.CurrentShardRegionState) o).getShards().size());
  }

  private static boolean allUp(ActorSystem s, int n) {
    int up = 0;
    for (Member m : Cluster.get(s).state().getMembers()) {
      if (m.status() == MemberStatus.up()) {
        up++;
      }
    }
    return up == n;
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
        "pekko", local, pairs, pairs - local);
  }

  @Override
  public void runIteration(int roundTripsPerPair, Histogram[] histograms) {
    Completion done = new Completion(pingers.length);
    for (int i = 0; i < pingers.length; i++) {
      pingers[i].tell(new RemoteStart(done, roundTripsPerPair, 0, histograms[i]), ActorRef.noSender());
    }
    done.await("pekko sharded ping-pong");
  }

  @Override
  public void teardown() {
    for (ActorSystem s : nodes) {
      s.terminate();
    }
    for (ActorSystem s : nodes) {
      PekkoSystems.stop(s);
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
    return Cluster.get(nodes.get(node)).selfAddress().toString();
  }

  @Override
  public void leave(int node) {
    nodes.get(node).terminate(); // runs coordinated shutdown: sharding's hand-off, then the cluster leave
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Entity ids and shards as {@link ShardedMessages} defines them (StartEntity too). */
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
      String id = message instanceof ShardRegion.StartEntity s ? s.entityId() : ShardedMessages.entityId(message);
      return id == null ? null : ShardedMessages.shardId(id, shards);
    }
  }

  /** The entity: answers a ping with a pong, and where it lives. */
  static final class Entity extends UntypedAbstractActor {
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
  static final class Pinger extends UntypedAbstractActor {
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
