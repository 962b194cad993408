package dev.troupe.actor.typed;

/**
 * The signal a behaviour gets before it is replaced by a restart (a {@code Behaviors.supervise}
 * with {@link SupervisorStrategy#restart()} or a backoff): release what the new incarnation will
 * set up again. A singleton.
 */
public final class PreRestart implements Signal {
  private static final PreRestart INSTANCE = new PreRestart();

  private PreRestart() {}

  /** @return the signal */
  public static PreRestart instance() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "PreRestart";
  }
}
