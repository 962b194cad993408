package dev.troupe.bench.common;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the CPU time of the whole benchmark process per iteration, a figure
 * that a machine shared with other work distorts far less than a rate: {@code cpu.cores} (CPU
 * seconds per second of the iteration) and, for a benchmark with a secondary result {@code
 * messages} (a rate, such as {@code RemotePingPong}'s), {@code cpu.nsPerMessage}: process CPU
 * nanoseconds per message. It counts every thread of the fork (both systems, their idle spinning
 * workers, JIT and GC), so compare it between builds of the same benchmark, not across
 * benchmarks.
 *
 * <p>Use: {@code java -jar bench/target/benchmarks.jar RemotePingPong -prof
 * dev.troupe.bench.common.ProcessCpuProfiler}
 */
public final class ProcessCpuProfiler implements InternalProfiler {
  private long cpuStart;
  private long wallStart;

  @Override
  public String getDescription() {
    return "process CPU time per iteration, and per message where the benchmark counts messages";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    cpuStart = Cpu.processNanos();
    wallStart = System.nanoTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpu = Cpu.processNanos() - cpuStart;
    long wall = System.nanoTime() - wallStart;
    List<Result> out = new ArrayList<>();
    if (cpuStart < 0 || wall <= 0) {
      return out;
    }
    double cores = (double) cpu / wall;
    out.add(new ScalarResult("cpu.cores", cores, "cores", AggregationPolicy.AVG));
    Result messages = result.getSecondaryResults().get("messages");
    if (messages != null && messages.getScore() > 0) {
      // messages is a rate per second: CPU ns per second over messages per second
      out.add(new ScalarResult("cpu.nsPerMessage", cores * 1e9 / messages.getScore(), "ns/msg", AggregationPolicy.AVG));
    }
    return out;
  }
}
