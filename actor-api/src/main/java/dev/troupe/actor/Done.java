package dev.troupe.actor;

/**
 * The value of a stage that completes with nothing to say but "it is finished", e.g. a task of
 * {@link CoordinatedShutdown}. There is one instance, {@link #getInstance()}.
 */
public final class Done implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  private static final Done INSTANCE = new Done();

  private Done() {}

  /** @return the single instance */
  public static Done getInstance() {
    return INSTANCE;
  }

  private Object readResolve() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "Done";
  }
}
