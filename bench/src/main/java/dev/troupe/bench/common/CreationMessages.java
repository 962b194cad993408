package dev.troupe.bench.common;

/** Messages of {@code ActorCreation}. */
public final class CreationMessages {
  private CreationMessages() {}

  /** Tells a parent to create {@code children} children and complete when all have started. */
  public record Spawn(Completion done, int children) {}

  /** Sent by each child to its parent from {@code preStart}. */
  public enum Started {
    INSTANCE
  }
}
