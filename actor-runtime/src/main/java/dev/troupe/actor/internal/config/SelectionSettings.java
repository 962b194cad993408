package dev.troupe.actor.internal.config;

import com.typesafe.config.Config;
import dev.troupe.runtime.spi.ConfigReader;

/**
 * {@code troupe.actor.selection.*}: what the walk of one selection may cost, read once when the
 * system starts (a malformed value fails the start with a {@code ConfigurationException} naming
 * the key). A selection beyond either bound delivers nothing (the core package's {@code
 * SelectionRefusals}).
 *
 * @param maxElements the most path elements a selection may have
 * @param maxVisited the most actors one selection's walk may visit
 */
public record SelectionSettings(int maxElements, int maxVisited) {
  /** The key of {@link #maxElements}. */
  public static final String MAX_ELEMENTS = "troupe.actor.selection.max-elements";
  /** The key of {@link #maxVisited}. */
  public static final String MAX_VISITED = "troupe.actor.selection.max-visited";

  /**
   * @param config the system's configuration
   * @return the bounds
   * @throws dev.troupe.actor.ConfigurationException naming the key of a malformed value
   */
  public static SelectionSettings from(Config config) {
    return new SelectionSettings(
        ConfigReader.intAtLeast(config, "", MAX_ELEMENTS, 1), ConfigReader.intAtLeast(config, "", MAX_VISITED, 1));
  }
}
