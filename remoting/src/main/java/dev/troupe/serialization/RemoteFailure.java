package dev.troupe.serialization;

import dev.troupe.actor.RemoteCause;

/**
 * A failure that happened on another node, as it arrives here: the name of the original exception
 * class and its message (and its causes, likewise). Troupe never instantiates the named class —
 * reading exceptions by name would let a peer construct arbitrary classes — so a {@code
 * Status.Failure} from another node fails an ask with a {@code RemoteFailure}; match on {@link
 * #originalClassName()} to tell kinds apart, or in a supervisor's decider with {@code
 * DeciderBuilder.matchRemote(Original.class, …)}. Whether the original was an {@code
 * ExpectedFailure} travels too ({@link #expectedFailure()}), so the supervisor's log line is the
 * same one-line WARN as for a local expected failure.
 *
 * <p>It carries no stack trace: the original's frames are on the other node, and the local ones
 * would only show the deserializer.
 */
public final class RemoteFailure extends RuntimeException implements RemoteCause {
  private static final long serialVersionUID = 1L;

  private final String originalClassName;
  private final boolean expected;

  /**
   * @param originalClassName the fully qualified class name of the original exception
   * @param message the original message, may be null
   * @param cause the original cause, likewise read back, or null
   */
  public RemoteFailure(String originalClassName, String message, RemoteFailure cause) {
    this(originalClassName, message, cause, false);
  }

  /**
   * @param originalClassName the fully qualified class name of the original exception
   * @param message the original message, may be null
   * @param cause the original cause, likewise read back, or null
   * @param expected whether the original was an {@link dev.troupe.actor.ExpectedFailure}
   */
  public RemoteFailure(String originalClassName, String message, RemoteFailure cause, boolean expected) {
    super(message, cause, true, false);
    if (originalClassName == null || originalClassName.isEmpty()) {
      throw new IllegalArgumentException("originalClassName must not be empty");
    }
    this.originalClassName = originalClassName;
    this.expected = expected;
  }

  /** @return the fully qualified class name of the exception thrown on the other node */
  @Override
  public String originalClassName() {
    return originalClassName;
  }

  @Override
  public boolean expectedFailure() {
    return expected;
  }

  /** @return {@code <original class>: <message>}, as the original would print itself */
  @Override
  public String toString() {
    String m = getMessage();
    return m == null ? originalClassName : originalClassName + ": " + m;
  }
}
