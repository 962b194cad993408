package dev.troupe.bench.savina;

/**
 * One side of a Savina benchmark. Each benchmark has a Troupe and a Pekko class implementing it,
 * written to mirror each other line by line; the benchmark's JMH class javadoc says what {@code
 * size} and {@code work} mean for it.
 */
public interface SavinaDriver {

  /**
   * Starts the system and the long-lived actors.
   *
   * @param size the number of actors (ring members, chameneos, workers; unused by some)
   */
  void setup(int size);

  /**
   * Runs one invocation and waits for it (bounded); throws if the result is wrong.
   *
   * @param work the amount of work (messages, hops, meetings, pings, actors)
   */
  void runIteration(int work);

  /** Terminates the system (bounded). */
  void teardown();
}
