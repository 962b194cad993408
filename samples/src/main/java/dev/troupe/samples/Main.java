package dev.troupe.samples;

import dev.troupe.samples.monkeys.Monkeys;
import dev.troupe.samples.pingpong.PingPong;
import dev.troupe.samples.pingpong.PingPongLatency;
import dev.troupe.samples.pingpong.ThroughputSweep;
import dev.troupe.samples.quickstart.QuickStartSample;
import dev.troupe.samples.remote.RemoteEchoClient;
import dev.troupe.samples.remote.RemoteEchoServer;
import dev.troupe.samples.remote.RemoteWorkers;
import dev.troupe.samples.routing.ResizerSample;
import dev.troupe.samples.routing.WatchTheRoutees;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The samples launcher: {@code java -jar samples/target/troupe-samples.jar <name> [flags]}; with no
 * arguments it lists the samples.
 */
public final class Main {
  static final List<Sample> SAMPLES =
      List.of(
          new PingPong(),
          new PingPongLatency(),
          new ThroughputSweep(),
          new QuickStartSample(),
          new WatchTheRoutees(),
          new ResizerSample(),
          new RemoteEchoServer(),
          new RemoteEchoClient(),
          new RemoteWorkers(),
          new Monkeys());

  private Main() {}

  /**
   * Runs a sample by name.
   *
   * @param args the sample name and its flags
   * @throws Exception on failure
   */
  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out));
  }

  static int run(String[] args, PrintStream out) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      usage(out);
      return 0;
    }
    for (Sample s : SAMPLES) {
      if (s.name().equals(args[0])) {
        try {
          return s.run(Arrays.copyOfRange(args, 1, args.length), out);
        } catch (Flags.Exit e) {
          out.println(e.getMessage());
          return e.code();
        }
      }
    }
    out.println("unknown sample '" + args[0] + "'");
    usage(out);
    return Flags.USAGE_ERROR;
  }

  private static void usage(PrintStream out) {
    out.println("usage: java -jar samples/target/troupe-samples.jar <sample> [flags]");
    out.println();
    out.println("samples:");
    for (Sample s : SAMPLES) {
      out.printf("  %-18s %s%n", s.name(), s.description());
    }
    out.println();
    out.println("run a sample with --help to see its options and their defaults");
  }
}
