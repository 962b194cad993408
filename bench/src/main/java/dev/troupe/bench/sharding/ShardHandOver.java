package dev.troupe.bench.sharding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How long a graceful leave takes to move a node's shards, Troupe beside Pekko Cluster Sharding,
 * each with its defaults: three cluster nodes in this JVM (loopback), {@code entities} entities of
 * one type over {@value ShardedMessages#SHARDS} shards, each asked once where it lives; then the
 * third node leaves ({@code ActorSystem.terminate()}, which runs each framework's coordinated
 * shutdown: sharding's hand-off, then the cluster leave), and the first node asks every entity that
 * lived there, again and again, until each answers from another node. The result is the time from
 * the leave until the last of them answered from its new owner, and the asks that got no answer
 * within 5 s (lost or still held).
 *
 * <p>A single-shot measure (a main, not JMH): {@code java -cp bench/target/benchmarks.jar
 * dev.troupe.bench.sharding.ShardHandOver [entities] [runs]} (defaults 1000 and 1). Indicative on a
 * shared machine; run it on a quiet one for numbers to publish.
 */
public final class ShardHandOver {
  /** What the measure needs of a framework's cluster. */
  interface Cluster {
    /** Forms a cluster of {@code n} nodes and starts the entity type's region on each. */
    void start(int n);

    /** @return the address of the node that hosts {@code entityId}, asked through node {@code node} (bounded) */
    String where(int node, String entityId);

    /** @return the same, as a stage that fails after {@code timeout} */
    CompletionStage<String> whereAsync(int node, String entityId, Duration timeout);

    /** @return node {@code node}'s address as the entities report it */
    String address(int node);

    /** Node {@code node} leaves gracefully: its system terminates. */
    void leave(int node);

    /** Terminates every node (bounded). */
    void teardown();
  }

  /** One run's outcome. */
  record Result(String impl, int entities, int moved, long handOverMillis, int timedOut, int rounds) {}

  private ShardHandOver() {}

  /**
   * Runs the measure for Troupe and Pekko and prints one table.
   *
   * @param args [entities] [runs]
   */
  public static void main(String[] args) {
    int entities = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    List<Result> results = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      results.add(measure("troupe", new TroupeSharded(), entities));
      System.out.println("RESULT " + results.get(results.size() - 1));
      results.add(measure("pekko", new PekkoSharded(), entities));
      System.out.println("RESULT " + results.get(results.size() - 1));
    }
    System.out.println();
    System.out.println("| impl | entities | moved off the leaving node | all moved answer after (ms) | asks unanswered in 5 s | ask rounds |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    for (Result x : results) {
      System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %d |%n", x.impl(), x.entities(), x.moved(),
          x.handOverMillis(), x.timedOut(), x.rounds());
    }
    System.exit(0);
  }

  static Result measure(String impl, Cluster c, int entities) {
    c.start(3);
    try {
      String leaver = c.address(2);
      List<CompletableFuture<String>> first = new ArrayList<>();
      for (int i = 0; i < entities; i++) {
        first.add(c.whereAsync(0, "entity-" + i, Duration.ofSeconds(30)).toCompletableFuture());
      }
      List<String> moved = new ArrayList<>();
      for (int i = 0; i < entities; i++) {
        if (leaver.equals(first.get(i).join())) {
          moved.add("entity-" + i);
        }
      }
      long t0 = System.nanoTime();
      c.leave(2);
      ConcurrentHashMap<String, Long> answeredAt = new ConcurrentHashMap<>();
      AtomicInteger timedOut = new AtomicInteger();
      int rounds = 0;
      long deadline = t0 + Duration.ofSeconds(180).toNanos();
      while (answeredAt.size() < moved.size()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(impl + ": " + (moved.size() - answeredAt.size())
              + " entities did not answer from a new owner within 180 s");
        }
        rounds++;
        List<CompletableFuture<?>> asks = new ArrayList<>();
        for (String id : moved) {
          if (answeredAt.containsKey(id)) {
            continue;
          }
          asks.add(c.whereAsync(0, id, Duration.ofSeconds(5)).toCompletableFuture().handle((host, failure) -> {
            if (failure != null) {
              timedOut.incrementAndGet();
            } else if (!leaver.equals(host)) {
              answeredAt.putIfAbsent(id, System.nanoTime());
            }
            return null;
          }));
        }
        CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).join();
      }
      long last = answeredAt.values().stream().mapToLong(Long::longValue).max().orElse(t0);
      return new Result(impl, entities, moved.size(), (last - t0) / 1_000_000, timedOut.get(), rounds);
    } finally {
      c.teardown();
    }
  }
}
