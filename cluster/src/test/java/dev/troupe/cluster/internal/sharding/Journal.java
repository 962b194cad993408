package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Props;
import dev.troupe.cluster.sharding.ShardRegion;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the test entities did, from any thread: starts and stops (with the node, i.e. the region, that
 * hosted them) in one global order, and the messages each id received. The order of starts and stops
 * follows the runtime's happens-before (a start that depends on a stop is numbered after it), so
 * two overlapping lives of one id show up as a start while another life is open.
 */
final class Journal {
  record Life(long seq, String id, String node, boolean start) {}

  /** A message for entity {@code id}. */
  record Msg(String id, long n) {}

  /** A command for entity {@code id}: the entity receives {@code command}. */
  record Cmd(String id, Object command) {}

  /** Entity command: block the entity until the latch opens (at most 10 s). */
  record Block(CountDownLatch latch) {}

  /**
   * Entity command: ask the shard for passivation (stop message "stop"), then open {@code entered}
   * and block until {@code release} opens (at most 10 s), so that the shard is passivating it
   * meanwhile.
   */
  record PassivateAndBlock(CountDownLatch entered, CountDownLatch release) {}

  /** Entity command: ask the shard for passivation with the stop message "stop". */
  static final String PASSIVATE = "passivate";

  private final AtomicLong seq = new AtomicLong();
  private final Queue<Life> lives = new ConcurrentLinkedQueue<>();
  private final Map<String, Queue<Long>> received = new ConcurrentHashMap<>();
  private final Map<String, String> lastNode = new ConcurrentHashMap<>();
  final Queue<String> stopsReceived = new ConcurrentLinkedQueue<>();
  final AtomicLong total = new AtomicLong();

  void started(String id, String node) {
    lives.add(new Life(seq.incrementAndGet(), id, node, true));
    lastNode.put(id, node);
  }

  void stopped(String id, String node) {
    lives.add(new Life(seq.incrementAndGet(), id, node, false));
  }

  void received(String id, long n) {
    received.computeIfAbsent(id, k -> new ConcurrentLinkedQueue<>()).add(n);
    total.incrementAndGet();
  }

  /** @return the messages {@code id} received, in order */
  List<Long> receivedBy(String id) {
    Queue<Long> q = received.get(id);
    return q == null ? List.of() : new ArrayList<>(q);
  }

  /** @return the node that last started {@code id} */
  String nodeOf(String id) {
    return lastNode.get(id);
  }

  long starts(String id) {
    return lives.stream().filter(l -> l.start() && l.id().equals(id)).count();
  }

  long starts(String id, String node) {
    return lives.stream().filter(l -> l.start() && l.id().equals(id) && l.node().equals(node)).count();
  }

  boolean alive(String id) {
    long s = lives.stream().filter(l -> l.id().equals(id)).filter(Life::start).count();
    long t = lives.stream().filter(l -> l.id().equals(id)).filter(l -> !l.start()).count();
    return s > t;
  }

  /** @return every start of an id while another life of it was open ("id: node1 + node2") */
  List<String> overlaps() {
    List<Life> all = new ArrayList<>(lives);
    all.sort(Comparator.comparingLong(Life::seq));
    Map<String, Set<String>> open = new HashMap<>();
    List<String> bad = new ArrayList<>();
    for (Life l : all) {
      Set<String> nodes = open.computeIfAbsent(l.id(), k -> new HashSet<>());
      if (l.start()) {
        if (!nodes.isEmpty()) {
          bad.add(l.id() + " started on " + l.node() + " while alive on " + nodes + " (#" + l.seq() + ")");
        }
        nodes.add(l.node());
      } else {
        nodes.remove(l.node());
      }
    }
    return bad;
  }

  Props entityProps() {
    return Props.create(Recorder.class, () -> new Recorder(this));
  }

  /** The extractor of the tests: {@link Msg} and {@link Cmd} over {@code shards} shards. */
  static ShardRegion.MessageExtractor extractor(int shards) {
    return new ShardRegion.HashCodeMessageExtractor(shards) {
      @Override
      public String entityId(Object m) {
        if (m instanceof Msg msg) {
          return msg.id();
        }
        return m instanceof Cmd c ? c.id() : null;
      }

      @Override
      public Object entityMessage(Object m) {
        return m instanceof Cmd c ? c.command() : m;
      }
    };
  }

  /** A test entity: records its life and what it receives. */
  static final class Recorder extends AbstractActor {
    private final Journal journal;
    private String id;
    private String node;

    Recorder(Journal journal) {
      this.journal = journal;
    }

    /** The region's actor name: /user/<region>/<shard>/<entity>. */
    static String nodeOf(ActorPath entity) {
      return entity.parent().parent().name();
    }

    @Override
    public void preStart() {
      id = URLDecoder.decode(getSelf().path().name(), StandardCharsets.UTF_8);
      node = nodeOf(getSelf().path());
      journal.started(id, node);
    }

    @Override
    public void postStop() {
      journal.stopped(id, node);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Msg.class, m -> journal.received(m.id(), m.n()))
          .matchEquals(PASSIVATE, m -> getContext().getParent().tell(new ShardRegion.Passivate("stop"), getSelf()))
          .matchEquals("stop", m -> {
            journal.stopsReceived.add(id);
            getContext().stop(getSelf());
          })
          .match(Block.class, b -> b.latch().await(10, TimeUnit.SECONDS))
          .match(PassivateAndBlock.class, b -> {
            getContext().getParent().tell(new ShardRegion.Passivate("stop"), getSelf());
            b.entered().countDown();
            b.release().await(10, TimeUnit.SECONDS);
          })
          .build();
    }
  }
}
