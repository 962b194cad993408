package dev.troupe.actor.internal;

import com.typesafe.config.Config;
import dev.troupe.runtime.spi.ConfigReader;

/**
 * {@code troupe.actor.selection.*}: what the walk of one selection may cost, read once when the
 * system starts (a malformed value fails the start with a {@code ConfigurationException} naming
 * the key). A selection beyond either bound delivers nothing ({@link SelectionRefusals}).
 *
 * @param maxElements the most path elements a selection may have
 * @param maxVisited the most actors one selection's walk may visit (see {@link SelectionWalk})
 */
record SelectionSettings(int maxElements, int maxVisited) {
  static final String MAX_ELEMENTS = "troupe.actor.selection.max-elements";
  static final String MAX_VISITED = "troupe.actor.selection.max-visited";

  static SelectionSettings from(Config config) {
    return new SelectionSettings(
        ConfigReader.intAtLeast(config, "", MAX_ELEMENTS, 1), ConfigReader.intAtLeast(config, "", MAX_VISITED, 1));
  }
}
