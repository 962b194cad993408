package dev.troupe.actor.internal.config;

import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ConfigReader;
import java.time.Duration;

/**
 * The system-wide {@code troupe.*} settings, parsed and validated once at system start; each error
 * names the full key.
 */
public record RuntimeSettings(
    boolean daemonic,
    int logDeadLetters,
    Duration logDeadLettersSuspendDuration,
    boolean logDeadLettersDuringShutdown,
    boolean logConfigWarnings,
    boolean logNoLoggingProviderNotice,
    boolean debugUnhandled,
    boolean debugLifecycle,
    String provider,
    int stashCapacity,
    Duration schedulerTick,
    int ticksPerWheel) {

  /**
   * @param c the system's configuration
   * @return the settings
   * @throws ConfigurationException naming the key of a missing or malformed value
   */
  public static RuntimeSettings from(Config c) {
    String p = "troupe";
    Config t = c.getConfig(p);
    int logDeadLetters = logCount(t);
    String provider = ConfigReader.string(t, p, "actor.provider");
    if (provider.isBlank()) {
      throw new ConfigurationException(
          "invalid configuration value at 'troupe.actor.provider': expected local, remote or a class name, was empty");
    }
    Duration tick = ConfigReader.durationAtLeastZero(t, p, "scheduler.tick-duration");
    if (tick.isZero()) {
      throw new ConfigurationException(
          "invalid configuration value at 'troupe.scheduler.tick-duration': must be positive");
    }
    int ticks = ConfigReader.intAtLeast(t, p, "scheduler.ticks-per-wheel", 1);
    if (Integer.bitCount(ticks) != 1) {
      throw new ConfigurationException(
          "invalid configuration value at 'troupe.scheduler.ticks-per-wheel': must be a power of two, was " + ticks);
    }
    return new RuntimeSettings(
        ConfigReader.bool(t, p, "daemonic"),
        logDeadLetters,
        ConfigReader.durationAtLeastZero(t, p, "log-dead-letters-suspend-duration"),
        ConfigReader.bool(t, p, "log-dead-letters-during-shutdown"),
        ConfigReader.bool(t, p, "log-config-warnings"),
        ConfigReader.bool(t, p, "log-no-logging-provider-notice"),
        ConfigReader.bool(t, p, "actor.debug.unhandled"),
        ConfigReader.bool(t, p, "actor.debug.lifecycle"),
        provider,
        ConfigReader.intAtLeast(t, p, "actor.stash-capacity", -1),
        tick,
        ticks);
  }

  /** {@code log-dead-letters}: on = 10, off = 0, or a count; -1 = all. */
  private static int logCount(Config t) {
    String v = ConfigReader.string(t, "troupe", "log-dead-letters");
    switch (v) {
      case "on", "true", "yes" -> {
        return 10;
      }
      case "off", "false", "no" -> {
        return 0;
      }
      default -> {
        try {
          int n = Integer.parseInt(v);
          if (n >= -1) {
            return n;
          }
        } catch (NumberFormatException ignored) {
          // fall through to the error
        }
        throw new ConfigurationException(
            "invalid configuration value at 'troupe.log-dead-letters': expected on, off, -1 or a count, was '"
                + v + "'");
      }
    }
  }
}
