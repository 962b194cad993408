package dev.troupe.actor;

/** Sent to an actor that set a receive timeout and received nothing for that long. */
public final class ReceiveTimeout implements NotInfluenceReceiveTimeout, java.io.Serializable {
  private static final long serialVersionUID = 1L;
  private static final ReceiveTimeout INSTANCE = new ReceiveTimeout();

  private ReceiveTimeout() {}

  /** @return the single instance */
  public static ReceiveTimeout getInstance() {
    return INSTANCE;
  }

  private Object readResolve() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "ReceiveTimeout";
  }
}
