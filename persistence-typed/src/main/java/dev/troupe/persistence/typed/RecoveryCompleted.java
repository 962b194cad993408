package dev.troupe.persistence.typed;

import dev.troupe.actor.typed.Signal;

/**
 * The signal an event-sourced or durable-state behaviour gets once its state is recovered, before
 * its first command.
 */
public final class RecoveryCompleted implements Signal {
  private static final RecoveryCompleted INSTANCE = new RecoveryCompleted();

  private RecoveryCompleted() {}

  /** @return the one instance */
  public static RecoveryCompleted instance() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "RecoveryCompleted";
  }
}
