package dev.troupe.persistence.query;

/** The offset before every event: a query given it starts at the beginning. */
public final class NoOffset implements Offset {
  private static final NoOffset INSTANCE = new NoOffset();

  private NoOffset() {}

  /** @return the one instance */
  public static NoOffset getInstance() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "NoOffset";
  }
}
