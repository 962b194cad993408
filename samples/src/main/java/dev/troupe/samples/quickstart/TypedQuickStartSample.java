package dev.troupe.samples.quickstart;

import dev.troupe.samples.Sample;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** Runs the quick start written typed; it has no options but {@code --help}. */
@Command(name = "typed-quickstart", description = "the quick start written typed: a behaviour, tell, ask, stop")
public final class TypedQuickStartSample extends Sample {
  @Override
  protected int run(PrintStream out) throws Exception {
    out.println(TypedQuickStart.run());
    return 0;
  }
}
