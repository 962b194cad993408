package dev.troupe.serialization;

/**
 * A failure that happened on another node, as it arrives here: the name of the original exception
 * class and its message (and its causes, likewise). Troupe never instantiates the named class —
 * reading exceptions by name would let a peer construct arbitrary classes — so a {@code
 * Status.Failure} from another node fails an ask with a {@code RemoteFailure}; match on {@link
 * #originalClassName()} to tell kinds apart.
 *
 * <p>It carries no stack trace: the original's frames are on the other node, and the local ones
 * would only show the deserializer.
 */
public final class RemoteFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String originalClassName;

  /**
   * @param originalClassName the fully qualified class name of the original exception
   * @param message the original message, may be null
   * @param cause the original cause, likewise read back, or null
   */
  public RemoteFailure(String originalClassName, String message, RemoteFailure cause) {
    super(message, cause, true, false);
    if (originalClassName == null || originalClassName.isEmpty()) {
      throw new IllegalArgumentException("originalClassName must not be empty");
    }
    this.originalClassName = originalClassName;
  }

  /** @return the fully qualified class name of the exception thrown on the other node */
  public String originalClassName() {
    return originalClassName;
  }

  /** @return {@code <original class>: <message>}, as the original would print itself */
  @Override
  public String toString() {
    String m = getMessage();
    return m == null ? originalClassName : originalClassName + ": " + m;
  }
}
