package dev.troupe.actor.typed;

/**
 * The last signal an actor gets, after it stopped (by returning {@code Behaviors.stopped()}, by its
 * parent, or after a failure that stopped it): release resources here. Its children are stopped by
 * then. A singleton.
 */
public final class PostStop implements Signal {
  private static final PostStop INSTANCE = new PostStop();

  private PostStop() {}

  /** @return the signal */
  public static PostStop instance() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "PostStop";
  }
}
