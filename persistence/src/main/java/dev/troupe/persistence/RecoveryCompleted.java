package dev.troupe.persistence;

/**
 * Given to a persistent actor's recovery behaviour after the snapshot and the events: its state is
 * recovered, and commands start arriving after this.
 */
public final class RecoveryCompleted {
  private static final RecoveryCompleted INSTANCE = new RecoveryCompleted();

  private RecoveryCompleted() {}

  /** @return the one instance */
  public static RecoveryCompleted getInstance() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "RecoveryCompleted";
  }
}
