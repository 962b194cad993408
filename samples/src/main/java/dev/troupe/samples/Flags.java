package dev.troupe.samples;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** Minimal {@code --name value} flag parsing with clear errors. */
public final class Flags {
  private final Map<String, String> values = new HashMap<>();

  /**
   * @param args the flags
   * @param known the accepted names (without dashes)
   * @throws IllegalArgumentException naming an unknown flag or a missing value
   */
  public Flags(String[] args, Set<String> known) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("expected a flag like --name value, got '" + a + "'");
      }
      String name = a.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (name.equals("help")) {
        value = "true";
      } else {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("flag --" + name + " needs a value");
        }
        value = args[++i];
      }
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown flag --" + name + "; known: " + known);
      }
      values.put(name, value);
    }
  }

  /** @return whether --help was given */
  public boolean help() {
    return values.containsKey("help");
  }

  /**
   * @param name the flag
   * @param def the default
   * @param min the smallest allowed value
   * @return the value
   */
  public int intValue(String name, int def, int min) {
    String v = values.get(name);
    if (v == null) {
      return def;
    }
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
   * @param name the flag
   * @param def the default (may be {@code null})
   * @return the value as given
   */
  public String text(String name, String def) {
    return values.getOrDefault(name, def);
  }

  /**
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
}
