package dev.troupe.bench;

import dev.troupe.bench.common.Cpu;
import dev.troupe.bench.pingpong.PingPongDriver;
import dev.troupe.bench.reqres.RequestResponseDriver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@link TypedPingPong} and {@link TypedRequestResponse} cells measured in rounds, for ratios on a
 * busy machine: in each round every implementation gets a fresh system, a warm-up second and a
 * measured window, one after the other within seconds, so the load other processes put on the
 * machine is about the same for the three and each round gives a ratio. JMH forks run an
 * implementation's cells minutes apart, and on a shared machine their ratios then follow the
 * neighbours' load more than the code. The price: the three share one JVM, so call sites that
 * JMH's forks see with one framework's classes see all of them here. Not a JMH benchmark: a
 * {@code main} on the benchmarks jar.
 *
 * <pre>
 * java -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp bench/target/benchmarks.jar dev.troupe.bench.TypedPaired \
 *     pingpong 1 5 10 5          # pairs throughput inFlight rounds
 * java ... dev.troupe.bench.TypedPaired reqres reply-to 1 10 5   # mode clients inFlight rounds
 * </pre>
 *
 * Prints each round's rates (M messages/s for ping-pong, M requests/s for request/response) with
 * the process's CPU time per operation over the measured window, and, at the end, the median and
 * min–max over the rounds of typed / classic Troupe, typed Troupe / Pekko Typed and classic Troupe
 * / Pekko Typed (what the runtime under both Troupe styles gives in that cell), and of typed /
 * classic CPU per operation. CPU per operation does not count other processes' work, so it moves
 * less with the machine's load than the rates do; where it is far above the handlers' own cost,
 * the time goes to handing work between threads (waking a parked thread is a system call).
 */
public final class TypedPaired {
  private static final String[] IMPLS = {"troupe", "troupe-typed", "pekko-typed"};
  private static final long WARM_NANOS = 1_000_000_000L;
  private static final long MEASURE_NANOS = 2_000_000_000L;

  private TypedPaired() {}

  /** One implementation's system for one round. */
  private interface Cell {
    /** @return operations done by one invocation */
    long invoke();

    void stop();
  }

  /**
   * @param args {@code pingpong pairs throughput inFlight rounds} or {@code reqres mode clients
   *     inFlight rounds}
   */
  public static void main(String[] args) {
    if (args.length != 5 || !(args[0].equals("pingpong") || args[0].equals("reqres"))) {
      System.err.println("usage: TypedPaired pingpong <pairs> <throughput> <inFlight> <rounds>"
          + " | reqres <reply-to|ask> <clients> <inFlight> <rounds>");
      System.exit(2);
    }
    int rounds = Integer.parseInt(args[4]);
    List<double[]> rates = new ArrayList<>();
    List<double[]> cpus = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      double[] round = new double[IMPLS.length];
      double[] cpu = new double[IMPLS.length];
      for (int i = 0; i < IMPLS.length; i++) {
        Cell cell = start(IMPLS[i], args);
        try {
          run(cell, WARM_NANOS, null);
          double[] cpuPerOp = new double[1];
          round[i] = run(cell, MEASURE_NANOS, cpuPerOp);
          cpu[i] = cpuPerOp[0];
        } finally {
          cell.stop();
        }
      }
      rates.add(round);
      cpus.add(cpu);
      System.out.printf(Locale.ROOT,
          "round %d: troupe %.2f M/s (%.0f ns CPU/op), troupe-typed %.2f M/s (%.0f), pekko-typed %.2f M/s (%.0f)%n",
          r, round[0] / 1e6, cpu[0], round[1] / 1e6, cpu[1], round[2] / 1e6, cpu[2]);
    }
    summary("typed / classic Troupe", rates, 1, 0);
    summary("typed Troupe / Pekko Typed", rates, 1, 2);
    summary("classic Troupe / Pekko Typed", rates, 0, 2);
    summary("CPU per op, typed / classic Troupe", cpus, 1, 0);
    System.exit(0);
  }

  private static Cell start(String impl, String[] args) {
    if (args[0].equals("pingpong")) {
      int pairs = Integer.parseInt(args[1]);
      PingPongDriver d = PingPongDriver.create(impl);
      d.setup(pairs, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      return new Cell() {
        @Override
        public long invoke() {
          d.runIteration(PingPongThroughput.ROUND_TRIPS / pairs);
          return PingPongThroughput.MESSAGES;
        }

        @Override
        public void stop() {
          d.teardown();
        }
      };
    }
    int clients = Integer.parseInt(args[2]);
    RequestResponseDriver d = RequestResponseDriver.create(impl);
    d.setup(clients, Integer.parseInt(args[3]), RequestResponseDriver.Mode.of(args[1]));
    return new Cell() {
      @Override
      public long invoke() {
        d.runIteration(TypedRequestResponse.REQUESTS / clients);
        return TypedRequestResponse.REQUESTS;
      }

      @Override
      public void stop() {
        d.teardown();
      }
    };
  }

  /**
   * @param cpuPerOp if not null, gets the process's CPU nanoseconds per operation in its first slot
   * @return operations per second over at least {@code nanos}
   */
  private static double run(Cell cell, long nanos, double[] cpuPerOp) {
    long cpuStart = cpuPerOp == null ? 0 : Cpu.processNanos();
    long start = System.nanoTime();
    long ops = 0;
    long elapsed;
    do {
      ops += cell.invoke();
      elapsed = System.nanoTime() - start;
    } while (elapsed < nanos);
    if (cpuPerOp != null) {
      cpuPerOp[0] = (double) (Cpu.processNanos() - cpuStart) / ops;
    }
    return ops / (elapsed / 1e9);
  }

  private static void summary(String what, List<double[]> rates, int num, int den) {
    double[] ratios = rates.stream().mapToDouble(r -> r[num] / r[den]).sorted().toArray();
    double median = ratios.length % 2 == 1
        ? ratios[ratios.length / 2]
        : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
    System.out.printf(Locale.ROOT, "%s: median %.2f, min %.2f, max %.2f over %d rounds %s%n",
        what, median, ratios[0], ratios[ratios.length - 1], ratios.length, Arrays.toString(ratios));
  }
}
