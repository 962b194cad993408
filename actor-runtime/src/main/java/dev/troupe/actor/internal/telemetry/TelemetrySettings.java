package dev.troupe.actor.internal.telemetry;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ConfigReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code troupe.telemetry}, parsed once when the system starts.
 *
 * @param enabled whether the system collects telemetry
 * @param actorPaths patterns of actor paths that get an entry of their own
 * @param jmx whether the figures are registered as MBeans
 * @param sampleEvery one mailbox run and one message in this many is timed
 * @param mailboxDepth whether mailboxes count their queues for depth samples
 */
public record TelemetrySettings(
    boolean enabled, List<String> actorPaths, boolean jmx, int sampleEvery, boolean mailboxDepth) {
  private static final String P = "troupe.telemetry";

  /** Copies the pattern list. */
  public TelemetrySettings {
    actorPaths = List.copyOf(actorPaths);
  }

  /**
   * @param c the system's configuration
   * @return the settings
   * @throws ConfigurationException naming the key of a bad value
   */
  public static TelemetrySettings from(Config c) {
    Config t = c.getConfig(P);
    boolean enabled = ConfigReader.bool(t, P, "enabled");
    boolean jmx = ConfigReader.bool(t, P, "jmx");
    int sampleEvery = ConfigReader.intAtLeast(t, P, "sample-every", 1);
    boolean mailboxDepth = ConfigReader.bool(t, P, "mailbox-depth");
    List<String> paths;
    try {
      paths = t.getStringList("actor-paths");
    } catch (ConfigException e) {
      throw new ConfigurationException(
          "invalid configuration value at '" + P + ".actor-paths': expected a list of actor path"
              + " patterns such as [\"/user/orders/*\"] (" + e.getMessage() + ")",
          e);
    }
    for (String p : paths) {
      if (!p.startsWith("/") || p.contains("//") || (p.length() > 1 && p.endsWith("/"))) {
        throw new ConfigurationException(
            "invalid configuration value at '" + P + ".actor-paths': '" + p
                + "' is not an actor path pattern (like /user/orders/* or /user/**)");
      }
    }
    return new TelemetrySettings(enabled, paths, jmx, sampleEvery, mailboxDepth);
  }

  /**
   * The patterns as one matcher: {@code *} stands for any characters within one path element,
   * {@code **} for any number of elements; everything else is literal.
   *
   * @return the matcher, or null if no pattern was given
   */
  Pattern pathMatcher() {
    if (actorPaths.isEmpty()) {
      return null;
    }
    List<String> alternatives = new ArrayList<>();
    for (String p : actorPaths) {
      StringBuilder re = new StringBuilder();
      int i = 0;
      while (i < p.length()) {
        if (p.startsWith("**", i)) {
          re.append(".*");
          i += 2;
        } else if (p.charAt(i) == '*') {
          re.append("[^/]*");
          i++;
        } else {
          int next = p.indexOf('*', i);
          int end = next < 0 ? p.length() : next;
          re.append(Pattern.quote(p.substring(i, end)));
          i = end;
        }
      }
      alternatives.add("(?:" + re + ")");
    }
    return Pattern.compile(String.join("|", alternatives));
  }
}
