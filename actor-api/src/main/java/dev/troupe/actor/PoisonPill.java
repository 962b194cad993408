package dev.troupe.actor;

/** Stops the receiving actor once it processes this message: messages queued before it are handled first, those after it go to dead letters. */
public final class PoisonPill implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  private static final PoisonPill INSTANCE = new PoisonPill();

  private PoisonPill() {}

  /** @return the single instance */
  public static PoisonPill getInstance() {
    return INSTANCE;
  }

  private Object readResolve() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "PoisonPill";
  }
}
