package dev.troupe.actor;

/** Replies that carry an outcome; a {@link Failure} reply fails an ask. */
public final class Status {
  private Status() {}

  /**
   * A successful outcome.
   *
   * @param status the result
   */
  public record Success(Object status) implements java.io.Serializable {}

  /**
   * A failed outcome.
   *
   * @param cause the failure
   */
  public record Failure(Throwable cause) implements java.io.Serializable {}
}
