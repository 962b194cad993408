package dev.troupe.samples.quickstart;

import dev.troupe.samples.Sample;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** Runs the README's quick start; it has no options but {@code --help}. */
@Command(name = "quickstart", description = "the README's quick start: an actor, tell, ask, stop")
public final class QuickStartSample extends Sample {
  @Override
  protected int run(PrintStream out) throws Exception {
    out.println(QuickStart.run());
    return 0;
  }
}
