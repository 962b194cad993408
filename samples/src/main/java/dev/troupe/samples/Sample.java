package dev.troupe.samples;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A runnable sample: a picocli command of the launcher ({@link Main}). A sample declares its name
 * and one-line description in its {@code @Command}, and its options as {@code @Option} fields
 * whose initial value (or {@code defaultValue}) is the default that {@code --help} shows:
 *
 * <pre>
 * &#64;Command(name = "pingpong", description = "N actor pairs ping-ponging; prints messages/s")
 * public final class PingPong extends Sample {
 *   &#64;Option(names = "--pairs", paramLabel = "N", description = "actor pairs (default ${DEFAULT-VALUE})")
 *   private int pairs = 4;
 *
 *   protected int run(PrintStream out) {
 *     atLeast("--pairs", pairs, 1); // a usage error (exit code 2) naming the option
 *     ...
 * }</pre>
 *
 * Picocli parses the command line into a fresh instance for every run: it answers {@code --help}
 * (exit code 0) and refuses an unknown option or a malformed value (exit code 2, see {@link Main})
 * before {@link #run} starts; what picocli cannot check (a range, a rule between options) the
 * sample checks first thing in {@link #run} with the helpers below, which end it the same way.
 */
@Command(
    synopsisHeading = "usage: ",
    abbreviateSynopsis = true,
    descriptionHeading = "",
    optionListHeading = "%noptions:%n",
    sortOptions = false)
public abstract class Sample implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--help", usageHelp = true, description = "show this help", order = Integer.MAX_VALUE)
  private boolean help;

  private PrintStream out = System.out;

  /**
   * Where the sample prints; the launcher sets it before picocli runs the sample.
   *
   * @param out the stream
   * @return this sample
   */
  final Sample printingTo(PrintStream out) {
    this.out = out;
    return this;
  }

  /** Runs the sample once picocli has set its options. */
  @Override
  public final Integer call() throws Exception {
    return run(out);
  }

  /**
   * Runs the sample with the options picocli has set.
   *
   * @param out where it prints
   * @return the process exit code
   * @throws ParameterException for a value out of range (see {@link #usageError}): exit code 2
   * @throws Exception on failure
   */
  protected abstract int run(PrintStream out) throws Exception;

  /**
   * A command line this sample cannot run, beyond what picocli checks; throw it before the sample
   * starts anything, and the launcher prints the message and the usage and exits with code 2.
   *
   * @param message what is wrong, naming the option
   * @return the exception to throw
   */
  protected final ParameterException usageError(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * Checks a whole-number option's lower bound.
   *
   * @param option the option, with its dashes
   * @param value its value
   * @param min the smallest value it accepts
   * @return the value
   * @throws ParameterException {@code --x must be >= min, got value}
   */
  protected final int atLeast(String option, int value, int min) {
    if (value < min) {
      throw usageError(option + " must be >= " + min + ", got " + value);
    }
    return value;
  }

  /**
   * Checks a whole-number option's bounds.
   *
   * @param option the option, with its dashes
   * @param value its value
   * @param min the smallest value it accepts
   * @param max the largest value it accepts
   * @return the value
   * @throws ParameterException {@code --x must be >= min} or {@code <= max}{@code , got value}
   */
  protected final int within(String option, int value, int min, int max) {
    if (value > max) {
      throw usageError(option + " must be <= " + max + ", got " + value);
    }
    return atLeast(option, value, min);
  }

  /**
   * Checks a duration option's bounds.
   *
   * @param option the option, with its dashes
   * @param value its value
   * @param min the shortest it may be
   * @param max the longest it may be
   * @return the value
   * @throws ParameterException {@code --x must be from min to max, got value}
   */
  protected final Duration within(String option, Duration value, Duration min, Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw usageError(option + " must be from " + Durations.format(min) + " to " + Durations.format(max)
          + ", got " + Durations.format(value));
    }
    return value;
  }
}
