package dev.troupe.samples;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The samples' {@code --name value} (or {@code --name=value}) options.
 *
 * <p>A sample declares its options once, with their meaning and default, in a {@link Spec}, and
 * parses with it:
 *
 * <pre>{@code
 * static final Flags.Spec OPTIONS = Flags.spec("pingpong", "actor pairs ping-ponging")
 *     .number("pairs", "actor pairs", 4, 1)
 *     .choice("executor", "the dispatcher's executor", "affinity", "affinity", "fork-join");
 *
 * Flags f = OPTIONS.parse(args);   // --help, an unknown option or a bad value: Flags.Exit
 * int pairs = f.intValue("pairs");
 * }</pre>
 *
 * {@link Spec#parse} answers {@code --help} with every option, its meaning and default, and
 * rejects an unknown option, a missing or malformed value with the known options, each by throwing
 * {@link Exit} (exit code 0 or 2), which the launcher ({@link Main}) prints and exits with.
 *
 * <p>The older form, {@link #Flags(String[], Set)} with a default at each read, still works for
 * samples that print their own help.
 */
public final class Flags {
  /** The launcher's exit code for a command line it cannot run. */
  public static final int USAGE_ERROR = 2;

  private final Map<String, String> values = new HashMap<>();
  private final Spec spec; // null: the older, undeclared form

  /**
   * The older form: parses names only; values are read (and checked) with a default each.
   *
   * @param args the flags
   * @param known the accepted names (without dashes)
   * @throws IllegalArgumentException naming an unknown flag (with the known ones) or a missing value
   */
  public Flags(String[] args, Set<String> known) {
    this.spec = null;
    scan(args, known::contains, () -> List.copyOf(new TreeSet<>(known)));
  }

  private Flags(Spec spec, String[] args) {
    this.spec = spec;
    scan(args, n -> n.equals("help") || spec.options.containsKey(n), spec::names);
  }

  private void scan(String[] args, Predicate<String> known, Supplier<List<String>> names) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("expected an option like --name value, got '" + a + "'");
      }
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (!known.test(name)) {
        throw new IllegalArgumentException("unknown option --" + name + "; known: " + dashed(names.get()));
      }
      if (value == null) {
        if (name.equals("help")) {
          value = "true";
        } else if (i + 1 >= args.length) {
          throw new IllegalArgumentException("option --" + name + " needs a value");
        } else {
          value = args[++i];
        }
      }
      values.put(name, value);
    }
  }

  private static String dashed(List<String> names) {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      out.add("--" + n);
    }
    return String.join(", ", out);
  }

  /** @return whether --help was given */
  public boolean help() {
    return values.containsKey("help");
  }

  /**
   * A declared number option's value (checked by {@link Spec#parse}).
   *
   * @param name the option
   * @return its value or its default
   */
  public int intValue(String name) {
    Option o = declared(name);
    return parseInt(name, values.getOrDefault(name, o.defaultValue), o.min);
  }

  /**
   * A declared text or choice option's value.
   *
   * @param name the option
   * @return its value or its default (which may be {@code null})
   */
  public String text(String name) {
    return values.getOrDefault(name, declared(name).defaultValue);
  }

  private Option declared(String name) {
    Option o = spec == null ? null : spec.options.get(name);
    if (o == null) {
      throw new IllegalStateException("--" + name + " is not a declared option");
    }
    return o;
  }

  /**
   * The older form: a number with a default.
   *
   * @param name the flag
   * @param def the default
   * @param min the smallest allowed value
   * @return the value
   */
  public int intValue(String name, int def, int min) {
    String v = values.get(name);
    return v == null ? def : parseInt(name, v, min);
  }

  private static int parseInt(String name, String v, int min) {
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + v + "'");
    }
    if (n < min) {
      throw new IllegalArgumentException("--" + name + " must be >= " + min + ", got " + n);
    }
    return n;
  }

  /**
   * The older form: text with a default.
   *
   * @param name the flag
   * @param def the default (may be {@code null})
   * @return the value as given
   */
  public String text(String name, String def) {
    return values.getOrDefault(name, def);
  }

  /**
   * The older form: one of some values, with a default.
   *
   * @param name the flag
   * @param def the default
   * @param allowed accepted values
   * @return the value
   */
  public String choice(String name, String def, Set<String> allowed) {
    String v = values.getOrDefault(name, def);
    if (!allowed.contains(v)) {
      throw new IllegalArgumentException("--" + name + " must be one of " + allowed + ", got '" + v + "'");
    }
    return v;
  }

  /**
   * Starts the declaration of a sample's options.
   *
   * @param sample the sample's name
   * @param description one line saying what it does (the launcher's listing shows it too)
   * @return an empty declaration
   */
  public static Spec spec(String sample, String description) {
    return new Spec(sample, description);
  }

  /** One declared option. */
  private record Option(String name, String meta, String meaning, String defaultValue, int min, List<String> allowed) {}

  /** A sample's options: their names, meanings and defaults, in the order {@code --help} lists them. */
  public static final class Spec {
    private final String sample;
    private final String description;
    private final Map<String, Option> options = new LinkedHashMap<>();

    private Spec(String sample, String description) {
      this.sample = sample;
      this.description = description;
    }

    /** @return the sample's one-line description */
    public String description() {
      return description;
    }

    /**
     * Declares a whole-number option.
     *
     * @param name the option, without dashes
     * @param meaning what it sets
     * @param def its default
     * @param min the smallest value it accepts
     * @return this declaration
     */
    public Spec number(String name, String meaning, int def, int min) {
      return add(new Option(name, "N", meaning, Integer.toString(def), min, List.of()));
    }

    /**
     * Declares a text option.
     *
     * @param name the option, without dashes
     * @param meta what its value is, in one word (e.g. {@code PATH})
     * @param meaning what it sets
     * @param def its default, or {@code null} for none
     * @return this declaration
     */
    public Spec text(String name, String meta, String meaning, String def) {
      return add(new Option(name, meta, meaning, def, 0, List.of()));
    }

    /**
     * Declares an option that takes one of a few values.
     *
     * @param name the option, without dashes
     * @param meaning what it sets
     * @param def its default, one of {@code allowed}
     * @param allowed the values it accepts
     * @return this declaration
     */
    public Spec choice(String name, String meaning, String def, String... allowed) {
      if (!List.of(allowed).contains(def)) {
        throw new IllegalArgumentException("the default of --" + name + " is not one of its values");
      }
      return add(new Option(name, "X", meaning, def, 0, List.of(allowed)));
    }

    private Spec add(Option o) {
      if (o.name().equals("help") || options.putIfAbsent(o.name(), o) != null) {
        throw new IllegalArgumentException("--" + o.name() + " is declared twice");
      }
      return this;
    }

    /** @return the options' names in declaration order, {@code help} last */
    List<String> names() {
      List<String> names = new ArrayList<>(options.keySet());
      names.add("help");
      return names;
    }

    /**
     * Parses a sample's arguments and checks every value.
     *
     * @param args the arguments after the sample's name
     * @return the options
     * @throws Exit with exit code 0 and {@link #help()} for {@code --help}; with {@link
     *     #USAGE_ERROR} and what is wrong for an unknown option, a missing value or a bad one
     */
    public Flags parse(String[] args) {
      Flags f;
      try {
        f = new Flags(this, args);
        if (f.help()) {
          throw new Exit(0, help());
        }
        for (Option o : options.values()) {
          String v = f.values.get(o.name());
          if (v == null) {
            continue;
          }
          if (o.meta().equals("N")) {
            parseInt(o.name(), v, o.min());
          } else if (!o.allowed().isEmpty() && !o.allowed().contains(v)) {
            throw new IllegalArgumentException(
                "--" + o.name() + " must be one of " + String.join(" | ", o.allowed()) + ", got '" + v + "'");
          }
        }
      } catch (IllegalArgumentException e) {
        throw new Exit(USAGE_ERROR, e.getMessage() + "\n(" + sample + " --help lists the options)");
      }
      return f;
    }

    /** @return what {@code --help} prints: usage, description, and each option with its default */
    public String help() {
      StringBuilder sb = new StringBuilder();
      sb.append("usage: java -jar samples/target/troupe-samples.jar ").append(sample);
      sb.append(options.isEmpty() ? "" : " [options]").append('\n');
      sb.append(description).append("\n\noptions:\n");
      for (Option o : options.values()) {
        String meaning = o.meaning();
        if (!o.allowed().isEmpty()) {
          meaning += ": " + String.join(" | ", o.allowed());
        }
        meaning += o.defaultValue() == null ? " (no default)" : " (default " + o.defaultValue() + ")";
        sb.append(String.format("  %-22s %s%n", "--" + o.name() + " " + o.meta(), meaning));
      }
      sb.append(String.format("  %-22s %s", "--help", "show this help"));
      return sb.toString();
    }
  }

  /**
   * Ends a sample before it starts: {@code --help} (exit code 0) or a command line it cannot run
   * ({@link #USAGE_ERROR}). The launcher prints the message and exits with the code.
   */
  public static final class Exit extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;

    /**
     * @param code the exit code
     * @param text what to print
     */
    public Exit(int code, String text) {
      super(text, null, false, false);
      this.code = code;
    }

    /** @return the process exit code */
    public int code() {
      return code;
    }
  }
}
