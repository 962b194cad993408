package dev.troupe.actor;

/** Makes the receiving actor fail with {@link ActorKilledException} when processed; its supervisor decides what happens next (by default: stop). */
public final class Kill implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  private static final Kill INSTANCE = new Kill();

  private Kill() {}

  /** @return the single instance */
  public static Kill getInstance() {
    return INSTANCE;
  }

  private Object readResolve() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "Kill";
  }
}
