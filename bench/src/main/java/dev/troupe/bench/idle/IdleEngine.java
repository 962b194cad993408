package dev.troupe.bench.idle;

/**
 * One side of {@code IdleCpu}: an actor system on its framework's defaults (Troupe with an
 * {@code idle-cpu-level}, optionally 16 workers; Pekko as shipped; or no system at all, the bare
 * JVM). The benchmark drives every side through this interface, so the same code measures all.
 */
public interface IdleEngine {

  /**
   * Creates the system and nothing else: no actor, no message (a system created and never used).
   *
   * @param name the system name, the prefix of all its threads' names
   */
  void start(String name);

  /** Creates a pinger/ponger pair and a stamp reader on the default dispatcher. */
  void createActors();

  /**
   * Runs {@code roundTrips} sequential pinger/ponger round trips and waits for them (bounded).
   *
   * @param roundTrips how many
   */
  void burst(int roundTrips);

  /**
   * Sends one message from the calling thread to the stamp reader, which notes when it began to
   * process it, and waits (bounded) for that.
   *
   * @return nanoseconds from the send to the start of the actor's processing
   */
  long pickupNanos();

  /** Terminates the system (bounded). */
  void stop();

  /**
   * @param subject {@code bare}, {@code troupe-<level>}, {@code troupe-<level>-16w} (the default
   *     dispatcher's {@code parallelism-min = 16}) or {@code pekko}
   * @return its engine
   */
  static IdleEngine create(String subject) {
    if (subject.equals("bare")) {
      return new BareIdle();
    }
    if (subject.equals("pekko")) {
      return new PekkoIdle();
    }
    String prefix = "troupe-";
    if (subject.startsWith(prefix)) {
      String rest = subject.substring(prefix.length());
      int minWorkers = 0;
      if (rest.endsWith("-16w")) {
        minWorkers = 16;
        rest = rest.substring(0, rest.length() - "-16w".length());
      }
      int level = Integer.parseInt(rest);
      if (level < 1 || level > 10) {
        throw new IllegalArgumentException("idle-cpu-level is 1..10, was " + level);
      }
      return new TroupeIdle(level, minWorkers);
    }
    throw new IllegalArgumentException(
        "unknown subject '" + subject + "': expected bare, troupe-<1..10>[-16w] or pekko");
  }
}
