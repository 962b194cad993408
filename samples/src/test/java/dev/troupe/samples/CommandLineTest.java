package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Every sample's command line, as picocli reads it through the launcher: --help lists every
 * option with its default, and what cannot run (an unknown option or sample, a malformed or
 * out-of-range value) is refused with exit code 2, the reason naming the option, and the usage.
 */
class CommandLineTest {
  private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

  static Stream<String> samples() {
    return Main.commandLine(NOWHERE, NOWHERE).getSubcommands().keySet().stream();
  }

  /** The sample's options as it declares them (what the help and the errors must agree with). */
  private static CommandSpec spec(String sample) {
    return Main.commandLine(NOWHERE, NOWHERE).getSubcommands().get(sample).getCommandSpec();
  }

  /**
   * The text an option's help describes it with: its line (the option a few spaces in, its
   * description after it) and the further indented lines its description wraps onto.
   *
   * @return null if the help has no line for it
   */
  static String optionHelp(String help, String option) {
    Pattern start = Pattern.compile("( {1,8})" + Pattern.quote(option) + "(=.*| .*|)");
    List<String> lines = help.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = start.matcher(lines.get(i));
      if (m.matches()) {
        StringBuilder sb = new StringBuilder(lines.get(i).trim());
        String deeper = m.group(1) + "  ";
        for (int j = i + 1; j < lines.size() && lines.get(j).startsWith(deeper); j++) {
          sb.append(' ').append(lines.get(j).trim());
        }
        return sb.toString();
      }
    }
    return null;
  }

  @ParameterizedTest
  @MethodSource("samples")
  void helpListsEveryOptionWithItsDefaultAndExitsWith0(String sample) {
    Launcher.Output help = Launcher.runApart(0, sample, "--help");
    assertEquals("", help.err());
    assertTrue(help.out().startsWith("usage: java -jar samples/target/troupe-samples.jar " + sample), help.out());
    for (OptionSpec o : spec(sample).options()) {
      String text = optionHelp(help.out(), o.longestName());
      assertTrue(text != null, sample + " --help has no line for " + o.longestName() + ":\n" + help.out());
      if (o.usageHelp()) {
        continue;
      }
      String shown = o.defaultValueString();
      assertTrue(text.contains("default"), sample + ", no default: " + text);
      if (!shown.equals("null")) {
        assertTrue(text.contains("(default " + shown + ")"), sample + ", default " + shown + " not shown: " + text);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("samples")
  void anUnknownOptionIsRefusedWithExitCode2NamingItAndTheUsage(String sample) {
    Launcher.Output refused = Launcher.runApart(Launcher.USAGE_ERROR, sample, "--no-such-option");
    assertEquals("", refused.out(), "errors go to the error stream");
    String err = refused.err();
    assertTrue(err.startsWith("Unknown option: '--no-such-option'"), err);
    assertTrue(err.contains("usage: java -jar samples/target/troupe-samples.jar " + sample), err);
    for (OptionSpec o : spec(sample).options()) {
      assertTrue(optionHelp(err, o.longestName()) != null, "the usage lists " + o.longestName() + ":\n" + err);
    }
  }

  @ParameterizedTest
  @MethodSource("samples")
  void aMalformedNumberIsRefusedWithExitCode2NamingTheOption(String sample) {
    List<String> checked = new ArrayList<>();
    for (OptionSpec o : spec(sample).options()) {
      if (o.type() == int.class || o.type() == Integer.class) {
        String err = Launcher.runApart(Launcher.USAGE_ERROR, sample, o.longestName(), "many").err();
        assertTrue(err.startsWith("Invalid value for option '" + o.longestName() + "': 'many' is not an int"), err);
        assertTrue(err.contains("usage: "), err);
        checked.add(o.longestName());
      }
    }
    if (!sample.equals("quickstart") && !sample.equals("typed-quickstart") && !sample.equals("pingpong-latency")) {
      assertFalse(checked.isEmpty(), sample + " has whole-number options");
    }
  }

  @Test
  void aCloseMisspellingGetsPicocliSuggestionAndTheUsage() {
    String err = Launcher.runApart(Launcher.USAGE_ERROR, "pingpong", "--pair", "3").err();
    assertTrue(err.startsWith("Unknown options: '--pair', '3'"), err);
    assertTrue(err.contains("Possible solutions: --pairs"), err);
    assertTrue(err.contains("usage: java -jar samples/target/troupe-samples.jar pingpong"), err);
    assertTrue(optionHelp(err, "--in-flight") != null, err);
  }

  @Test
  void aValueOutOfRangeIsRefusedBeforeTheSampleRuns() {
    Launcher.Output o = Launcher.runApart(Launcher.USAGE_ERROR, "pingpong", "--pairs", "0");
    assertEquals("", o.out(), "nothing ran");
    assertTrue(o.err().startsWith("--pairs must be >= 1, got 0"), o.err());
    assertTrue(o.err().contains("usage: java -jar samples/target/troupe-samples.jar pingpong"), o.err());
  }

  @Test
  void theExecutorIsOneOfItsNamesAndHelpListsThem() {
    String help = optionHelp(Launcher.run(0, "pingpong", "--help"), "--executor");
    assertTrue(help.contains("affinity, fork-join, thread-pool (default affinity)"), help);
    String err = Launcher.runApart(Launcher.USAGE_ERROR, "pingpong", "--executor", "magic").err();
    assertTrue(err.startsWith("Invalid value for option '--executor': 'magic' is not one of [affinity, fork-join, thread-pool]"),
        err);
  }

  @Test
  void optionsTakeTheirValueAfterASpaceOrAnEqualsSign() {
    CommandLine cl = Main.commandLine(NOWHERE, NOWHERE);
    ParseResult parsed = cl.parseArgs("pingpong", "--pairs=3", "--executor", "fork-join", "--seconds", "7").subcommand();
    assertEquals(3, (int) parsed.matchedOptionValue("--pairs", 0));
    assertEquals("fork-join", parsed.matchedOptionValue("--executor", null).toString());
    assertEquals(7, (int) parsed.matchedOptionValue("--seconds", 0));
  }

  @Test
  void withoutArgumentsTheLauncherListsEverySample() {
    Launcher.Output o = Launcher.runApart(0);
    assertEquals("", o.err());
    assertTrue(o.out().startsWith("usage: java -jar samples/target/troupe-samples.jar <sample> [options]"), o.out());
    for (String sample : samples().toList()) {
      String description = spec(sample).usageMessage().description()[0];
      assertTrue(o.out().lines().anyMatch(l -> l.matches("  " + sample + " +\\Q" + description + "\\E")),
          sample + " is listed with its description:\n" + o.out());
    }
    assertTrue(o.out().contains("run a sample with --help to see its options and their defaults"), o.out());
  }

  @Test
  void anUnknownSampleIsRefusedWithExitCode2AndTheList() {
    Launcher.Output o = Launcher.runApart(Launcher.USAGE_ERROR, "pingpnog");
    assertEquals("", o.out());
    assertTrue(o.err().startsWith("Unmatched argument at index 0: 'pingpnog'"), o.err());
    assertTrue(o.err().contains("Did you mean: java -jar samples/target/troupe-samples.jar pingpong "), o.err());
    assertTrue(o.err().contains("samples:"), o.err());
  }

  @Test
  void helpDoesNotRunTheSample() {
    String out = Launcher.run(0, "quickstart", "--help");
    assertTrue(out.startsWith("usage: java -jar samples/target/troupe-samples.jar quickstart"), out);
    assertFalse(out.contains("Hello"), out);
  }
}
