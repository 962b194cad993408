package dev.troupe.samples;

import java.io.PrintStream;

/** A runnable sample: a name, a one-line description, and a main taking the remaining args. */
public interface Sample {
  /** @return the name to run it by */
  String name();

  /** @return one line for the launcher's listing */
  String description();

  /**
   * Runs the sample.
   *
   * @param args its flags
   * @param out where it prints
   * @return the process exit code
   * @throws Flags.Exit for {@code --help} or a command line it cannot run (see {@link Flags.Spec#parse})
   * @throws Exception on failure
   */
  int run(String[] args, PrintStream out) throws Exception;
}
