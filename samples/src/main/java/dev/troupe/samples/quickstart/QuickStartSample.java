package dev.troupe.samples.quickstart;

import dev.troupe.samples.Flags;
import dev.troupe.samples.Sample;
import java.io.PrintStream;

/** Runs the README's quick start. */
public final class QuickStartSample implements Sample {
  private static final Flags.Spec OPTIONS =
      Flags.spec("quickstart", "the README's quick start: an actor, tell, ask, stop");

  @Override
  public String name() {
    return "quickstart";
  }

  @Override
  public String description() {
    return OPTIONS.description();
  }

  @Override
  public int run(String[] args, PrintStream out) throws Exception {
    OPTIONS.parse(args); // no options: --help, or an error for anything given
    out.println(QuickStart.run());
    return 0;
  }
}
