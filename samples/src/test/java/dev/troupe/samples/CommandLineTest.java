package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every sample's command line: --help with options and defaults, and unknown options refused. */
class CommandLineTest {
  static Stream<String> samples() {
    return Main.SAMPLES.stream().map(Sample::name);
  }

  /** The options a sample lists when it refuses an unknown one. */
  private static List<String> knownOptions(String sample) {
    String out = Launcher.run(Flags.USAGE_ERROR, sample, "--no-such-option");
    assertTrue(out.contains("unknown option --no-such-option"), out);
    Matcher m = Pattern.compile("known: (.*)").matcher(out);
    assertTrue(m.find(), "lists the known options:\n" + out);
    List<String> names = new ArrayList<>();
    for (String n : m.group(1).split(", ")) {
      names.add(n.trim());
    }
    return names;
  }

  @ParameterizedTest
  @MethodSource("samples")
  void anUnknownOptionIsRefusedWithExitCode2AndTheKnownOnes(String sample) {
    List<String> known = knownOptions(sample);
    assertTrue(known.contains("--help"), sample + ": " + known);
    for (String n : known) {
      assertTrue(n.matches("--[a-z][a-z-]*"), sample + " lists '" + n + "'");
    }
  }

  @ParameterizedTest
  @MethodSource("samples")
  void helpDescribesEveryOptionWithItsDefaultAndExitsWith0(String sample) {
    String help = Launcher.run(0, sample, "--help");
    for (String option : knownOptions(sample)) {
      if (option.equals("--help")) {
        continue;
      }
      String line = help.lines().filter(l -> l.trim().startsWith(option + " ")).findFirst()
          .orElseThrow(() -> new AssertionError(sample + " --help has no line for " + option + ":\n" + help));
      assertTrue(line.contains("default") || line.contains("required"), sample + " --help, no default:\n" + line);
    }
  }

  @Test
  void helpDoesNotRunTheSample() {
    String out = Launcher.run(0, "quickstart", "--help");
    assertTrue(out.startsWith("usage: java -jar samples/target/troupe-samples.jar quickstart"), out);
    assertFalse(out.contains("Hello"), out);
  }

  @Test
  void aDeclaredSpecChecksEveryValueAtParse() {
    Flags.Spec spec = Flags.spec("demo", "a demo")
        .number("count", "how many", 3, 1)
        .text("name", "NAME", "who", null)
        .choice("mode", "how", "fast", "fast", "slow");
    Flags defaults = spec.parse(new String[0]);
    assertEquals(3, defaults.intValue("count"));
    assertEquals(null, defaults.text("name"));
    assertEquals("fast", defaults.text("mode"));

    Flags given = spec.parse(new String[] {"--count=7", "--name", "ann", "--mode", "slow"});
    assertEquals(7, given.intValue("count"));
    assertEquals("ann", given.text("name"));
    assertEquals("slow", given.text("mode"));

    assertUsageError(spec, "--count must be >= 1, got 0", "--count", "0");
    assertUsageError(spec, "--count must be a whole number, got 'many'", "--count", "many");
    assertUsageError(spec, "--mode must be one of fast | slow, got 'medium'", "--mode", "medium");
    assertUsageError(spec, "option --name needs a value", "--name");
    assertUsageError(spec, "unknown option --colour; known: --count, --name, --mode, --help", "--colour", "red");
    assertUsageError(spec, "expected an option like --name value, got 'stray'", "stray");

    Flags.Exit help = assertThrows(Flags.Exit.class, () -> spec.parse(new String[] {"--help"}));
    assertEquals(0, help.code());
    assertEquals(String.join("\n",
            "usage: java -jar samples/target/troupe-samples.jar demo [options]",
            "a demo",
            "",
            "options:",
            "  --count N              how many (default 3)",
            "  --name NAME            who (no default)",
            "  --mode X               how: fast | slow (default fast)",
            "  --help                 show this help"),
        help.getMessage().replace(System.lineSeparator(), "\n"));
  }

  private static void assertUsageError(Flags.Spec spec, String expected, String... args) {
    Flags.Exit e = assertThrows(Flags.Exit.class, () -> spec.parse(args));
    assertEquals(Flags.USAGE_ERROR, e.code());
    assertTrue(e.getMessage().startsWith(expected + "\n"), e.getMessage());
    assertTrue(e.getMessage().endsWith("(demo --help lists the options)"), e.getMessage());
  }
}
