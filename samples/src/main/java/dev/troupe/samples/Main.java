package dev.troupe.samples;

import dev.troupe.samples.cluster.ClusterChat;
import dev.troupe.samples.cluster.ClusterNode;
import dev.troupe.samples.cluster.ClusterWorkers;
import dev.troupe.samples.cluster.TypedClusterGreeters;
import dev.troupe.samples.cluster.TypedShardedCounters;
import dev.troupe.samples.cluster.ShardedCounters;
import dev.troupe.samples.persistence.AccountsSample;
import dev.troupe.samples.monkeys.Monkeys;
import dev.troupe.samples.pingpong.PingPong;
import dev.troupe.samples.pingpong.PingPongLatency;
import dev.troupe.samples.pingpong.ThroughputSweep;
import dev.troupe.samples.quickstart.QuickStartSample;
import dev.troupe.samples.quickstart.TypedQuickStartSample;
import dev.troupe.samples.remote.RemoteEchoClient;
import dev.troupe.samples.remote.RemoteEchoServer;
import dev.troupe.samples.remote.RemoteWorkers;
import dev.troupe.samples.routing.ResizerSample;
import dev.troupe.samples.routing.TypedWatchTheRoutees;
import dev.troupe.samples.routing.WatchTheRoutees;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The samples launcher: {@code java -jar samples/target/troupe-samples.jar <sample> [options]},
 * a picocli command with one subcommand per {@link Sample}. Without arguments it lists the
 * samples; {@code <sample> --help} shows the sample's options and their defaults; a command line
 * picocli or the sample refuses (an unknown sample or option, a malformed or out-of-range value)
 * prints what is wrong and the usage to the error stream and exits with code 2.
 */
@Command(
    name = Main.COMMAND,
    synopsisHeading = "usage: ",
    customSynopsis = Main.COMMAND + " <sample> [options]",
    commandListHeading = "%nsamples:%n",
    footer = "%nrun a sample with --help to see its options and their defaults")
public final class Main implements Callable<Integer> {
  /** How the samples are run, as usage lines show it. */
  static final String COMMAND = "java -jar samples/target/troupe-samples.jar";

  /** How wide help and usage may be: the listing's longest line fits, the option lines do not wrap often. */
  private static final int HELP_WIDTH = 120;

  /** The samples, in the order of the listing; each run parses into fresh instances. */
  static final List<Supplier<Sample>> SAMPLES =
      List.of(
          PingPong::new,
          PingPongLatency::new,
          ThroughputSweep::new,
          QuickStartSample::new,
          TypedQuickStartSample::new,
          WatchTheRoutees::new,
          TypedWatchTheRoutees::new,
          ResizerSample::new,
          RemoteEchoServer::new,
          RemoteEchoClient::new,
          RemoteWorkers::new,
          ClusterNode::new,
          ClusterWorkers::new,
          TypedClusterGreeters::new,
          ClusterChat::new,
          ShardedCounters::new,
          TypedShardedCounters::new,
          AccountsSample::new,
          Monkeys::new);

  @Spec private CommandLine.Model.CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, hidden = true)
  private boolean help;

  private Main() {}

  /**
   * Runs a sample by name.
   *
   * @param args the sample's name and its options
   */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the launcher as {@link #main} does, without exiting.
   *
   * @param args the sample's name and its options
   * @param out where the listing, {@code --help} and the sample print
   * @param err where usage errors go
   * @return the exit code: the sample's, 0 for help, 2 for a command line that cannot run
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return commandLine(out, err).execute(args);
  }

  /**
   * @param out where the listing, help and the samples print
   * @param err where usage errors go
   * @return the launcher with a fresh instance of every sample
   */
  static CommandLine commandLine(PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(new Main());
    for (Supplier<Sample> sample : SAMPLES) {
      cl.addSubcommand(sample.get().printingTo(out));
    }
    cl.setUsageHelpWidth(HELP_WIDTH);
    cl.setUsageHelpLongOptionsMaxWidth(HELP_WIDTH / 5);
    cl.setOut(writer(out));
    cl.setErr(writer(err));
    cl.setParameterExceptionHandler(Main::usageError);
    return cl;
  }

  /** The listing: usage, every sample with its one line, and where to go next. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  /**
   * What is wrong, the closest known names (picocli's "did you mean"), and the usage of the
   * command that refused it (the sample's options, or the list of samples).
   */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println(e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    cmd.usage(err);
    err.flush();
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  private static PrintWriter writer(PrintStream stream) {
    return new PrintWriter(stream, true);
  }
}
