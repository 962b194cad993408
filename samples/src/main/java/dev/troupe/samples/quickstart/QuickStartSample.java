package dev.troupe.samples.quickstart;

import dev.troupe.samples.Sample;
import java.io.PrintStream;

/** Runs the README's quick start. */
public final class QuickStartSample implements Sample {
  @Override
  public String name() {
    return "quickstart";
  }

  @Override
  public String description() {
    return "the README's quick start: an actor, tell, ask, stop";
  }

  @Override
  public int run(String[] args, PrintStream out) throws Exception {
    out.println(QuickStart.run());
    return 0;
  }
}
