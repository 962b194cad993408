package dev.troupe.bench.sharding;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Sharding under membership change, Troupe beside Pekko Cluster Sharding (classic), each with its
 * defaults: one entity type of {@code ids} entities over {@code shards} shards (default 10,000 over
 * 1,000), every node on loopback.
 *
 * <ul>
 *   <li><b>join</b>: three nodes in this JVM under a steady load (clients keeping {@value #IN_FLIGHT}
 *       asks in flight, cycling over every id, through the first three nodes' regions); a fourth node
 *       joins (its region started at once, as an application would). Reported: when the new node was
 *       Up on every node; the time from then until the last shard that moved first answered from its
 *       new home; the shards and entities that moved; the longest single ask (send to reply) from the
 *       join on, which stands for the longest a message waited in a hand-over buffer (no framework
 *       exposes the wait itself); the asks over 1 s; and the asks lost (no answer within {@value
 *       #LOST_AFTER_S} s). The change is over when every region's shard count held still for {@value
 *       #QUIET_S} s (longer than Pekko's 10 s rebalance interval).
 *   <li><b>crash</b>: two nodes in this JVM and a third in a child JVM, which is killed ({@code
 *       Process.destroyForcibly}, SIGKILL on Linux) once every entity answered once; reported: the
 *       time until the survivors removed it and until every entity that lived there answered from a
 *       survivor (each asked again every {@value #PROBE_EVERY_MS} ms, at most {@value
 *       #PROBES_PER_ID} asks outstanding per entity).
 * </ul>
 *
 * <p>Pekko runs with its split brain resolver on ({@code downing-provider-class}; its reference.conf
 * leaves downing off, and then a crashed member is never removed) and otherwise its defaults:
 * rebalance-interval 10 s, the least-shard allocation strategy with its default limits, failure
 * detector pause 3 s, stable-after 20 s. Troupe runs with its reference.conf as it is.
 *
 * <p>A main, not JMH: {@code java -cp bench/target/benchmarks.jar dev.troupe.bench.sharding.ShardRebalance
 * [join|crash|both] [runs] [ids] [shards] [impls]} (impls: a comma-separated list of troupe, pekko
 * and pekko-limit20, Pekko with the newer allocation algorithm its reference.conf recommends, {@code
 * rebalance-absolute-limit = 20}; the crash runs troupe and pekko only). Indicative on a shared
 * machine.
 */
public final class ShardRebalance {
  /** Asks the load keeps in flight. */
  static final int IN_FLIGHT = 64;
  /** An ask without an answer this long counts as lost. */
  static final int LOST_AFTER_S = 30;
  /** How long every region's shard count must hold still before the change counts as over. */
  static final int QUIET_S = 12;
  /** The longest a change may take before the run gives up. */
  private static final Duration CHANGE_CAP = Duration.ofSeconds(180);
  /**
   * How long the join run of each variant watches the shards move before it reports what it has.
   * Pekko's default allocation strategy moves one shard per 10 s rebalance round (threshold 1, its
   * older algorithm): a quarter of 1,000 shards would take about 40 minutes.
   */
  private static final Map<String, Duration> JOIN_WINDOW = Map.of(
      "troupe", Duration.ofSeconds(60), "pekko", Duration.ofSeconds(60), "pekko-limit20", Duration.ofSeconds(300));
  /** Pekko's newer least-shard algorithm, which its reference.conf recommends (with this example limit). */
  static final String PEKKO_LIMIT_20 =
      "pekko.cluster.sharding.least-shard-allocation-strategy.rebalance-absolute-limit = 20\n";
  /** How often the crash run asks each entity of the killed node again, until it answers from a survivor. */
  static final int PROBE_EVERY_MS = 250;
  /** The most asks outstanding per entity in the crash run (each waits up to 5 s). */
  static final int PROBES_PER_ID = 4;
  /** Pekko's split brain resolver: Pekko's documented downing, off in its reference.conf. */
  static final String PEKKO_SBR =
      "pekko.cluster.downing-provider-class = \"org.apache.pekko.cluster.sbr.SplitBrainResolverProvider\"\n";

  /** What the measure needs of a framework's cluster. */
  interface Nodes {
    /** Forms a cluster of {@code n} nodes in this JVM and starts the type's region on each. */
    void start(int n, int shards);

    /** Starts one more node in this JVM, joins it to the first and starts its region (no wait). */
    void addNode();

    /** @return whether every node in this JVM sees {@code n} members, all Up */
    boolean allUp(int n);

    /** @return the name of the nodes' actor systems */
    String systemName();

    /** In a child JVM: starts a node, joins it to {@code seed} and starts its region (no wait). */
    void startChild(String systemName, String seed, int shards);

    /** @return node {@code node}'s address as the entities report it */
    String address(int node);

    /** @return where {@code entityId} lives, asked through node {@code node}; fails after {@code timeout} */
    CompletionStage<String> whereAsync(int node, String entityId, Duration timeout);

    /** @return how many shards node {@code node}'s region hosts */
    CompletionStage<Integer> hostedShards(int node);

    /** Terminates every node in this JVM (bounded). */
    void teardown();
  }

  /** One join run. */
  record JoinResult(String impl, long upMillis, boolean settled, long rebalanceMillis, List<Integer> shardsPerNode,
      int movedShards, int movedEntities, long maxWaitMillis, long maxWaitBeforeMillis, long over1s, long lost,
      long asks) {}

  /** One crash run. */
  record CrashResult(String impl, int entitiesThere, long removedMillis, long answeredMillis) {}

  private ShardRebalance() {}

  /**
   * Runs the scenarios for Troupe and Pekko and prints the tables; with {@code child} first, runs the
   * crash scenario's child node (internal).
   *
   * @param args [join|crash|both] [runs] [ids] [shards] [impls]
   */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args);
      return;
    }
    String what = args.length > 0 ? args[0] : "both";
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    int ids = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int shards = args.length > 3 ? Integer.parseInt(args[3]) : 1_000;
    List<JoinResult> joins = new ArrayList<>();
    List<CrashResult> crashes = new ArrayList<>();
    List<String> impls = args.length > 4 ? List.of(args[4].split(",")) : List.of("troupe", "pekko", "pekko-limit20");
    for (int r = 0; r < runs; r++) {
      for (String impl : impls) {
        if (!what.equals("crash")) {
          joins.add(join(impl, create(impl), ids, shards, JOIN_WINDOW.get(impl)));
          System.out.println("RESULT " + joins.get(joins.size() - 1));
        }
        if (!what.equals("join") && !impl.equals("pekko-limit20")) {
          crashes.add(crash(impl, ids, shards));
          System.out.println("RESULT " + crashes.get(crashes.size() - 1));
        }
      }
    }
    if (!joins.isEmpty()) {
      System.out.printf(Locale.ROOT, "%nA fourth node joins three under load (%d ids over %d shards, %d asks in flight):%n%n",
          ids, shards, IN_FLIGHT);
      System.out.println("| impl | new node Up after (ms) | last shard moved, after Up (ms) | shards / entities moved"
          + " | shards per node after | longest ask from the join (ms) | longest ask before (ms) | asks over 1 s"
          + " | asks lost | asks |");
      System.out.println("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|");
      for (JoinResult x : joins) {
        System.out.printf(Locale.ROOT, "| %s | %d | %s | %d / %d | %s | %d | %d | %d | %d | %d |%n", x.impl(),
            x.upMillis(), (x.settled() ? "" : "not done; so far ") + x.rebalanceMillis(), x.movedShards(),
            x.movedEntities(), x.shardsPerNode(), x.maxWaitMillis(), x.maxWaitBeforeMillis(), x.over1s(), x.lost(),
            x.asks());
      }
    }
    if (!crashes.isEmpty()) {
      System.out.printf(Locale.ROOT, "%nOne of three nodes killed (SIGKILL, a child JVM), %d ids over %d shards:%n%n",
          ids, shards);
      System.out.println("| impl | entities on the killed node | removed by the survivors after (ms)"
          + " | all its entities answer from survivors after (ms) |");
      System.out.println("|---|---:|---:|---:|");
      for (CrashResult x : crashes) {
        System.out.printf(Locale.ROOT, "| %s | %d | %d | %d |%n", x.impl(), x.entitiesThere(), x.removedMillis(),
            x.answeredMillis());
      }
    }
    System.exit(0);
  }

  static Nodes create(String impl) {
    return switch (impl) {
      case "troupe" -> new TroupeSharded();
      case "pekko" -> new PekkoSharded(PEKKO_SBR);
      case "pekko-limit20" -> new PekkoSharded(PEKKO_SBR + PEKKO_LIMIT_20);
      default -> throw new IllegalArgumentException("troupe, pekko or pekko-limit20, not " + impl);
    };
  }

  // ------------------------------------------------------------------ join

  /** Closed-loop clients: {@link #IN_FLIGHT} asks outstanding, each followed by the next id's. */
  static final class Load {
    private final Nodes c;
    private final int entryNodes;
    private final int ids;
    private final int shards;
    private final AtomicLong seq = new AtomicLong();
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile boolean running = true;
    /** Where each shard answered from last. */
    final ConcurrentHashMap<String, String> home = new ConcurrentHashMap<>();
    /** Set at the change: the homes then, and from then on the first answer from another home per shard. */
    private volatile Map<String, String> homeBefore;
    final ConcurrentHashMap<String, Long> movedAt = new ConcurrentHashMap<>();
    private volatile boolean changing;
    final LongAccumulator maxBefore = new LongAccumulator(Math::max, 0);
    final LongAccumulator maxDuring = new LongAccumulator(Math::max, 0);
    final AtomicLong over1s = new AtomicLong();
    final AtomicLong lost = new AtomicLong();
    final AtomicLong answered = new AtomicLong();

    Load(Nodes c, int entryNodes, int ids, int shards) {
      this.c = c;
      this.entryNodes = entryNodes;
      this.ids = ids;
      this.shards = shards;
    }

    void start() {
      for (int i = 0; i < IN_FLIGHT; i++) {
        outstanding.incrementAndGet();
        next();
      }
    }

    private void next() {
      if (!running) {
        outstanding.decrementAndGet();
        return;
      }
      long n = seq.getAndIncrement();
      String id = "entity-" + (n % ids);
      int node = (int) ((n / ids + n) % entryNodes);
      long sentAt = System.nanoTime();
      boolean during = changing;
      c.whereAsync(node, id, Duration.ofSeconds(LOST_AFTER_S)).whenComplete((host, failure) -> {
        long took = System.nanoTime() - sentAt;
        if (failure != null) {
          lost.incrementAndGet();
        } else {
          answered.incrementAndGet();
          (during || changing ? maxDuring : maxBefore).accumulate(took);
          if (during && took > TimeUnit.SECONDS.toNanos(1)) {
            over1s.incrementAndGet();
          }
          String shard = ShardedMessages.shardId(id, shards);
          home.put(shard, host);
          Map<String, String> before = homeBefore;
          if (before != null && !host.equals(before.get(shard))) {
            movedAt.putIfAbsent(shard, System.nanoTime());
          }
        }
        next();
      });
    }

    /** From now on, asks count as during the change; shard homes are compared with the current ones. */
    void change() {
      homeBefore = Map.copyOf(home);
      changing = true;
    }

    /** Stops sending and waits for the asks in flight (each is bounded). */
    void stop() {
      running = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LOST_AFTER_S + 10);
      while (outstanding.get() > 0 && System.nanoTime() < deadline) {
        sleep(10);
      }
    }
  }

  static JoinResult join(String impl, Nodes c, int ids, int shards, Duration window) {
    c.start(3, shards);
    try {
      Map<String, String> first = warmUp(c, 3, ids);
      Load load = new Load(c, 3, ids, shards);
      first.forEach((id, host) -> load.home.put(ShardedMessages.shardId(id, shards), host));
      load.start();
      sleep(3_000); // steady state: every shard's home known to the load
      long t0 = System.nanoTime();
      load.change();
      c.addNode();
      long deadline = t0 + CHANGE_CAP.toNanos();
      while (!c.allUp(4)) {
        check(deadline, impl + ": the fourth node was not Up everywhere");
        sleep(5);
      }
      long up = System.nanoTime();
      // the change is over when every region's shard count held still for QUIET_S seconds
      List<Integer> last = List.of();
      long stableSince = System.nanoTime();
      boolean settled = true;
      while (System.nanoTime() - stableSince < TimeUnit.SECONDS.toNanos(QUIET_S)) {
        if (System.nanoTime() - t0 > window.toNanos()) {
          settled = false;
          break;
        }
        List<Integer> counts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          counts.add(c.hostedShards(i).toCompletableFuture().join());
        }
        if (!counts.equals(last) || counts.get(3) == 0) {
          last = counts;
          stableSince = System.nanoTime();
        }
        sleep(500);
      }
      System.out.println(impl + ": shards per node after the join " + last);
      load.stop();
      long lastMove = load.movedAt.values().stream().mapToLong(Long::longValue).max().orElse(up);
      Set<String> moved = new HashSet<>(load.movedAt.keySet());
      int movedEntities = 0;
      for (int i = 0; i < ids; i++) {
        if (moved.contains(ShardedMessages.shardId("entity-" + i, shards))) {
          movedEntities++;
        }
      }
      return new JoinResult(impl, millis(up - t0), settled, millis(Math.max(0, lastMove - up)), last, moved.size(),
          movedEntities, millis(load.maxDuring.get()), millis(load.maxBefore.get()), load.over1s.get(),
          load.lost.get(), load.answered.get() + load.lost.get());
    } finally {
      c.teardown();
    }
  }

  /** Asks every id once (creating every entity), through the nodes in turn, in batches. */
  static Map<String, String> warmUp(Nodes c, int nodes, int ids) {
    Map<String, String> where = new HashMap<>();
    for (int from = 0; from < ids; from += 1_000) {
      List<CompletableFuture<String>> batch = new ArrayList<>();
      for (int i = from; i < Math.min(ids, from + 1_000); i++) {
        batch.add(c.whereAsync(i % nodes, "entity-" + i, Duration.ofSeconds(60)).toCompletableFuture());
      }
      for (int i = 0; i < batch.size(); i++) {
        where.put("entity-" + (from + i), batch.get(i).join());
      }
    }
    return where;
  }

  // ------------------------------------------------------------------ crash

  static CrashResult crash(String impl, int ids, int shards) throws Exception {
    Nodes c = create(impl);
    c.start(2, shards);
    Process child = null;
    try {
      Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
      child = new ProcessBuilder(java.toString(), "-Xmx1g", "-cp", System.getProperty("java.class.path"),
          ShardRebalance.class.getName(), "child", impl, c.systemName(), c.address(0), Integer.toString(shards))
          .redirectErrorStream(true).start();
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String ready = null;
      for (String line; (line = out.readLine()) != null; ) {
        if (line.startsWith("READY ")) {
          ready = line.substring("READY ".length()).trim();
          break;
        }
        System.out.println("child: " + line);
      }
      String childAddress = ready;
      if (childAddress == null) {
        throw new IllegalStateException(impl + ": the child node ended before it was ready");
      }
      Thread drain = new Thread(() -> {
        try {
          while (out.readLine() != null) {
            // the child's output after READY is not needed; reading it keeps its pipe from filling
          }
        } catch (IOException e) {
          // the child is gone
        }
      }, "child-output");
      drain.setDaemon(true);
      drain.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!c.allUp(3)) {
        check(deadline, impl + ": the child node was not Up everywhere");
        sleep(20);
      }
      Map<String, String> first = warmUp(c, 2, ids);
      List<String> there = new ArrayList<>();
      for (Map.Entry<String, String> e : first.entrySet()) {
        if (e.getValue().equals(childAddress)) {
          there.add(e.getKey());
        }
      }
      if (there.isEmpty()) {
        throw new IllegalStateException(impl + ": no entity lives on the child node " + childAddress);
      }
      sleep(1_000);
      long t0 = System.nanoTime();
      child.destroyForcibly();
      AtomicLong removedAt = new AtomicLong();
      Thread removal = new Thread(() -> {
        while (!c.allUp(2) && System.nanoTime() - t0 < CHANGE_CAP.toNanos()) {
          sleep(5);
        }
        removedAt.set(System.nanoTime());
      }, "removal-watch");
      removal.start();
      ConcurrentHashMap<String, Long> answeredAt = new ConcurrentHashMap<>();
      Map<String, AtomicInteger> outstanding = new HashMap<>();
      there.forEach(id -> outstanding.put(id, new AtomicInteger()));
      // every PROBE_EVERY_MS, each entity not yet answered from a survivor is asked again (at most
      // PROBES_PER_ID asks outstanding per entity: the asks to the dead node wait out their timeout)
      while (answeredAt.size() < there.size() && System.nanoTime() - t0 < CHANGE_CAP.toNanos()) {
        for (String id : there) {
          AtomicInteger n = outstanding.get(id);
          if (answeredAt.containsKey(id) || n.get() >= PROBES_PER_ID) {
            continue;
          }
          n.incrementAndGet();
          c.whereAsync(0, id, Duration.ofSeconds(5)).whenComplete((host, failure) -> {
            n.decrementAndGet();
            if (failure == null && !childAddress.equals(host)) {
              answeredAt.putIfAbsent(id, System.nanoTime());
            }
          });
        }
        sleep(PROBE_EVERY_MS);
      }
      removal.join(TimeUnit.SECONDS.toMillis(CHANGE_CAP.toSeconds() + 30));
      if (answeredAt.size() < there.size()) {
        throw new IllegalStateException(impl + ": " + (there.size() - answeredAt.size())
            + " entities did not answer from a survivor within " + CHANGE_CAP);
      }
      long lastAnswer = answeredAt.values().stream().mapToLong(Long::longValue).max().orElse(t0);
      return new CrashResult(impl, there.size(), millis(removedAt.get() - t0), millis(lastAnswer - t0));
    } finally {
      if (child != null) {
        child.destroyForcibly();
      }
      c.teardown();
    }
  }

  /** The crash scenario's third node: runs until it is killed (or its parent's pipe closes). */
  private static void child(String[] args) throws IOException {
    String impl = args[1];
    Nodes c = create(impl);
    c.startChild(args[2], args[3], Integer.parseInt(args[4]));
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!c.allUp(3)) {
      check(deadline, impl + ": the child node did not see three members Up");
      sleep(20);
    }
    System.out.println("READY " + c.address(0));
    System.out.flush();
    while (System.in.read() >= 0) {
      // runs until killed, or until the parent is gone (its end of the pipe closed)
    }
    System.exit(0);
  }

  private static void check(long deadline, String what) {
    if (System.nanoTime() > deadline) {
      throw new IllegalStateException(what + " within " + CHANGE_CAP);
    }
  }

  private static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
